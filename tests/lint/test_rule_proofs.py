"""The releases each rule is proven on (compiler/lint/proofs.py) rest on the job shapes and claims judged on the
release clusters, and every release a rule claims is backed.

- compiler/catalogue/proven.py is what scripts/gen_rule_proofs.py derives from tests/simcluster/release_shapes.py and
  test_release_claims.py (no list kept by hand beside them);
- each shape's ``rules`` are the rules lint, with the release as its target, reports at error exactly where the
  shape's recorded verdict is not ``placed`` (offline; the shapes whose verdict rests on the cluster are checked
  with its snapshot in tests/simcluster/test_releases.py);
- a rule that names a supported release in its unit (its documentation or a message), or a fact of
  compiler/releases.py, claims that release (every release, for a fact): a shape or claim, or a citation, backs it.
"""
from __future__ import annotations

import ast
import copy
import importlib.util
import json
import os
import re
import subprocess
import sys
from typing import Any, Dict, List, Set, Tuple

import pytest

from .conftest import ROOT
from tests.simcluster.release_shapes import SHAPES, Shape
from tests.simcluster.test_release_claims import CLAIMS
from tests.simcluster.test_releases import NEEDS_THE_CLUSTER, lint_errors

_RELEASE_NAME = re.compile(r"v\d+\.\d+\.(?:\d+|RC\d+)")


def test_the_proof_table_is_derived_from_the_shapes_and_claims():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_rule_proofs.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr  # "compiler/catalogue/proven.py is stale: run python scripts/..."


@pytest.mark.parametrize("shape", [s for s in SHAPES if s.id not in NEEDS_THE_CLUSTER], ids=lambda s: s.id)
def test_a_shapes_rules_are_the_errors_of_lint_where_its_cluster_does_not_place_it(shape: Shape):
    errors = {r: {line.split(":")[0] for line in lint_errors(shape, r)} for r in shape.judged_on()}
    refused = [r for r in shape.judged_on() if shape.verdicts[r] != "placed"]
    assert set().union(*(errors[r] for r in refused)) == set(shape.rules), errors
    for release in shape.judged_on():
        wanted = set(shape.rules) if release in refused else set()
        assert errors[release] & set(shape.rules) == wanted, (release, errors[release])


def test_shapes_and_claims_name_known_rules_and_facts():
    from ascend_compile.catalogue import get
    from ascend_compile.releases import FACTS, RELEASES

    for item in [*SHAPES, *CLAIMS]:
        assert all(get(rule) is not None for rule in item.rules), item.id
        assert all(fact in FACTS for fact in item.facts), item.id
    assert all(set(c.releases) <= set(RELEASES) for c in CLAIMS)


def _claimed(rule) -> Set[str]:
    """The supported releases a lint rule's unit names, and every release when it names a fact."""
    from ascend_compile.catalogue.proven import NAMED_FACTS
    from ascend_compile.releases import RELEASES

    path = os.path.join(ROOT, "compiler", "lint", "rules", rule.unit + ".py")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # what the unit cites (CITATION: the upstream files it mirrors, at the versions they were read) is no claim
    lines = text.splitlines()
    for node in ast.parse(text).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "CITATION" for t in targets):
            lines[node.lineno - 1:node.end_lineno] = [""] * (node.end_lineno - node.lineno + 1)
    named = set(_RELEASE_NAME.findall("\n".join(lines))) & set(RELEASES)
    return named | (set(RELEASES) if rule.id in NAMED_FACTS else set())


def _lint_rules() -> List:
    from ascend_compile.catalogue import LINT, entries

    return list(entries(LINT))


@pytest.mark.parametrize("rule", _lint_rules(), ids=lambda r: r.id)
def test_every_release_a_rule_claims_is_backed(rule):
    from ascend_compile.lint.proofs import proof

    unbacked = _claimed(rule) - set(proof(rule.id).releases())
    assert not unbacked, (f"{rule.id} names {sorted(unbacked)} (or a fact of compiler/releases.py) but no shape, "
                          "claim or citation backs it there: add a shape to tests/simcluster/release_shapes.py, a "
                          "claim to test_release_claims.py, or a CITED_FACTS entry in the rule's unit")


def test_a_rule_without_backing_would_fail(monkeypatch):
    """The check above has teeth: take AC215's shape away and its claim of v6.0.0 is unbacked."""
    from ascend_compile.catalogue import get
    from ascend_compile.lint import proofs

    monkeypatch.setattr(proofs, "SHOWN", {k: v for k, v in proofs.SHOWN.items() if k != "AC215"})
    assert "v6.0.0" in _claimed(get("AC215")) - set(proofs.proof("AC215").releases())


def test_a_shape_shows_the_span_between_its_ends():
    """A claim seen at the ends of a fact's span shows the releases between (restart-in-place: v26.0.1)."""
    from ascend_compile.lint.proofs import proof

    found = proof("AC312")
    assert found.shown["v26.0.1"] == ("restart-in-place",)
    assert "v26.0.1" not in [r for c in CLAIMS if c.id == "restart-in-place" for r in c.releases]


# ------------------------------------------------------------------ the fidelity runs' evidence (a third source)

