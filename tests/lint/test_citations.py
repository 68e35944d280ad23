"""Every lint rule cites the upstream function it mirrors (file and pinned commit) and upstream's message.

The functions named in mind-cluster and Volcano are looked up in the pinned source archives
(``../shared/upstream/src``), so a citation cannot name a function that is not there.
"""
from __future__ import annotations

import ast
import io
import os
import re
import tarfile
import tokenize

import pytest

from tests.checkout import ROOT, run_cli

from .conftest import SHARED

ARCHIVES = {
    "mind-cluster 22bb3d98": "mind-cluster-22bb3d987bc0.tar.gz",
    "Volcano v1.12.0": "volcano-v1.12.0.tar.gz",
    "Volcano v1.9.0": "releases/volcano-v1.9.0.tar.gz",
    **{f"mind-cluster {release}": f"releases/mind-cluster-{release}.tar.gz"
       for release in ("v6.0.0", "v7.0.RC1", "v7.3.2", "v26.0.1", "v26.1.0")},
}


def _lint_ids():
    from ascend_compile.lint.registry import lint_rules

    return sorted(r.id for r in lint_rules())


def _citations():
    """Every lint rule's citation, by ID: its unit's ``CITATION``."""
    from ascend_compile.catalogue import LINT, entries
    from ascend_compile.lint.registry import citation

    return {entry.id: citation(entry) for entry in entries(LINT)}


def test_every_lint_rule_has_a_citation_and_nothing_else_does():
    from ascend_compile.catalogue.citations import Citation, SOURCES

    citations = _citations()
    assert sorted(citations) == _lint_ids()
    for rule_id, cited in citations.items():
        assert isinstance(cited, Citation), rule_id
        assert cited.source in SOURCES, rule_id
        assert cited.path, rule_id
        if cited.source.startswith(("mind-cluster", "Volcano", "Kubernetes")) and not cited.path.split(" ")[0].endswith(".md"):
            assert cited.function, f"{rule_id}: a code source names its function"


def test_every_error_rule_cites_code_and_upstream_message():
    """An error claims upstream rejects, fails or never schedules: the citation says where and in what words,
    or (for a job that stays Pending without a message of upstream's own) names the function."""
    from ascend_compile import catalogue

    citations = _citations()
    for rule_id in _lint_ids():
        if catalogue.get(rule_id).severity == "error":
            assert citations[rule_id].function, rule_id


def _archive_text(archive, path, cache={}):
    key = (archive, path)
    if key not in cache:
        with tarfile.open(archive) as tar:
            member = next((m for m in tar.getmembers() if m.name.endswith("/" + path)), None)
            cache[key] = tar.extractfile(member).read().decode("utf-8") if member else None
    return cache[key]


#: mind-cluster's components that the archive leaves out: a function cited there is not looked up
NOT_ARCHIVED = ("component/ascend-device-plugin/",)


def _in_archives():
    return sorted((i, n) for i, c in _citations().items() for n, p in enumerate(c.places())
                  if p.source in ARCHIVES and p.function and not p.path.startswith(NOT_ARCHIVED))


@pytest.mark.parametrize("rule_id, number", _in_archives())
def test_the_cited_function_exists_at_the_pinned_commit(rule_id, number):
    """Each function a citation names, the one a rule mirrors and the others it reads (Kubernetes functions and
    sample scripts are not among the archives: they are not looked up)."""
    cited = _citations()[rule_id].places()[number]
    archive = os.path.join(SHARED, "upstream", "src", ARCHIVES[cited.source])
    if not os.path.exists(archive):
        pytest.skip(f"{archive} is not available (the shared research folder is not checked out)")
    text = _archive_text(archive, cited.path)
    assert text is not None, f"{rule_id}: {cited.path} is not in {ARCHIVES[cited.source]}"
    assert re.search(rf"^func (\([^)]*\) )?{re.escape(cited.function)}\(", text, re.M), (rule_id, cited.function)


