"""The journey "the cluster commands without a cluster" (issue 36 item 4): a cluster that cannot be reached is
not a job outcome.  It exits 4 (1 is "the job is not there or not in the state asked", 2 usage), with
``--format json`` a JSON error object on stdout, a default request timeout, and one line on stderr naming the
server and context while a call takes long.  A timeout exits 1 in ``status --watch`` and ``wait`` alike.

The real kubectl (on PATH) is run against a closed loopback port and against a loopback socket that accepts
connections and never answers; the fake kubectl of test_kubectl.py checks the flags and the wording."""
from __future__ import annotations

import json
import shutil
import socket
import time
from pathlib import Path
from typing import Iterator, List

import pytest

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

KUBECTL = shutil.which("kubectl")
real_kubectl = pytest.mark.skipif(KUBECTL is None, reason="needs kubectl on PATH (it is in this project's CI image)")
CLUSTER_COMMANDS = [["status", "job1"], ["why", "job1"], ["wait", "job1", "--timeout", "60s"], ["events", "job1"],
                    ["logs", "job1"], ["delete", "job1"]]


def _kubeconfig(tmp_path: Path, port: int) -> Path:
    config = tmp_path / "kubeconfig"
    config.write_text(f"""apiVersion: v1
kind: Config
clusters:
- name: lab
  cluster:
    server: https://127.0.0.1:{port}
    insecure-skip-tls-verify: true
contexts:
- name: lab-admin
  context:
    cluster: lab
    user: admin
    namespace: training
users:
- name: admin
  user:
    token: not-a-real-token
current-context: lab-admin
""", encoding="utf-8")
    return config


