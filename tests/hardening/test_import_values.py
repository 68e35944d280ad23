"""``import`` of a manifest whose values YAML reads as other types: a located refusal, never exit 3.

Issue 43 (low): ``replicas: 2001-12-14`` (YAML reads a date) made ``import`` exit 3 (``json`` cannot write a
date, so the search crashed); a list where a path goes crashed it too (unhashable), and ``replicas: true``
imported as if it said 1. A job whose manifest has a value of the wrong type is refused at that field, under
the schema rule's ID, as ``lint`` and ``compile`` report it (exit 1: a finding, like every job import refuses,
the other jobs still imported); a value a spec cannot carry as written (a date in a string field, a key that
is not a string) is refused at its field (AC026).
"""
from __future__ import annotations

import copy
import datetime
from pathlib import Path
from typing import Any, Dict, Tuple

import pytest
import yaml

from ascend_compile.errors import AscendCompileError
from ascend_compile.importer import ImportRefused, import_documents
from ascend_compile.yamlio.parsing import load_documents
from tests.golden.test_import_roundtrip import _paths  # every field path of a job
from tests.hardening.helpers import ROOT, assert_clean, cli, write

GOLDEN = ROOT / "golden" / "pytorch-module-910b-8.yaml"
OTHER = ROOT / "golden" / "showcase" / "pytorch-pod-rescheduling-vcjob.yaml"


def _position(text: str, needle: str) -> Tuple[int, int]:
    """Line and column of the value after ``needle`` (its first occurrence)."""
    at = text.index(needle) + len(needle)
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def test_a_date_where_replicas_go_is_a_located_refusal_not_exit_3(tmp_path: Path) -> None:
    text = GOLDEN.read_text(encoding="utf-8").replace("replicas: 1\n", "replicas: 2001-12-14\n", 1)
    write(tmp_path / "job.yaml", text)
    line, column = _position(text, "replicas: ")
    proc = cli("import", "job.yaml", str(OTHER), cwd=tmp_path)
    assert_clean(proc, {1}, f"job.yaml:{line}:{column}: error: ", "2001-12-14", "[AC102]",
                 "at: spec.replicaSpecs.Master.replicas")
    assert proc.stdout_text.count("kind: TrainingJob") == 1  # the other job is still imported


@pytest.mark.parametrize("value", ["true", "1.5", "[1]", "{a: 1}", "'2'", "2001-12-14 10:00:00"])
def test_any_value_of_the_wrong_type_where_replicas_go_is_refused_there(tmp_path: Path, value: str) -> None:
    text = GOLDEN.read_text(encoding="utf-8").replace("replicas: 1\n", f"replicas: {value}\n", 1)
    write(tmp_path / "job.yaml", text)
    line, column = _position(text, "replicas: ")
    proc = cli("import", "job.yaml", cwd=tmp_path)
    assert_clean(proc, {1}, f"job.yaml:{line}:{column}: error: ", "[AC102]", "at: spec.replicaSpecs.Master.replicas")
    assert proc.stdout_text == ""


@pytest.mark.parametrize("needle, odd, where", [
    ("name: ascendjob-port\n", "name: 2001-12-14\n", "spec.replicaSpecs.Master.template.spec.containers[0].ports[0].name"),
    ("    framework: pytorch\n", "    framework: pytorch\n    1: one\n", "metadata.labels"),
])
def test_a_value_a_spec_cannot_carry_as_written_is_refused_there(tmp_path: Path, needle: str, odd: str,
                                                                 where: str) -> None:
    text = GOLDEN.read_text(encoding="utf-8").replace(needle, odd, 1)
    write(tmp_path / "job.yaml", text)
    line, _column = _position(text, odd.split("\n")[0])
    proc = cli("import", "job.yaml", cwd=tmp_path)
    assert_clean(proc, {1}, f"job.yaml:{line}:", "[AC026]", f"at: {where}\n", "quote it")


# --------------------------------------------------------------------------- every field, odd values


def _job() -> Dict[str, Any]:
    return [d for d in yaml.safe_load_all(GOLDEN.read_text(encoding="utf-8")) if d][-1]


ODD = [datetime.date(2001, 12, 14), datetime.datetime(2001, 12, 14, 10, 0), True, 1.5, None, [1], {"a": 1},
       {1: "a"}, {datetime.date(2001, 12, 14): "a"}, {None: "a"}, float("nan"), "2001-12-14", 10 ** 30]
FIELDS = [p for p in _paths(_job()) if p and p[0] not in ("apiVersion", "kind")]  # with another kind: not a job


def _import(job: Dict[str, Any]) -> None:
    text = yaml.safe_dump(job, sort_keys=False)  # dates written plain: read back as dates, as a user's file gives
    try:
        import_documents(load_documents(text, "odd.yaml"))
    except ImportRefused as exc:  # refused: each finding says where
        assert all(f.file == "odd.yaml" and f.line > 0 and f.message for f in exc.findings), exc.findings


@pytest.mark.parametrize("index", range(0, len(FIELDS), 7))
def test_odd_values_anywhere_in_a_job_are_imported_or_refused_with_a_place(index: int) -> None:
    """A table over the job's fields (every 7th, to bound the run): each odd value there either imports or is
    refused with a located finding; nothing else escapes (an exception other than the package's fails)."""
    path = FIELDS[index]
    for value in ODD:
        job = copy.deepcopy(_job())
        parent = job
        for part in path[:-1]:
            parent = parent[part]
        parent[path[-1]] = value
        try:
            _import(job)
        except AscendCompileError as exc:  # another refusal of ours: still never a crash
            assert exc.findings, (path, value)