def test_explain_shows_the_citation():
    result = run_cli("explain", "AC406")
    assert result.returncode == 0
    assert "**Upstream.** ``validatePolicies``" in result.stdout or "Upstream." in result.stdout
    assert "pkg/webhooks/admission/jobs/validate/util.go" in result.stdout
    assert "duplicate event" in result.stdout


#: how a docstring names upstream's code: a "Source:" line, a source prefix (``MC:``, ``VC@v1.9.0:``), an upstream
#: file of Go or a path into upstream's repositories; the pinned commits and releases are added from SOURCES
_NAMES_UPSTREAM = r"\bSources?:|\b(MC|VC|MD|K8S)(@\S+)?:|\b[\w-]+\.go\b|\b(component|pkg|staging|samples|third_party)/"


def _rule_docstrings():
    import importlib

    from ascend_compile.catalogue import LINT, entries

    for entry in entries(LINT):
        yield entry.id, importlib.import_module(f"ascend_compile.lint.rules.{entry.unit}").__doc__ or ""


def _said_again(message, doc):
    """The parts of upstream's message (between its placeholders) long enough to be a quotation, found in ``doc``."""
    flat = " ".join(doc.split())
    return [part for part in re.split(r"%\w|\.\.\.|<[^>]*>", message) if len(part.strip()) >= 20 and part in flat]


def test_a_rule_docstring_names_no_upstream_source():
    """The citation is the one place that names upstream's function, file, commit and message; the docstring says
    what, why and how to fix in our own words (it said both once, and they disagreed)."""
    from ascend_compile.catalogue.citations import SOURCES

    from ascend_compile.releases import release_of

    # a MindCluster release is what a rule is judged for (docstrings name the releases a claim holds on); a commit is a pin
    pins = [re.escape(source.split(" ")[1]) for source in SOURCES if source and not release_of(source)]
    pattern = re.compile("|".join([_NAMES_UPSTREAM, *pins]))
    found = []
    citations = _citations()
    for rule_id, doc in _rule_docstrings():
        cited = citations[rule_id]
        found += [f"{rule_id}: {m.group(0)!r}" for m in pattern.finditer(doc)]
        found += [f"{rule_id}: function {p.function!r}" for p in cited.places()
                  if p.function and re.search(rf"(?<![\w.]){re.escape(p.function)}(?!\w)", doc)]
        found += [f"{rule_id}: message {part!r}" for part in _said_again(cited.message, doc)]
    assert found == [], "say it in the citation (the unit's CITATION), not the docstring:\n" + \
        "\n".join(found)


def _rule_code_texts():
    """(file:line name, text) of every function's and class's docstring and every comment in the rule units and the
    helper modules they share."""
    for path in sorted((ROOT / "compiler" / "lint" / "rules").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and ast.get_docstring(node):
                yield f"{path.name}:{node.lineno} {node.name}", ast.get_docstring(node)
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                yield f"{path.name}:{token.start[0]} comment", token.string


def test_no_function_docstring_or_comment_in_the_rules_names_upstream():
    """The same holds below a rule's module docstring: a function's or class's docstring or a comment in a rule unit
    or a helper the units share names no upstream source, file or pinned commit, nor any function a citation names
    (a helper serves several rules, so every citation's functions count)."""
    from ascend_compile.catalogue.citations import SOURCES

    from ascend_compile.releases import release_of

    # a MindCluster release is what a rule is judged for (docstrings name the releases a claim holds on); a commit is a pin
    pins = [re.escape(source.split(" ")[1]) for source in SOURCES if source and not release_of(source)]
    functions = sorted({p.function for c in _citations().values() for p in c.places() if p.function})
    pattern = re.compile("|".join([_NAMES_UPSTREAM, *pins,
                                   *(rf"(?<![\w.]){re.escape(f)}(?!\w)" for f in functions)]))
    texts = list(_rule_code_texts())
    comments = sum(where.endswith(" comment") for where, _ in texts)
    assert comments > 100 and len(texts) - comments > 100, "the walk found the docstrings and the comments"
    found = [f"{where}: {m.group(0)!r}" for where, text in texts for m in pattern.finditer(text)]
    assert found == [], "say it in the citation (the unit's CITATION), not here:\n" + "\n".join(found)
