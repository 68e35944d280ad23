"""A baseline entry accepts exactly the finding it recorded, not another one spelled the same way.

Issue 31 (low): baseline identities were (rule, file, object, field path as kubectl spells it), so a
top-level key ``spec.foo`` and the field ``spec: {foo}`` were one identity: a pull request could remove
a baselined legacy finding and add a real one that the old entry then hid.  Format version 2 records the
path as a list of its elements and the message on its own; version 1 files are still read as written.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.hardening.helpers import ROOT, assert_clean, cli, write

JOB = (ROOT / "golden" / "matrix" / "pytorch-module-910b-8-vcjob.yaml").read_text()
JOB_SPEC = "kind: Job\nmetadata:\n  name: pytorch-module-910b-8-vcjob\n  namespace: matrix\n"


def _findings(proc) -> list:
    return json.loads(proc.stdout)["findings"]


def test_a_dotted_key_and_a_nested_field_are_two_identities(tmp_path: Path) -> None:
    job = write(tmp_path / "job.yaml", JOB + "spec.foo: 1\n")  # legacy: an unknown top-level key "spec.foo"
    assert_clean(cli("lint", "--no-cache", "job.yaml", "--write-baseline", "baseline.json", cwd=tmp_path), {0})
    recorded = json.loads((tmp_path / "baseline.json").read_text())
    assert recorded["ascendCompileBaseline"] == 3
    assert [e["path"] for e in recorded["findings"]] == [["spec.foo"]]
    # the pull request: the legacy key goes, an unknown field inside the job's spec comes
    text = JOB.replace("\nspec:\n", "\nspec:\n  foo: 1\n", 1)
    assert text.count("  foo: 1\n") == 1 and JOB_SPEC in text
    job.write_text(text)
    proc = cli("lint", "--no-cache", "job.yaml", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert_clean(proc, {1}, "1 stale entry")
    assert [(f["rule"], f["path"]) for f in _findings(proc)] == [("AC101", "spec.foo")]


def test_a_version_1_baseline_is_still_read_as_it_was_written(tmp_path: Path) -> None:
    write(tmp_path / "job.yaml", JOB + "spec.foo: 1\n")
    old = {"ascendCompileBaseline": 1, "findings": [
        {"rule": "AC101", "file": "job.yaml", "object": "Job/matrix/pytorch-module-910b-8-vcjob", "path": "spec.foo",
         "message": "unknown field"}]}
    write(tmp_path / "baseline.json", json.dumps(old))
    proc = cli("lint", "--no-cache", "job.yaml", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert_clean(proc, {0}, "1 finding(s) baselined", "0 stale entries")
    assert _findings(proc) == []


def test_an_entry_without_a_path_is_known_by_its_message_and_cannot_pass_for_a_path(tmp_path: Path) -> None:
    from ascend_compile.findings import Finding
    from ascend_compile.lint import baseline

    whole = Finding("AC101", "error", "x", (), file="a.yaml", obj="Job/ns/n")
    field = Finding("AC101", "error", "x", ("message: x",), file="a.yaml", obj="Job/ns/n")
    assert baseline.key(whole, 1) == baseline.key(field, 1)  # what version 1 could not tell apart
    assert baseline.key(whole) != baseline.key(field)
    assert baseline.key(Finding("R", "error", "m", ("a", 0))) != baseline.key(Finding("R", "error", "m", ("a", "0")))


WIDGET = "apiVersion: example.com/{version}\nkind: Widget\nmetadata:\n  name: w\n  namespace: ns\n"


def test_one_kind_and_name_under_another_api_version_is_another_object(tmp_path: Path) -> None:
    """A baselined finding of example.com/v1 Widget ns/w does not hide the same finding of example.com/v2's."""
    widget = write(tmp_path / "w.yaml", WIDGET.format(version="v1"))
    assert_clean(cli("lint", "--no-cache", "w.yaml", "--write-baseline", "baseline.json", cwd=tmp_path), {0})
    recorded = json.loads((tmp_path / "baseline.json").read_text())
    assert [(e["rule"], e["apiVersion"], e["object"]) for e in recorded["findings"]] == \
        [("AC106", "example.com/v1", "Widget/ns/w")]
    same = cli("lint", "--no-cache", "w.yaml", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert_clean(same, {0}, "1 finding(s) baselined", "0 stale entries")
    widget.write_text(WIDGET.format(version="v2"))  # the pull request: another object of that kind and name
    proc = cli("lint", "--no-cache", "w.yaml", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert_clean(proc, {0}, "1 stale entry")
    assert [(f["rule"], f["object"]) for f in _findings(proc)] == [("AC106", "Widget/ns/w")]
    assert "example.com/v2" in _findings(proc)[0]["message"]


def test_a_version_2_baseline_is_still_read_as_it_was_written(tmp_path: Path) -> None:
    write(tmp_path / "job.yaml", JOB + "spec.foo: 1\n")
    old = {"ascendCompileBaseline": 2, "findings": [
        {"rule": "AC101", "file": "job.yaml", "object": "Job/matrix/pytorch-module-910b-8-vcjob", "path": ["spec.foo"],
         "message": "unknown field"}]}
    write(tmp_path / "baseline.json", json.dumps(old))
    proc = cli("lint", "--no-cache", "job.yaml", "--baseline", "baseline.json", "--format", "json", cwd=tmp_path)
    assert_clean(proc, {0}, "1 finding(s) baselined", "0 stale entries")
    assert _findings(proc) == []
