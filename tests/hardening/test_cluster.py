"""The cluster commands against hostile surroundings: a folder named like a job, a kubectl that
hangs, a cluster that answers with escape sequences, huge kubectl output, absurd durations.

Issue 16, items 2 and 7, and the cluster parts of 9 and 11.  kubectl is a fake (see
``tests/cli/test_kubectl.py``) or a small script that misbehaves.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_kubectl import EXAMPLE, ROOT, Fake, fake  # noqa: F401 - fake is a fixture
from tests.hardening.helpers import assert_clean, cli, output, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="shell-script kubectl, process groups")


def script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / "bin" / name
    write(path, f"#!{sys.executable}\n{body}")
    path.chmod(0o755)
    return str(path)


# --------------------------------------------------------------------------- item 2: NAME or SPEC


@pytest.mark.parametrize("command", ["delete", "status"])
def test_a_bare_word_is_a_job_name_even_when_a_folder_has_that_name(fake: Fake, tmp_path: Path,
                                                                      command: str) -> None:
    write(tmp_path / "training" / "job.yaml", spec_text())  # compiles to the AscendJob resnet50-pytorch
    fake.rules({"match": ["get"], "stdout": json.dumps({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
                                                       "metadata": {"name": "training"}})})
    proc = cli(command, "training", "--kind", "acjob", "-n", "default", cwd=tmp_path, env=fake.env())
    assert "Traceback" not in output(proc)
    argvs = [call["argv"] for call in fake.calls()]
    assert argvs, output(proc)
    assert not any("resnet50-pytorch" in arg for argv in argvs for arg in argv), argvs
    assert any(argv[-1] == "training" for argv in argvs), argvs
    assert "./training" in proc.stderr_text  # type: ignore[attr-defined]


def test_a_folder_is_a_spec_when_spelled_as_a_path(fake: Fake, tmp_path: Path) -> None:
    write(tmp_path / "training" / "job.yaml", spec_text())
    proc = cli("delete", "./training", cwd=tmp_path, env=fake.env())
    assert_clean(proc, {0})
    assert any(call["argv"][-1] == "resnet50-pytorch" for call in fake.calls())


# --------------------------------------------------------------------------- item 7: timeouts

HANG = "import time\ntime.sleep(600)\n"
HANG_WITH_CHILD = "import subprocess, sys\nsubprocess.run(['sleep', '600'])\n"


@pytest.mark.parametrize("args", [["apply", EXAMPLE], ["diff", EXAMPLE], ["delete", EXAMPLE],
                                  ["delete", "some-job", "-n", "default"], ["status", "some-job", "-n", "default"]],
                         ids=["apply", "diff", "delete-spec", "delete-name", "status"])
def test_a_hung_kubectl_is_stopped(tmp_path: Path, args: list) -> None:
    kubectl = script(tmp_path, "kubectl", HANG_WITH_CHILD)
    start = time.monotonic()
    proc = cli(*args, "--kubectl", kubectl, "--kubectl-timeout", "2s", cwd=ROOT, timeout=60)
    assert_clean(proc, {4}, "did not finish within 2s")  # 4: the cluster did not answer
    assert time.monotonic() - start < 30


def test_watch_timeout_holds_even_when_kubectl_hangs(tmp_path: Path) -> None:
    kubectl = script(tmp_path, "kubectl", HANG)
    start = time.monotonic()
    proc = cli("status", "some-job", "-n", "default", "--watch", "--timeout", "2s", "--kubectl", kubectl,
               cwd=ROOT, timeout=60)
    assert_clean(proc, {4}, "timed out", "kubectl did not answer")  # 4: the cluster did not answer, not a job outcome
    assert time.monotonic() - start < 20


ANSWER_ONCE = """import json, os, sys, time
mark = os.path.join(os.path.dirname(sys.argv[0]), "answered")
if os.path.exists(mark):
    time.sleep(600)
open(mark, "w").close()
print(json.dumps({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
                  "metadata": {"name": "some-job", "namespace": "default"}, "status": {}}))
