"""``import`` of many manifests: a job that cannot be imported is reported and the others are still imported
(exit 1); with ``-o``, two jobs that would be written to one file are refused before anything is written (AC013),
as ``compile -o`` refuses them (issue 36 item 2)."""
from __future__ import annotations

from pathlib import Path
from typing import Any, List

import yaml

from tests.checkout import ROOT, run_cli

GOLDEN = ROOT / "golden" / "pytorch-module-910b-8.yaml"  # AscendJob resnet50-pytorch
OTHER = ROOT / "golden" / "showcase" / "pytorch-pod-rescheduling-vcjob.yaml"  # Volcano Job gpt3-pod-resched


def _documents(path: Path) -> List[Any]:
    return [doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def _write(path: Path, docs: List[Any]) -> str:
    path.write_text(yaml.safe_dump_all(docs, sort_keys=False), encoding="utf-8")
    return str(path)


def test_the_same_job_in_two_namespaces_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    job = _documents(GOLDEN)[-1]
    both = [{**job, "metadata": {**job["metadata"], "namespace": namespace}} for namespace in ("prod", "staging")]
    path = _write(tmp_path / "jobs.yaml", both)
    out = tmp_path / "specs"
    proc = run_cli("import", path, "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    assert "two jobs would both be written to resnet50-pytorch.yaml" in proc.stderr and "[AC013]" in proc.stderr
    assert "namespace prod" in proc.stderr and "namespace staging" in proc.stderr
    assert "wrote" not in proc.stderr
    assert not out.exists() or list(out.iterdir()) == []
    printed = run_cli("import", path)  # on stdout both specs are there, one after the other
    assert printed.returncode == 0 and printed.stdout.count("kind: TrainingJob") == 2


def _refused_and_good(tmp_path: Path) -> List[str]:
    docs = _documents(GOLDEN)
    docs[-1]["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["hostAliases"] = None  # no spec carries a null
    return [_write(tmp_path / "bad.yaml", docs), str(OTHER)]


def test_a_job_that_cannot_be_imported_does_not_stop_the_others(tmp_path: Path) -> None:
    bad, good = _refused_and_good(tmp_path)
    out = tmp_path / "specs"
    proc = run_cli("import", bad, good, "-o", str(out))
    assert proc.returncode == 1, proc.stderr
    assert f"{bad}:" in proc.stderr and "an explicit null" in proc.stderr and "[AC026]" in proc.stderr
    assert sorted(p.name for p in out.iterdir()) == ["gpt3-pod-resched.yaml"]
    printed = run_cli("import", bad, good)
    assert printed.returncode == 1 and printed.stdout.count("kind: TrainingJob") == 1
    assert "name: gpt3-pod-resched" in printed.stdout


def test_nothing_importable_is_still_exit_1(tmp_path: Path) -> None:
    bad, _good = _refused_and_good(tmp_path)
    proc = run_cli("import", bad)
    assert proc.returncode == 1 and proc.stdout == "" and "[AC026]" in proc.stderr
