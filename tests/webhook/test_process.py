"""``webhook serve`` as a process: judged against a cluster snapshot when given one; SIGTERM turns readyz to 503
while requests are still answered, the request in flight is answered, and the process exits 0; usage and input
errors exit 2 without a traceback."""
from __future__ import annotations

import http.client
import json
import signal
import socket
import subprocess
import sys
import time
from typing import List

from tests.checkout import ROOT, checkout_env
from tests.webhook.helpers import golden_job, review


def _status(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().status
    finally:
        conn.close()


def _post(port: int, data: object) -> dict:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("POST", "/validate", body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})
        reply = conn.getresponse()
        assert reply.status == 200
        return json.loads(reply.read())["response"]
    finally:
        conn.close()


def _until_ready(port: int) -> None:
    end = time.monotonic() + 60
    while _status(port, "/readyz") != 200:
        assert time.monotonic() < end, "never ready"
        time.sleep(0.05)


def _until_event(proc: subprocess.Popen, name: str) -> List[str]:
    """The server's log lines up to and including its first ``name`` event (it logs one, or ends: as :func:`_start`,
    a blocking read; select() would miss lines already in the pipe's read buffer)."""
    lines: List[str] = []
    while True:
        line = proc.stderr.readline()
        assert line, f"the server ended before {name}: {lines}"
        lines.append(line)
        if json.loads(line)["event"] == name:
            return lines


def _until_closed(port: int) -> None:
    """Wait (up to 30 s) until the server no longer accepts connections."""
    end = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        except OSError:
            return
        assert time.monotonic() < end, "the listener never closed"
        time.sleep(0.05)


def _start(*extra: str) -> "tuple[subprocess.Popen, int, List[str]]":
    proc = subprocess.Popen([sys.executable, "-m", "ascend_compile", "webhook", "serve", "--plain-http",
                             "--no-config", "--listen", "127.0.0.1:0", *extra],
                            cwd=ROOT, env=checkout_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: List[str] = []
    while True:
        line = proc.stderr.readline()
        assert line, f"the server ended before listening: {lines}"
        lines.append(line)
        event = json.loads(line)
        if event["event"] == "listening":
            return proc, event["port"], lines


def test_sigterm_turns_readyz_503_answers_the_request_in_flight_and_exits_0() -> None:
    proc, port, lines = _start("--no-inventory", "--shutdown-delay", "3")
    try:
        _until_ready(port)
        body = json.dumps(review(golden_job(), uid="in-flight")).encode()
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.putrequest("POST", "/validate")
        conn.putheader("Content-Type", "application/json")
        conn.putheader("Content-Length", str(len(body)))
        conn.endheaders()
        conn.send(body[:100])  # in flight: half its body sent
        proc.send_signal(signal.SIGTERM)
        lines.extend(_until_event(proc, "shutting-down"))  # the signal handled (a loaded machine takes its time)
        assert _status(port, "/readyz") == 503 and _status(port, "/healthz") == 200
        _until_closed(port)  # past the shutdown delay: the listener is closed, the request still in flight
        conn.send(body[100:])
        reply = conn.getresponse()
        assert reply.status == 200 and json.loads(reply.read())["response"]["uid"] == "in-flight"
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    events = [json.loads(line)["event"] for line in lines + proc.stderr.read().splitlines()]
    assert events[-3:] == ["shutting-down", "admission", "stopped"] and "ready" in events


def test_without_tls_files_it_is_a_usage_error() -> None:
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "webhook", "serve", "--no-inventory"],
                          cwd=ROOT, env=checkout_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--tls-cert and --tls-key" in proc.stderr and "Traceback" not in proc.stderr


def test_a_tls_file_that_is_not_there_is_an_input_error_naming_it(tmp_path) -> None:
    missing = tmp_path / "tls.crt"
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "webhook", "serve", "--no-inventory",
                           "--tls-cert", str(missing), "--tls-key", str(missing), "--listen", "127.0.0.1:0"],
                          cwd=ROOT, env=checkout_env(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and str(missing) in proc.stderr and "Traceback" not in proc.stderr


def test_a_cluster_snapshot_is_what_the_cluster_aware_rules_judge_against() -> None:
    job = golden_job()
    job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] = "frozen"
    proc, port, _ = _start("--cluster-snapshot", "tests/lint/clusters/small.yaml", "--shutdown-delay", "0")
    try:
        _until_ready(port)
        answer = _post(port, review(job))
        assert answer["allowed"] is False and "AC902 at " in answer["status"]["message"]  # the queue is Closed
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_cluster_that_cannot_be_read_at_start_exits_4_without_a_traceback(tmp_path) -> None:
    kubeconfig = tmp_path / "kubeconfig"
    kubeconfig.write_text(
        "apiVersion: v1\nkind: Config\ncurrent-context: c\n"
        "clusters: [{name: c, cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}}]\n"
        "users: [{name: u, user: {token: not-a-secret}}]\n"
        "contexts: [{name: c, context: {cluster: c, user: u}}]\n")
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "webhook", "serve", "--plain-http", "--no-config",
                           "--listen", "127.0.0.1:0", "--kubeconfig", str(kubeconfig)],
                          cwd=ROOT, env=checkout_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 4 and "list nodes" in proc.stderr and "Traceback" not in proc.stderr