def _gen_proofs():
    spec = importlib.util.spec_from_file_location("gen_rule_proofs", os.path.join(ROOT, "scripts",
                                                                                  "gen_rule_proofs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _evidence() -> Dict[str, Any]:
    with open(os.path.join(ROOT, "tests", "fidelity", "rule_evidence.json"), encoding="utf-8") as handle:
        return json.load(handle)


def _judged_error_rule(data: Dict[str, Any]) -> Tuple[str, str]:
    """A rule and a release where the evidence shows it at error (refused where it is the only error)."""
    for release, run in sorted(data["releases"].items()):
        for rule, severities in sorted(run["offline"].items()):
            error = severities.get("error") or {}
            if error.get("soleBad") and not error.get("ranJobs") and "warning" not in severities:
                return rule, release
    raise AssertionError("no rule shown at error by the fidelity evidence")


def _released(found: Dict[str, List[Tuple[str, str, int]]], rule: str) -> Set[str]:
    return {release for release, _severity, _jobs in found.get(rule, ())}


def test_a_job_run_where_the_rule_errs_takes_the_release_away():
    """A rule the evidence shows on a release is not shown there once a job where it errs ran, unless known.yaml
    explains that job there with a kind other than lint-bug; its other releases stay."""
    from tests.fidelity.known import Known

    gen, data = _gen_proofs(), _evidence()
    rule, release = _judged_error_rule(data)
    others = _released(gen.judged(data, [], [rule]), rule) - {release}
    assert release in _released(gen.judged(data, [], [rule]), rule)
    contrary = copy.deepcopy(data)
    contrary["releases"][release]["offline"][rule]["error"]["ranJobs"] = ["parent~made-up"]
    assert _released(gen.judged(contrary, [], [rule]), rule) == others
    for kind, shown in (("simulation", True), ("cluster", True), ("lint-bug", False)):
        entries = [Known("parent~made-*", "false-error", kind, "a reason", (release,))]
        assert (release in _released(gen.judged(contrary, entries, [rule]), rule)) is shown, kind
    elsewhere = [Known("parent~made-*", "false-error", "simulation", "a reason",
                       tuple(r for r in data["releases"] if r != release))]
    assert release not in _released(gen.judged(contrary, elsewhere, [rule]), rule)


def test_a_warning_is_shown_only_where_a_job_it_alone_flags_ran():
    gen = _gen_proofs()
    block = {"fired": 3, "bad": 2, "ran": 1, "sole": 2, "soleBad": 1, "soleRan": 1}
    data = {"releases": {"v26.1.0": {"offline": {"AC313": {"warning": block}}, "snapshot": {}},
                         "v7.3.2": {"offline": {"AC313": {"warning": {**block, "soleRan": 0}}}, "snapshot": {}}}}
    assert gen.judged(data, [], ["AC313"]) == {"AC313": [("v26.1.0", "warning", 1)]}
    # an error where it is not the only one shows nothing
    error = {"fired": 2, "bad": 2, "ran": 0, "sole": 0, "soleBad": 0, "soleRan": 0}
    assert gen.judged({"releases": {"v26.1.0": {"offline": {"AC301": {"error": error}}, "snapshot": {}}}}, [],
                      ["AC301"]) == {}


def test_the_evidence_counts_sole_errors_runs_and_the_snapshot_for_the_cluster_rules():
    from tests.fidelity.evidence import of_release
    from tests.fidelity.verdicts import LintFinding, Result

    def job(name: str, outcome: str, offline: List[Tuple[str, str]], snapshot: List[Tuple[str, str]]) -> Result:
        found = [LintFinding(rule, severity, "", "") for rule, severity in offline]
        return Result(name, name, "golden", "910b-8", "", outcome=outcome, findings=found,
                      cluster_findings=found + [LintFinding(rule, severity, "", "") for rule, severity in snapshot])
    run = of_release([job("a", "rejected", [("AC301", "error")], []),
                      job("b", "refused", [("AC301", "error"), ("AC302", "error")], []),
                      job("c", "running", [("AC301", "error"), ("AC313", "warning")], [("AC905", "error")]),
                      job("d", "running", [("AC313", "warning")], [("AC903", "error")]),
                      job("e", "pending", [("AC313", "warning")], [])])
    assert run["offline"]["AC301"] == {"error": {"fired": 3, "bad": 2, "ran": 1, "sole": 2, "soleBad": 1,
                                                 "soleRan": 1, "ranJobs": ["c"]}}
    assert run["offline"]["AC313"] == {"warning": {"fired": 3, "bad": 0, "ran": 2, "sole": 2, "soleBad": 0,
                                                   "soleRan": 1}}
    assert "AC905" not in run["offline"] and set(run["snapshot"]) == {"AC903", "AC905"}
    # with the snapshot, AC301 errs beside AC905 on c: AC905 is not its only error there
    assert run["snapshot"]["AC905"]["error"]["sole"] == 0 and run["snapshot"]["AC903"]["error"]["soleRan"] == 1


def test_the_evidence_holds_the_releases_docs_fidelity_reports():
    """rule_evidence.json is written with docs/fidelity.md from the same runs: the same releases, the same jobs."""
    with open(os.path.join(ROOT, "docs", "fidelity.md"), encoding="utf-8") as handle:
        rows = re.findall(r"^\| (v[\w.]+) \| (\d+) \|", handle.read(), re.M)
    assert {release: run["jobs"] for release, run in _evidence()["releases"].items()} == \
        {release: int(jobs) for release, jobs in rows}
