"""The journey "I committed the compiled manifest; ask the cluster about it" (issue 36 item 6, issue 33's
``why FILE``): ``status``, ``why``, ``wait``, ``logs``, ``events`` and ``delete`` take a compiled manifest file
(an AscendJob or Volcano Job, alone or with its ConfigMaps) and name the job from it, as they do for a spec
file; a file holding no job or two is a usage error (exit 2) naming the file and what it holds."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

SPEC = "examples/pytorch-hostnetwork-ranktable.yaml"  # AscendJob gpt-finetune in namespace training
ACJOB = "ascendjobs.mindxdl.gitee.com"
VCJOB = "jobs.batch.volcano.sh"


def _compiled(tmp_path: Path) -> Path:
    proc = cli("compile", SPEC)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "gpt-finetune.yaml"
    out.write_text(proc.stdout, encoding="utf-8")
    return out


def _job(state: str = "Running") -> str:
    return json.dumps({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
                       "metadata": {"name": "gpt-finetune", "namespace": "training"},
                       "status": {"conditions": [{"type": state, "status": "True", "reason": "R", "message": "m"}]}})


def test_status_of_a_compiled_manifest_names_its_job(fake: Fake, tmp_path: Path) -> None:
    manifest = _compiled(tmp_path)
    fake.rules({"match": ["get", ACJOB, "gpt-finetune"], "stdout": _job()})
    proc = cli("status", str(manifest), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "AscendJob training/gpt-finetune: Running (R): m\n"
    (call,) = fake.calls()
    assert call["argv"][:2] == ["get", "--namespace=training"] and ACJOB in call["argv"] and "gpt-finetune" in call["argv"]


def test_status_of_the_job_document_alone(fake: Fake, tmp_path: Path) -> None:
    manifest = _compiled(tmp_path)
    job_only = tmp_path / "job-only.yaml"
    job_only.write_text(manifest.read_text().split("---\n")[-1], encoding="utf-8")
    assert "kind: AscendJob" in job_only.read_text() and "ConfigMap" not in job_only.read_text()
    fake.rules({"match": ["get", ACJOB, "gpt-finetune"], "stdout": _job("Succeeded")})
    proc = cli("status", str(job_only), "--format", "json", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    (state,) = json.loads(proc.stdout)
    assert (state["name"], state["namespace"], state["state"]) == ("gpt-finetune", "training", "Succeeded")


def test_a_volcano_job_manifest_is_looked_up_as_a_volcano_job(fake: Fake, tmp_path: Path) -> None:
    manifest = tmp_path / "vc.yaml"
    manifest.write_text("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: mnist\n"
                        "  namespace: ml\nspec:\n  tasks: []\n", encoding="utf-8")
    fake.rules({"match": ["get", VCJOB, "mnist"], "stdout": json.dumps({
        "apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": {"name": "mnist", "namespace": "ml"},
        "status": {"state": {"phase": "Running"}}})})
    proc = cli("status", str(manifest), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("Volcano Job ml/mnist: Running")
    assert all(ACJOB not in call["argv"] for call in fake.calls())


def test_delete_a_compiled_manifest_removes_what_it_holds(fake: Fake, tmp_path: Path) -> None:
    manifest = _compiled(tmp_path)
    proc = cli("delete", str(manifest), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    argvs = [c["argv"] for c in fake.calls()]
    assert [(argv[3], argv[-1]) for argv in argvs] == [(ACJOB, "gpt-finetune"),
                                                      ("configmaps", "rings-config-gpt-finetune")]
    assert all("--namespace=training" in argv for argv in argvs)


@pytest.mark.parametrize("command", ["why", "wait", "logs", "events"])
def test_the_other_job_commands_read_the_job_from_the_manifest(fake: Fake, tmp_path: Path, command: str) -> None:
    manifest = _compiled(tmp_path)
    fake.rules({"match": ["get", ACJOB, "gpt-finetune"], "stdout": _job("Succeeded")})
    extra = ["--timeout", "2s"] if command == "wait" else []
    cli(command, str(manifest), *extra, env=fake.env())
    gets = [c["argv"] for c in fake.calls() if c["argv"][0] == "get"]
    assert gets and gets[0][:2] == ["get", "--namespace=training"] and ACJOB in gets[0] and "gpt-finetune" in gets[0]


@pytest.mark.parametrize("command", ["status", "why", "delete", "wait"])
def test_a_file_with_two_jobs_is_a_usage_error(fake: Fake, tmp_path: Path, command: str) -> None:
    manifest = _compiled(tmp_path)
    two = tmp_path / "two.yaml"
    two.write_text(manifest.read_text() + "---\n" + manifest.read_text().replace("gpt-finetune", "other"),
                   encoding="utf-8")
    proc = cli(command, str(two), env=fake.env())
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        f"error: {two}: holds 2 AscendJob or Volcano Job manifests (ConfigMap rings-config-gpt-finetune, "
        "AscendJob gpt-finetune, ConfigMap rings-config-other, AscendJob other); give a file with one job "
        "(and its ConfigMaps), a job spec, or the job's NAME\n")
    assert fake.calls() == []


def test_a_file_with_no_job_is_a_usage_error(fake: Fake, tmp_path: Path) -> None:
    config_map = tmp_path / "cm.yaml"
    config_map.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n", encoding="utf-8")
    for command in ("status", "why", "delete"):
        proc = cli(command, str(config_map), env=fake.env())
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr == (f"error: {config_map}: holds 0 AscendJob or Volcano Job manifests (ConfigMap "
                               "settings); give a file with one job (and its ConfigMaps), a job spec, or the "
                               "job's NAME\n")
    assert fake.calls() == []


def test_the_manifest_namespace_must_agree_with_the_flag(fake: Fake, tmp_path: Path) -> None:
    manifest = _compiled(tmp_path)
    proc = cli("status", str(manifest), "-n", "prod", env=fake.env())
    assert proc.returncode == 2
    assert "AscendJob training/gpt-finetune is in namespace 'training' but --namespace is 'prod'" in proc.stderr
    assert fake.calls() == []


def test_a_spec_file_still_compiles(fake: Fake, tmp_path: Path) -> None:
    fake.rules({"match": ["get", ACJOB, "gpt-finetune"], "stdout": _job()})
    proc = cli("status", SPEC, env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "AscendJob training/gpt-finetune: Running (R): m\n"
