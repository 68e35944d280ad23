"""``import`` over the whole set (issue 47 item 2): every upstream sample, every golden and every AscendJob /
Volcano Job in the repository's tests. Over the specs it gives: ``jobPatch`` is at most a tenth of the lines;
no field is dead or contradicted (each field of each spec, changed, changes what the spec compiles to or is
refused at that field, never at the patch); a job compiled from an imported spec imports again. A job of the set
that does not import is refused (AC026, or the one ID of the lint error its manifest has) with a hint, never a
traceback.
"""
from __future__ import annotations

import copy
import functools
import re
from pathlib import Path
from typing import Any, Dict, List, Tuple

import yaml

from ascend_compile.compiling.pipeline import compile_specs
from ascend_compile.errors import CompileError
from ascend_compile.files.discovery import read_documents
from ascend_compile.importer import Imported, ImportRefused, import_documents
from ascend_compile.importer.render import render
from ascend_compile.lint.session import Session, open_session
from ascend_compile.vocabulary import FRAMEWORKS
from ascend_compile.yamlio.dump import dump_document, dump_documents
from ascend_compile.yamlio.parsing import load_documents
from tests.checkout import ROOT
from tests.golden.test_import_roundtrip import GOLDENS, SAMPLES
from tests.golden.test_import_same_job import _patch_lines

_JOB = re.compile(r"(?m)^kind: (AscendJob|Job)\s*$")
TEST_JOBS = sorted(p for folder in ("lint", "negative", "hardening", "cli", "unit")
                   for p in (ROOT / "tests" / folder).rglob("*.yaml") if _JOB.search(p.read_text(errors="replace")))
WHOLE_SET = list(SAMPLES) + GOLDENS + TEST_JOBS


@functools.lru_cache(maxsize=None)
def _session() -> Session:
    """The session import and compile make when given none (no config, the built-in profiles), made once: the sweep
    compiles some 2,300 specs, and a session for each read the profile files and made a target again."""
    return open_session()


@functools.lru_cache(maxsize=None)
def _outcome(path: Path) -> Tuple[Tuple[Imported, ...], Tuple[Any, ...]]:
    """(the specs import gives for the file, the error findings of the jobs it refuses)."""
    refused: List[Any] = []
    try:
        imported = import_documents(read_documents([str(path)]), _session(), refused=refused)
    except ImportRefused as exc:
        return (), tuple(f for f in exc.findings if f.severity == "error")
    return tuple(imported), tuple(f for f in refused if f.severity == "error")


def _imported() -> List[Imported]:
    return [one for path in WHOLE_SET for one in _outcome(path)[0]]


def _compile(spec: Dict[str, Any]) -> List[Dict[str, Any]]:
    text = dump_document(spec)  # compile's writer (libyaml): yaml.safe_dump took a third of the sweep's time
    return [obj for job in compile_specs(load_documents(text, "spec.yaml"), _session()) for obj in job.objects]


def test_the_set_is_there_and_most_of_what_compiles_imports() -> None:
    assert len(TEST_JOBS) >= 100 and len(GOLDENS) >= 100
    assert len(_imported()) >= len(GOLDENS) + 40  # every golden, most samples (test_import_roundtrip says which not)


def test_job_patch_is_at_most_a_tenth_of_the_imported_lines() -> None:
    patch = total = 0
    for one in _imported():
        mine, lines = _patch_lines(render(one))
        patch, total = patch + mine, total + lines
    assert total > 3000 and patch <= total / 10, f"jobPatch is {patch} of {total} lines"


def test_a_job_of_the_set_that_does_not_import_is_refused_with_a_hint() -> None:
    bad = []
    for path in WHOLE_SET:
        specs, errors = _outcome(path)  # a traceback fails here
        if not specs and not errors:
            bad.append((path.name, "neither a spec nor a refusal"))
        bad += [(path.name, f.message) for f in errors if not f.hint or not f.message
                or not (f.rule == "AC026" or "import refuses the job:" in f.message)]
    assert bad == []


#: the fields of a few values (docs/spec.md), and those values
_CHOICES = {"framework": FRAMEWORKS, "target": ("AscendJob", "VolcanoJob"),
            "scheduling": ("nodeSelector", "schedulePolicy", "none"), "ranktable": ("env", "file", "hostPath", "none"),
            "hostArch": ("huawei-arm", "huawei-x86"), "resetConfig": ("hostPath", "configMap"),
            "restartPolicy": ("Never", "OnFailure", "Always"), "imagePullPolicy": ("IfNotPresent", "Always", "Never"),
            "faultScheduling": ("grace", "force"), "subHealthyStrategy": ("ignore", "graceExit", "forceExit"),
            "torAffinity": ("normal-schema", "large-model-schema", "null")}


