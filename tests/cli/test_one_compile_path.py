"""``compile``, ``apply``, ``diff``, the Python API and the KRM function run the same compile steps, the
lint of the output included: nothing reaches a cluster (or a kustomize build) that ``compile`` refuses.

The spec below passes ``schedulerName: default-scheduler`` onto the Worker through ``jobPatch``: the
compiled AscendJob is schema-valid, and only the output lint (AC409, twice) refuses it.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ascend_compile import api
from ascend_compile.compiling import krm
from ascend_compile.errors import CompileError
from tests.checkout import run_cli
from tests.specs_passed_through import JOB, SCHEDULER_PATCH
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

SPEC = SCHEDULER_PATCH


@pytest.fixture
def spec(tmp_path: Path) -> str:
    path = tmp_path / "job.yaml"
    path.write_text(SPEC, encoding="utf-8")
    return str(path)


def test_compile_refuses_it(spec: str) -> None:
    proc = run_cli("compile", spec)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.count("[AC409]") == 2


@pytest.mark.parametrize("dry_run", ["client", "server", "none"])
def test_apply_refuses_it_and_sends_nothing(spec: str, fake: Fake, dry_run: str) -> None:  # noqa: F811
    proc = run_cli("apply", spec, f"--dry-run={dry_run}", env=fake.env())
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.count("[AC409]") == 2
    assert fake.calls() == []


def test_diff_refuses_it_and_asks_nothing(spec: str, fake: Fake) -> None:  # noqa: F811
    proc = run_cli("diff", spec, env=fake.env())
    assert proc.returncode == 2, proc.stderr  # diff: 1 means "differences", an error is 2
    assert proc.stderr.count("[AC409]") == 2
    assert fake.calls() == []


def test_apply_prints_the_warnings_compile_prints(tmp_path: Path, fake: Fake) -> None:  # noqa: F811
    path = tmp_path / "job.yaml"
    path.write_text(JOB + "  env: {DB_PASSWORD: hunter2}\n", encoding="utf-8")
    compiled = run_cli("compile", str(path))
    applied = run_cli("apply", str(path), "--dry-run=client", env=fake.env())
    assert compiled.returncode == applied.returncode == 0, applied.stderr
    assert "[AC801]" in compiled.stderr and applied.stderr == compiled.stderr
    assert len(fake.calls()) == 1


def test_the_api_refuses_it_as_compile_does() -> None:
    data = yaml.safe_load(SPEC)
    for call in (api.compile_to_yaml, api.compile_spec, api.compile_job):
        with pytest.raises(CompileError) as raised:
            call(data)
        assert [f.rule for f in raised.value.findings if f.severity == "error"] == ["AC409", "AC409"]


def test_the_api_gives_the_output_warnings() -> None:
    data = yaml.safe_load(JOB + "  env: {DB_PASSWORD: hunter2}\n")
    job = api.compile_job(data)
    assert job.warnings and {f.rule for f in job.warnings} == {"AC801"}


def test_api_compile_files_refuses_it(spec: str) -> None:
    with pytest.raises(CompileError) as raised:
        api.compile_files(spec)
    assert sum(f.rule == "AC409" for f in raised.value.findings) == 2


def test_the_krm_function_refuses_it() -> None:
    data = yaml.safe_load(SPEC)
    outcome = krm.run({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [data]})
    assert outcome.resource_list["items"] == [data]  # the spec stays; nothing is generated
    assert [r["tags"]["rule"] for r in outcome.resource_list["results"]] == ["AC409", "AC409"]
    assert krm.exit_status(outcome.findings) == 1


def test_krm_refuses_a_job_defined_twice_as_compile_does(tmp_path: Path) -> None:
    data = yaml.safe_load(JOB)
    path = tmp_path / "twice.yaml"
    path.write_text(yaml.safe_dump(data) + "---\n" + yaml.safe_dump(data), encoding="utf-8")
    proc = run_cli("compile", str(path))
    assert proc.returncode == 1 and "job 'job' is defined twice" in proc.stderr
    outcome = krm.run({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": [data, data]})
    assert [r["message"].split(" (also")[0] for r in outcome.resource_list["results"]] == ["job 'job' is defined twice"]
