"""Issue 48's acceptance on the simulated cluster's real kube-apiserver: ``ascend-compile webhook serve`` registered
over TLS by the ValidatingWebhookConfiguration ``webhook manifests`` writes refuses a job with an error (naming the
rule), admits a clean job, admits a job with a warning that kubectl shows, answers ``--dry-run=server`` alike; down,
it is skipped under ``Ignore`` and refuses under ``Fail``; two replicas behind one address lose no admission while
each restarts in turn; its service account reads nodes and never Secrets; its logs hold no env value.

The webhook runs as local processes (the API server calls URLs on 127.0.0.1, as the cluster's Volcano webhooks),
with a certificate for 127.0.0.1 from the cluster's ``certgen``.  The API server calls one URL: a small proxy here
stands in for the Service in front of the Deployment's two replicas.  It ends TLS with the same certificate, sends
each request to the next replica that is among the Service's endpoints (its /readyz answers 200, as the readiness
probe asks: a replica starting or shutting down gets no traffic) and, when a replica closes the connection before
any answer (it is shutting down), to the other one: what a load balancer may do for a webhook that declares no side
effects (``sideEffects: None``).  An answer, a time-out or an error status is passed on as it is.

The configuration is registered only for a namespace with this test's label, so the session's other tests never
meet it; it is removed, with the namespaces and RBAC objects, when the module ends.
"""
from __future__ import annotations

import contextlib
import copy
import http.client
import json
import socket
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import pytest
import yaml

from tests.checkout import checkout_env, run_cli
from tests.simcluster import build
from tests.simcluster.cluster import SimCluster, _free_port
from tests.simcluster.jobs import write_spec
from tests.simcluster.processes import Process

WEBHOOK_NAMESPACE = "ascend-compile-e2e"
JOB_NAMESPACE = "webhook-e2e-jobs"
SELECTOR = ("ascend-compile-e2e/admission", "on")
ACCOUNT = f"system:serviceaccount:{WEBHOOK_NAMESPACE}:ascend-compile-webhook"
#: an env value the clean job carries: no log line of the webhook may hold it
ENV_VALUE = "e2e-env-value-never-logged-7f3a"
ERROR_RULE, WARNING_RULE = "AC301", "AC711"
#: cluster-gang-no-room: the session's other tests may hold the NPUs the clean job would take
ROOM_RULE = "AC907"
SETTLE = 60.0  # seconds for the API server to act on a changed webhook configuration


# ---------------------------------------------------------------------------------------------- the jobs


def _compiled_job(folder: Path) -> Dict[str, Any]:
    """A clean AscendJob (card-910b-2, 2 pods of 2 NPUs) compiled from a spec, with :data:`ENV_VALUE` in its env."""
    spec = write_spec(folder, "wh-e2e", JOB_NAMESPACE, image="pytorch-train:2.1.0",
                      env={"RUN_NOTE": ENV_VALUE})
    proc = run_cli("compile", "--no-config", str(spec))
    assert proc.returncode == 0, proc.stderr
    (job,) = [doc for doc in yaml.safe_load_all(proc.stdout) if doc and doc.get("kind") == "AscendJob"]
    return job