def _others(field: str, value: Any) -> List[Any]:
    """Other values for a spec field: another choice, a larger number, the other boolean, a changed text, a list
    or map with one part changed."""
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return [value * 2] if field in ("npus", "pods") else [value + 1]
    if field in _CHOICES:
        return [v for v in _CHOICES[field] if v != value][:1]
    quantity = re.fullmatch(r"(\d+)(\D*)", value) if isinstance(value, str) else None
    if quantity:  # a CPU or memory quantity: twice as much
        return [f"{int(quantity.group(1)) * 2}{quantity.group(2)}"]
    if isinstance(value, str):
        return [value + "-x"]
    if isinstance(value, list) and value:
        return [value[:-1], [*value[:-1], *_others(field, value[-1])[:1]]]
    if isinstance(value, dict) and value:
        key = sorted(value)[0]
        return [{**value, key: other} for other in _others(key, value[key])[:1]]
    return []


def _verdict(spec: Dict[str, Any], field: str, value: Any, before: List[Dict[str, Any]]) -> str:
    changed = copy.deepcopy(spec)
    changed["spec"][field] = value
    try:
        after = _compile(changed)
    except CompileError as exc:
        # another target is another kind of job, which a patch written for the first kind's shape does not fit:
        # refused at the patch, and live (the job could not be the same)
        if field != "target" and any(tuple(f.path[:2]) == ("spec", "jobPatch") for f in exc.findings):
            return f"{field}: {value!r} is refused at the jobPatch (contradicted): {exc.findings[0].message}"
        return ""  # refused for the field (or what it needs): the field is checked, so it is live
    return f"{field}: {value!r} compiles to the same objects (dead)" if after == before and not _required_only(
        spec, field) else ""


def _required_only(spec: Dict[str, Any], field: str) -> bool:
    """A field a spec must give that this spec's job has no place for: the framework of a Volcano Job with
    ranktable: none (an inference job: no ranktable, leader or framework env, as upstream's inference samples;
    docs/spec.md, spec.ranktable)."""
    mine = spec["spec"]
    return field == "framework" and mine.get("target") == "VolcanoJob" and mine.get("ranktable") == "none"


def test_no_field_of_an_imported_spec_is_dead_or_contradicted() -> None:
    found, tried = [], 0
    for one in _imported():
        before = _compile(one.spec)
        for field, value in one.spec["spec"].items():
            if field == "jobPatch":
                continue
            for other in _others(field, value):
                tried += 1
                verdict = _verdict(one.spec, field, other, before)
                if verdict:
                    found.append(f"{one.source}: {verdict}")
    assert tried > 500
    assert found == [], "\n".join(found)


def test_a_job_compiled_from_an_imported_spec_imports_again(tmp_path: Path) -> None:
    refused = []
    for n, one in enumerate(_imported()):
        path = tmp_path / f"{n}.yaml"
        path.write_text(dump_documents(_compile(one.spec)), encoding="utf-8")  # as compile writes them
        try:
            import_documents(read_documents([str(path)]))
        except ImportRefused as exc:
            refused.append((one.source, [f.message for f in exc.findings if f.severity == "error"][:1]))
    assert refused == []


def test_a_job_lacking_what_a_field_writes_is_refused_with_a_hint_that_works(tmp_path: Path) -> None:
    """A Volcano Job without the ring-controller.atlas label every compiled job has (upstream reads it on the Volcano
    Job itself): refused at the job's labels, saying what it lacks and that compile would add it; doing what the
    hint says (adding the label) gives a job that imports. With --exact the same refusal: the hint offers no import
    without --exact, which would be refused too."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden" / "matrix" / "pytorch-module-910b-8-vcjob.yaml")
                                          .read_text(encoding="utf-8")) if d]
    del docs[-1]["metadata"]["labels"]["ring-controller.atlas"]
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    for exact in (False, True):
        try:
            import_documents(read_documents([str(path)]), exact=exact)
        except ImportRefused as exc:
            [finding] = [f for f in exc.findings if f.severity == "error"]
        else:
            raise AssertionError("imported a job no spec compiles to")
        assert finding.rule == "AC026" and finding.path == ("metadata", "labels")
        assert "lacks metadata.labels.ring-controller.atlas" in finding.message
        assert "compile would add it" in finding.message and "jobPatch" not in finding.message + finding.hint
        assert finding.hint.startswith("keep this job as a manifest") and \
            "add metadata.labels.ring-controller.atlas: 'ascend-910b' to the manifest" in finding.hint
    docs[-1]["metadata"]["labels"]["ring-controller.atlas"] = "ascend-910b"
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    assert import_documents(read_documents([str(path)]))