@pytest.fixture
def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]  # closed again when the with block ends: nothing listens there


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A loopback port that accepts TCP connections (the kernel's backlog) and never answers a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


def _env(tmp_path: Path) -> dict:
    import os
    return {"PATH": os.environ["PATH"], "HOME": str(tmp_path)}  # no ~/.kube cache shared with other runs


@real_kubectl
@pytest.mark.parametrize("args", CLUSTER_COMMANDS, ids=lambda a: a[0])
def test_a_closed_port_is_exit_4_not_a_job_outcome(tmp_path: Path, closed_port: int, args: List[str]) -> None:
    config = _kubeconfig(tmp_path, closed_port)
    started = time.monotonic()
    proc = cli(*args, "--kubeconfig", str(config), env=_env(tmp_path), timeout=60)
    assert proc.returncode == 4, (proc.returncode, proc.stderr)
    assert time.monotonic() - started < 30
    assert proc.stderr.startswith("error: ") and "refused" in proc.stderr


@real_kubectl
@pytest.mark.parametrize("args", [["status", "job1"], ["why", "job1"], ["wait", "job1"]], ids=lambda a: a[0])
def test_json_failure_is_a_json_error_object(tmp_path: Path, closed_port: int, args: List[str]) -> None:
    config = _kubeconfig(tmp_path, closed_port)
    proc = cli(*args, "--kubeconfig", str(config), "--format", "json", env=_env(tmp_path), timeout=60)
    assert proc.returncode == 4, proc.stderr
    error = json.loads(proc.stdout)["error"]
    assert error["exitCode"] == 4 and error["reason"] == "unreachable"
    assert "refused" in error["message"]


@real_kubectl
def test_a_server_that_never_answers_is_exit_4_with_a_contacting_line(tmp_path: Path, silent_server: int) -> None:
    config = _kubeconfig(tmp_path, silent_server)
    started = time.monotonic()
    proc = cli("status", "job1", "--kubeconfig", str(config), "--request-timeout", "1s", "--format", "json",
               env=_env(tmp_path), timeout=120)
    took = time.monotonic() - started
    assert proc.returncode == 4, proc.stderr
    assert took < 60
    assert f"contacting https://127.0.0.1:{silent_server} (context lab-admin)...\n" in proc.stderr
    assert proc.stderr.count("contacting ") == 1
    assert json.loads(proc.stdout)["error"]["reason"] == "unreachable"


@real_kubectl
def test_kubectl_timeout_against_a_silent_server_is_exit_4(tmp_path: Path, silent_server: int) -> None:
    config = _kubeconfig(tmp_path, silent_server)
    started = time.monotonic()
    proc = cli("why", "job1", "--kubeconfig", str(config), "--kubectl-timeout", "5s", env=_env(tmp_path),
               timeout=60)
    assert proc.returncode == 4, proc.stderr
    assert time.monotonic() - started < 30
    assert "no answer from the cluster" in proc.stderr


# ------------------------------------------------------------------ the same contract through the fake kubectl

REFUSED = "The connection to the server 10.0.0.1:6443 was refused - did you specify the right host or port?\n"


@pytest.mark.parametrize("args", CLUSTER_COMMANDS + [["apply", "examples/pytorch-module-910b-8.yaml"]],
                         ids=lambda a: a[0])
def test_kubectls_connection_errors_exit_4(fake: Fake, args: List[str]) -> None:
    fake.rules({"rc": 1, "stderr": REFUSED})
    proc = cli(*args, "-n", "training", env=fake.env())
    assert proc.returncode == 4, proc.stderr
    assert "was refused" in proc.stderr


def test_diff_keeps_its_own_codes_but_unreachable_is_4(fake: Fake) -> None:
    fake.rules({"match": ["diff"], "rc": 2, "stderr": "Unable to connect to the server: dial tcp: i/o timeout\n"})
    proc = cli("diff", "examples/pytorch-module-910b-8.yaml", env=fake.env())
    assert proc.returncode == 4, proc.stderr


def test_no_such_job_is_still_1(fake: Fake) -> None:
    fake.rules({"match": ["get"], "rc": 1, "stderr": 'Error from server (NotFound): ascendjobs "job1" not found\n'})
    for args in (["why", "job1"], ["wait", "job1", "--timeout", "5s"], ["delete", "job1"]):
        proc = cli(*args, "-n", "training", env=fake.env())
        assert proc.returncode == 1, (args, proc.stderr)


def test_a_default_request_timeout_is_passed(fake: Fake) -> None:
    cli("status", "job1", "-n", "training", env=fake.env())
    assert all("--request-timeout=30s" in call["argv"] for call in fake.calls())
    cli("status", "job1", "-n", "training", "--request-timeout", "0", env=fake.env())
    assert "--request-timeout=0" in fake.calls()[-1]["argv"]


def test_a_timeout_is_exit_1_in_status_watch_and_in_wait(fake: Fake) -> None:
    job = json.dumps({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
                      "metadata": {"name": "job1", "namespace": "training"}, "status": {"conditions": [
                          {"type": "Running", "status": "True", "reason": "R", "message": "m"}]}})
    fake.rules({"match": ["get", "ascendjobs.mindxdl.gitee.com"], "stdout": job},
               {"match": ["get", "jobs.batch.volcano.sh"], "rc": 1, "stderr": "Error from server (NotFound): x\n"})
    watch = cli("status", "job1", "-n", "training", "--kind", "acjob", "--watch", "--timeout", "1s", "--interval", "0.2s",
                "--format", "json", env=fake.env())
    waited = cli("wait", "job1", "-n", "training", "--kind", "acjob", "--for", "succeeded", "--timeout", "1s", "--interval", "0.2s",
                 "--format", "json", env=fake.env())
    assert watch.returncode == waited.returncode == 1, (watch.stderr, waited.stderr)
    assert "timed out after 1s" in watch.stderr and "timed out after 1s" in waited.stderr
    assert json.loads(watch.stdout.splitlines()[-1])["error"]["exitCode"] == 1
    result = json.loads(waited.stdout)
    assert result["result"] == "timed out" and result["exitCode"] == 1