def _containers(job: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
    for replica in job["spec"]["replicaSpecs"].values():
        yield from replica["template"]["spec"]["containers"]


def _jobs(folder: Path) -> Dict[str, Dict[str, Any]]:
    """clean, error (3 NPUs a pod on 2-NPU cards: AC301) and warning (an env reference to nothing: AC711)."""
    clean = _compiled_job(folder)
    error, warning = copy.deepcopy(clean), copy.deepcopy(clean)
    error["metadata"]["name"], warning["metadata"]["name"] = "wh-e2e-error", "wh-e2e-warning"
    for container in _containers(error):
        container["resources"] = {"limits": {"huawei.com/Ascend910": 3}, "requests": {"huawei.com/Ascend910": 3}}
    for container in _containers(warning):
        container["env"].append({"name": "DATA_DIR", "value": "$(DATA_ROOT)/train"})
    return {"clean": clean, "error": error, "warning": warning}


def _lint_rules(job: Dict[str, Any], folder: Path, kubeconfig: Path) -> Dict[str, str]:
    """{rule: severity} of what ``lint --cluster`` (the webhook's checks against the same cluster) finds."""
    path = folder / f"lint-{job['metadata']['name']}.yaml"
    path.write_text(yaml.safe_dump(job, sort_keys=False), encoding="utf-8")
    proc = run_cli("lint", "--no-config", "--no-cache", "--cluster", "--format", "json", str(path),
                   env={"KUBECONFIG": str(kubeconfig)}, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    return {f["rule"]: f["severity"] for f in (data["findings"] if isinstance(data, dict) else data)}


# ---------------------------------------------------------------------------------------------- the proxy


class _Proxy:
    """The Service's stand-in: TLS on ``port``, each request to the next replica that answers (see the docstring)."""

    def __init__(self, port: int, backends: Sequence[int], certs: Path):
        self.port, self.backends, self.certs = port, list(backends), certs
        self.server: Optional[ThreadingHTTPServer] = None
        self.open: set = set()  # the API server's connections: closed on stop, as a process's end closes them
        self._next = 0
        self._lock = threading.Lock()
        self.client = ssl.create_default_context(cafile=str(certs / "ca.crt"))

    def order(self) -> List[int]:
        with self._lock:
            self._next = (self._next + 1) % len(self.backends)
            return self.backends[self._next:] + self.backends[:self._next]

    def ready(self, port: int) -> bool:
        """Whether the replica is among the Service's endpoints: its /readyz answers 200, as the kubelet's readiness
        probe asks (a replica starting, or shutting down, gets no traffic)."""
        conn = http.client.HTTPSConnection("127.0.0.1", port, context=self.client, timeout=2)
        try:
            conn.request("GET", "/readyz")
            return conn.getresponse().status == 200
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    def forward(self, method: str, path: str, body: bytes, content_type: str) -> tuple:
        for port in self.order():
            if path.startswith("/validate") and not self.ready(port):
                continue
            conn = http.client.HTTPSConnection("127.0.0.1", port, context=self.client, timeout=30)
            try:
                conn.request(method, path, body=body or None, headers={"Content-Type": content_type})
                response = conn.getresponse()
                return response.status, response.getheader("Content-Type") or "", response.read()
            except (ConnectionRefusedError, ConnectionResetError, BrokenPipeError, http.client.RemoteDisconnected,
                    ssl.SSLEOFError):
                continue  # not answering (down, or closed before any answer): the other replica
            except TimeoutError:
                return 504, "text/plain", b"the replica did not answer in time"  # as the API server's own time-out
            finally:
                conn.close()
        return 503, "text/plain", b"no replica answered"

    def start(self) -> None:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def handle(self) -> None:
                proxy.open.add(self.connection)
                try:
                    super().handle()
                finally:
                    proxy.open.discard(self.connection)

            def _relay(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                status, content_type, data = proxy.forward(self.command, self.path, body,
                                                           self.headers.get("Content-Type") or "")
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = _relay

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(self.certs / "tls.crt"), str(self.certs / "tls.key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)
        threading.Thread(target=server.serve_forever, name="webhook-proxy", daemon=True).start()
        self.server = server

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
            self.server = None
        for conn in list(self.open):
            with contextlib.suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)


# ---------------------------------------------------------------------------------------------- the webhook


class _Webhook:
    """Two ``webhook serve`` replicas, the proxy in front, and the configuration that registers them."""

    def __init__(self, sim: SimCluster, folder: Path, certs: Path):
        self.sim, self.folder, self.certs = sim, folder, certs
        self.ports = [_free_port(), _free_port()]
        self.replicas: Dict[int, Process] = {}
        self.proxy = _Proxy(_free_port(), self.ports, certs)

    def start_replica(self, port: int) -> None:
        argv = [sys.executable, "-m", "ascend_compile", "webhook", "serve", "--listen", f"127.0.0.1:{port}",
                "--tls-cert", str(self.certs / "tls.crt"), "--tls-key", str(self.certs / "tls.key"),
                "--kubeconfig", str(self.sim.kubeconfig), "--log-format", "json"]
        process = Process(f"webhook-{port}", argv, self.folder / f"webhook-{port}.log", env=checkout_env())
        self.replicas[port] = process.start()
        context = ssl.create_default_context(cafile=str(self.certs / "ca.crt"))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            assert process.alive(), f"webhook serve exited:\n{process.tail()}"
            with contextlib.suppress(OSError, http.client.HTTPException):
                conn = http.client.HTTPSConnection("127.0.0.1", port, context=context, timeout=5)
                conn.request("GET", "/readyz")
                if conn.getresponse().status == 200:
                    return
            time.sleep(0.3)
        raise AssertionError(f"webhook serve on {port} not ready within 120s:\n{process.tail()}")

    def restart_replica(self, port: int) -> None:
        self.replicas[port].stop(timeout=30)  # SIGTERM: a graceful shutdown, as the kubelet's
        self.start_replica(port)

    def manifests(self, policy: str) -> List[Dict[str, Any]]:
        proc = run_cli("webhook", "manifests", "--image", "ascend-compile:e2e", "--namespace", WEBHOOK_NAMESPACE,
                       "--tls", "self-signed", "--ca-bundle", str(self.certs / "ca.crt"), "--failure-policy", policy,
                       "--timeout-seconds", "10", "--namespace-selector", "=".join(SELECTOR))
        assert proc.returncode == 0, proc.stderr
        return [doc for doc in yaml.safe_load_all(proc.stdout) if doc]

    def register(self, policy: str) -> None:
        """The generated configuration, the in-cluster Service's address replaced by the proxy's URL."""
        (config,) = [o for o in self.manifests(policy) if o["kind"] == "ValidatingWebhookConfiguration"]
        for webhook in config["webhooks"]:
            client = webhook["clientConfig"]
            client["url"] = f"https://127.0.0.1:{self.proxy.port}{client.pop('service')['path']}"
        self.sim.apply_objects([config])

    def logs(self) -> str:
        return "".join(p.log.read_text(errors="replace") for p in self.replicas.values() if p.log.exists())

    def stop(self) -> None:
        self.proxy.stop()
        for process in self.replicas.values():
            process.stop()


def _apply(sim: SimCluster, job: Dict[str, Any], *flags: str) -> Any:
    return sim.kubectl("apply", *flags, "-f", "-", input=json.dumps(job), check=False, timeout=60)


def _settle(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + SETTLE
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.5)
    raise AssertionError(f"the API server did not {what} within {SETTLE:.0f}s")


def _refused_for(sim: SimCluster, job: Dict[str, Any], words: str) -> bool:
    proc = _apply(sim, job, "--dry-run=server")
    return proc.returncode != 0 and words in proc.stderr


def _switch(hook: "_Webhook", jobs: Dict[str, Dict[str, Any]], policy: str) -> None:
    """Register ``policy`` and wait until the API server acts on it, seen with the webhook down (Ignore: even the
    job with an error is admitted; Fail: even the clean job is refused), then up again (the error refused)."""
    sim = hook.sim
    hook.proxy.stop()
    try:
        hook.register(policy)
        if policy == "Ignore":
            _settle(lambda: _apply(sim, jobs["error"], "--dry-run=server").returncode == 0,
                    "admit past an Ignore webhook that is down")
        else:
            _settle(lambda: _refused_for(sim, jobs["clean"], "failed calling webhook"),
                    "refuse while a Fail webhook is down")
    finally:
        hook.proxy.start()
    _settle(lambda: _refused_for(sim, jobs["error"], ERROR_RULE), "call the webhook again")


@pytest.fixture(scope="module")
def webhook(sim: SimCluster, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    folder = tmp_path_factory.mktemp("admission-webhook")
    certs = folder / "certs"
    certgen = build.build_all(only=("certgen",))["certgen"]
    made = Process("certgen", [str(certgen), f"-dir={certs}"], folder / "certgen.log").start()
    assert made.popen is not None and made.popen.wait(timeout=60) == 0, made.tail()
    hook = _Webhook(sim, folder, certs)
    sim.kubectl("create", "namespace", JOB_NAMESPACE)
    sim.kubectl("label", "namespace", JOB_NAMESPACE, "=".join(SELECTOR))
    installed = [o for o in hook.manifests("Ignore") if o["kind"] in
                 ("Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "ConfigMap")]
    try:
        sim.apply_objects(installed)
        for port in hook.ports:
            hook.start_replica(port)
        hook.proxy.start()
        jobs = _jobs(folder)
        hook.register("Ignore")
        _settle(lambda: _refused_for(sim, jobs["error"], ERROR_RULE), "call the webhook")
        yield hook, jobs, folder
    finally:
        sim.kubectl("delete", "validatingwebhookconfiguration", "ascend-compile-webhook", "--ignore-not-found",
                    check=False)
        hook.stop()
        sim.kubectl("delete", "namespace", JOB_NAMESPACE, "--wait=false", "--ignore-not-found", check=False)
        for obj in reversed(installed):
            sim.kubectl("delete", obj["kind"].lower(), obj["metadata"]["name"], "--ignore-not-found", "--wait=false",
                        *(["-n", obj["metadata"]["namespace"]] if "namespace" in obj["metadata"] else []),
                        check=False)


# ---------------------------------------------------------------------------------------------- the tests


def test_the_jobs_are_what_they_are_said_to_be(webhook: Any, sim: SimCluster) -> None:
    """What lint finds, against the same cluster: the webhook's answers below are judged against these."""
    _, jobs, folder = webhook
    found = {name: _lint_rules(job, folder, sim.kubeconfig) for name, job in jobs.items()}
    assert not {r: s for r, s in found["clean"].items() if s in ("error", "warning") and r != ROOM_RULE}, found["clean"]
    assert found["error"].get(ERROR_RULE) == "error", found["error"]
    assert found["warning"].get(WARNING_RULE) == "warning", found["warning"]
    assert "error" not in found["warning"].values(), found["warning"]


@pytest.mark.parametrize("dry_run", [(), ("--dry-run=server",)], ids=["apply", "dry-run-server"])
def test_an_error_is_refused_with_the_finding(webhook: Any, sim: SimCluster, dry_run: Sequence[str]) -> None:
    hook, jobs, _ = webhook
    proc = _apply(sim, jobs["error"], *dry_run)
    assert proc.returncode != 0, proc.stdout
    assert "denied the request" in proc.stderr and ERROR_RULE in proc.stderr, proc.stderr + hook.logs()[-2000:]
    gone = sim.kubectl("get", "ascendjob", jobs["error"]["metadata"]["name"], "-n", JOB_NAMESPACE, check=False)
    assert gone.returncode != 0 and "NotFound" in gone.stderr


def _admitted_warnings(sim: SimCluster, job: Dict[str, Any], dry_run: Sequence[str]) -> List[str]:
    """kubectl's ``Warning:`` lines for a job that must be admitted (one really created is deleted again)."""
    proc = _apply(sim, job, *dry_run)
    if not dry_run:
        sim.kubectl("delete", "ascendjob", job["metadata"]["name"], "-n", JOB_NAMESPACE, "--wait=false",
                    "--ignore-not-found", check=False)
    assert proc.returncode == 0, proc.stderr
    return [line for line in proc.stderr.splitlines() if line.startswith("Warning:")]


@pytest.mark.parametrize("dry_run", [(), ("--dry-run=server",)], ids=["apply", "dry-run-server"])
def test_a_clean_job_is_admitted_without_a_word(webhook: Any, sim: SimCluster, dry_run: Sequence[str]) -> None:
    _, jobs, _ = webhook
    shown = _admitted_warnings(sim, jobs["clean"], dry_run)
    # the one warning a clean job may get from the live inventory: no room for its gang at this moment
    assert all(ROOM_RULE in line for line in shown), shown


@pytest.mark.parametrize("dry_run", [(), ("--dry-run=server",)], ids=["apply", "dry-run-server"])
def test_a_warning_is_admitted_and_kubectl_shows_it(webhook: Any, sim: SimCluster, dry_run: Sequence[str]) -> None:
    _, jobs, _ = webhook
    shown = _admitted_warnings(sim, jobs["warning"], dry_run)
    assert any(WARNING_RULE in line for line in shown), shown


def test_down_the_webhook_is_skipped_under_ignore_and_refuses_under_fail(webhook: Any) -> None:
    hook, jobs, _ = webhook
    try:
        _switch(hook, jobs, "Ignore")
        _switch(hook, jobs, "Fail")
    finally:
        _switch(hook, jobs, "Ignore")
    assert _apply(hook.sim, jobs["clean"], "--dry-run=server").returncode == 0


def test_a_restart_of_one_replica_loses_no_admission(webhook: Any, sim: SimCluster) -> None:
    """Under Fail (so an admission nobody answered is a refusal), jobs are applied without a pause while each
    replica is stopped (SIGTERM) and started again in turn, the next only once the first is ready again."""
    hook, jobs, _ = webhook
    results: List[tuple] = []
    done = threading.Event()

    def submit() -> None:
        while not done.is_set() or len(results) < 20:
            name = "clean" if len(results) % 2 == 0 else "error"
            proc = _apply(sim, jobs[name], "--dry-run=server")
            results.append((name, proc.returncode, proc.stderr))

    try:
        _switch(hook, jobs, "Fail")
        worker = threading.Thread(target=submit, name="webhook-submit", daemon=True)
        worker.start()
        for port in hook.ports:  # in the main thread: a replica started by a thread dies with it
            time.sleep(1.0)
            hook.restart_replica(port)
        done.set()
        worker.join(timeout=300)
        assert not worker.is_alive(), "kubectl apply hangs"
    finally:
        done.set()
        _switch(hook, jobs, "Ignore")
    lost = [(name, stderr) for name, code, stderr in results if (name == "clean") == (code != 0)
            or (name == "error" and ERROR_RULE not in stderr)]
    assert results and not lost, f"{len(lost)} of {len(results)} admissions lost: {lost[:3]}"


def test_the_service_account_reads_nodes_and_never_secrets(webhook: Any, sim: SimCluster) -> None:
    def can(*what: str) -> str:
        proc = sim.kubectl("auth", "can-i", *what, f"--as={ACCOUNT}", check=False)
        return proc.stdout.strip()

    assert can("list", "nodes") == "yes"
    assert can("watch", "queues.scheduling.volcano.sh") == "yes"
    assert can("get", "secrets") == "no"
    assert can("list", "secrets", "--all-namespaces") == "no"
    assert can("create", "ascendjobs.mindxdl.gitee.com", "-n", JOB_NAMESPACE) == "no"
    assert can("delete", "pods", "-n", JOB_NAMESPACE) == "no"


def test_the_logs_hold_no_env_value(webhook: Any, sim: SimCluster) -> None:
    hook, jobs, _ = webhook
    for name in ("clean", "warning", "error"):
        _apply(sim, jobs[name], "--dry-run=server")
    logs = hook.logs()
    assert logs, "the webhook logged nothing"
    assert ENV_VALUE not in logs


def test_every_object_it_writes_is_accepted_by_the_api_server(webhook: Any, sim: SimCluster) -> None:
    """All of ``webhook manifests --tls self-signed`` (cert-manager's kinds are not served here), server-side."""
    hook, _, _ = webhook
    objects = hook.manifests("Fail")
    kinds = {o["kind"] for o in objects}
    assert {"Deployment", "PodDisruptionBudget", "Service", "ValidatingWebhookConfiguration", "ClusterRole"} <= kinds
    for config in (o for o in objects if o["kind"] == "ValidatingWebhookConfiguration"):
        # the one registered here points at the proxy's URL: apply's merge with it would hold a url and a service
        config["metadata"]["name"] += "-written"
    text = json.dumps({"apiVersion": "v1", "kind": "List", "items": objects})
    proc = sim.kubectl("apply", "--dry-run=server", "-f", "-", input=text, check=False)
    assert proc.returncode == 0, proc.stderr