"""


@pytest.mark.parametrize("args", [["wait", "some-job", "--for=running"], ["status", "some-job", "--watch"]],
                         ids=["wait", "status-watch"])
def test_a_deadline_that_cuts_a_read_after_an_answer_is_a_timeout(tmp_path: Path, args: list) -> None:
    # the cluster answered (the job is there, not running); the next read is still in flight when
    # --timeout passes: the wait's own timeout (1, as the job is not in the state asked), not exit 4
    kubectl = script(tmp_path, "kubectl", ANSWER_ONCE)
    proc = cli(*args, "-n", "default", "--kind", "acjob", "--timeout", "3s", "--interval", "0.5s",
               "--kubectl", kubectl, cwd=ROOT, timeout=60)
    assert_clean(proc, {1}, "timed out after 3s")
    assert "did not answer" not in output(proc)


def test_every_kubectl_run_has_a_time_limit() -> None:
    from ascend_compile.cli._cluster import make_kubectl
    from ascend_compile.cli._settings import KubectlFlags

    kubectl = make_kubectl(KubectlFlags(kubectl_path=sys.executable))
    assert kubectl.process_timeout and 0 < kubectl.process_timeout <= 3600


@pytest.mark.parametrize("option", ["--interval", "--timeout"])
def test_absurd_durations_are_usage_errors(tmp_path: Path, option: str) -> None:
    kubectl = script(tmp_path, "kubectl", "")
    proc = cli("status", "x", "-n", "default", "--watch", option, "99999999999999h", "--kubectl", kubectl,
               cwd=tmp_path)
    assert_clean(proc, {2}, option.lstrip("-"))


# --------------------------------------------------------------------------- item 11: what the cluster says

HOSTILE = "evil\x1b]0;pwned\x07\x1b[2J\nFAKE: Succeeded\r"


def test_status_sanitizes_what_the_cluster_says(fake: Fake, tmp_path: Path) -> None:
    job = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "x", "namespace": "default"},
           "status": {"conditions": [{"type": "Failed", "status": "True", "reason": "Bad\x1b[31m",
                                      "message": HOSTILE}]}}
    fake.rules({"match": ["get"], "stdout": json.dumps(job)})
    proc = cli("status", "x", "--kind", "acjob", "-n", "default", cwd=tmp_path, env=fake.env())
    text = proc.stdout_text  # type: ignore[attr-defined]
    assert "\x1b" not in text and "\x07" not in text and "\r" not in text
    assert len(text.strip().splitlines()) == 1, text
    assert "evil" in text and "FAKE: Succeeded" in text


def test_kubectl_errors_are_sanitized(fake: Fake, tmp_path: Path) -> None:
    fake.rules({"match": ["apply"], "rc": 1, "stderr": f"Error from server: {HOSTILE}\n"})
    proc = cli("apply", str(ROOT / EXAMPLE), cwd=tmp_path, env=fake.env())
    assert_clean(proc, {1}, "evil")
    assert "\x1b" not in output(proc) and "\x07" not in output(proc)


def test_kubectl_output_is_streamed_not_buffered(tmp_path: Path) -> None:
    """150 MB from kubectl apply goes through in a process capped at 400 MB of address space."""
    kubectl = script(tmp_path, "kubectl", "import sys\nchunk = b'x' * 1048575 + b'\\n'\n"
                                          "for _ in range(150):\n    sys.stdout.buffer.write(chunk)\n")
    proc = cli("apply", str(ROOT / EXAMPLE), "--kubectl", kubectl, cwd=tmp_path, memory=400 * 1024 ** 2,
               timeout=120)
    assert_clean(proc, {0})
    assert len(proc.stdout) >= 150 * 1024 ** 2


def test_get_output_is_capped(tmp_path: Path) -> None:
    kubectl = script(tmp_path, "kubectl", "import sys\nsys.stdout.write('{')\nfor _ in range(300):\n"
                                          "    sys.stdout.write(' ' * 1024 * 1024)\n")
    proc = cli("status", "x", "--kind", "acjob", "-n", "default", "--kubectl", kubectl, cwd=tmp_path,
               memory=400 * 1024 ** 2, timeout=120)
    assert_clean(proc, {1, 2}, "more than")


# --------------------------------------------------------------------------- the Python client


def test_a_cluster_that_stops_answering_fails_the_python_call_instead_of_hanging() -> None:
    """``Cluster`` calls carry a request timeout by default: a server that accepts and never replies."""
    import socket

    kubernetes = pytest.importorskip("kubernetes", reason="the Python client is the optional k8s extra")
    from ascend_compile import Cluster, ClusterError

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        configuration = kubernetes.client.Configuration()
        configuration.host = f"http://127.0.0.1:{server.getsockname()[1]}"
        configuration.retries = False
        cluster = Cluster(kubernetes.client.ApiClient(configuration), "default", request_timeout=1.0)
        assert Cluster(kubernetes.client.ApiClient(configuration)).request_timeout == 60.0
        started = time.monotonic()
        with pytest.raises(ClusterError) as raised:
            cluster.status("resnet50", "AscendJob")
        assert time.monotonic() - started < 30
        assert "timed out" in str(raised.value).lower(), raised.value
