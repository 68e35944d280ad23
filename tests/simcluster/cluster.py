"""Start and stop a simulated Ascend cluster: every process on 127.0.0.1, started and stopped by PID.

Order of start (each step waits for the one before):

1. kube-apiserver + etcd (``tests/integration/controlplane.py``) with Volcano's
   and the release's AscendJob CRDs and the ``default`` Queue;
2. unless the cluster is made without it (``admission_webhook=False``: MindCluster's
   own install ships none), ``vc-webhook-manager`` with certificates made here, its
   webhook configurations registered by URL (it fills in their CA bundle itself);
3. ``vc-controller-manager``, ``vc-scheduler`` (the release's, with its Ascend NPU
   plugin and its scheduler configuration) and the release's ``ascend-operator``;
4. ``kwok`` and the fake nodes with their device-info ConfigMaps; once kwok
   reports the nodes Ready their ``node.kubernetes.io/not-ready`` taint is
   removed (the node lifecycle controller's job in a real cluster);
5. stand-ins for what other programs of a real cluster keep doing: kube-controller-manager's
   service-account controller (every namespace gets its ``default`` ServiceAccount, without which the
   API server refuses pods) and each node's device plugin (its device-info report,
   :mod:`tests.simcluster.deviceplugin`).

Logs: one file per program in ``log_dir``; :meth:`SimCluster.logs_for_failure`
gathers their tails for a test's failure message.
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import tempfile
import time
from pathlib import Path
from typing import Any, ContextManager, Dict, Iterable, List, Optional, Sequence

import yaml

from tests.integration import controlplane
from tests.simcluster import build, deviceplugin, manifests, nodes, releases, stages
from tests.simcluster.gotool import BuildError, Progress
from tests.simcluster.processes import Loop, Process, ProcessGroup

TAINT_NOT_READY = "node.kubernetes.io/not-ready"
VOLCANO_NAMESPACE = "volcano-system"
#: profiles a cluster gets nodes for by default: every profile the simulation models
DEFAULT_NODES_PER_PROFILE = 4


class SimClusterError(RuntimeError):
    """The cluster could not be built or started; carries the component logs that say why."""


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_port(port: int, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
        time.sleep(0.2)
    return False


class SimCluster:
    """A running simulated Ascend cluster, as a context manager.

    >>> with SimCluster(profiles=["module-910b-8"], release="v7.3.2") as sim:
    ...     sim.kubectl("get", "nodes")

    ``release``: the MindCluster release whose scheduler plugin and operator run (tests/simcluster/releases.py;
    the newest by default); ``admission_webhook``: whether Volcano's admission webhooks are registered.
    """

    def __init__(self, *, profiles: Optional[Sequence[str]] = None, nodes_per_profile: int = DEFAULT_NODES_PER_PROFILE,
                 keep_dir: bool = False, scheduler_verbosity: int = 3, ready_timeout: float = 180.0,
                 binaries: Optional[build.Binaries] = None, apiserver: Optional[Path] = None,
                 kubectl: Optional[str] = None, release: str = releases.DEFAULT,
                 admission_webhook: bool = True):
        """``binaries``, ``apiserver`` and ``kubectl``: the programs' paths, found beforehand (by default they
        are looked up, and built when missing, at :meth:`start`)."""
        self.all_profiles = nodes.load_profiles()
        unknown = sorted(set(profiles or ()) - set(self.all_profiles))
        if unknown:
            raise SimClusterError(f"unknown profile(s) {', '.join(unknown)}; known: {', '.join(self.all_profiles)}")
        chosen = [self.all_profiles[n] for n in (profiles or sorted(self.all_profiles))]
        self.profiles = [p for p in chosen if p.simulated]
        self.nodes_per_profile = nodes_per_profile
        try:
            self.release = releases.get(release).name
        except releases.UnknownRelease as exc:
            raise SimClusterError(str(exc)) from None
        self.admission_webhook = admission_webhook
        self.keep_dir = keep_dir or bool(os.environ.get("ASCEND_COMPILE_KEEP_SIMCLUSTER"))
        self.scheduler_verbosity = scheduler_verbosity
        self.ready_timeout = ready_timeout
        self.workdir: Optional[Path] = None
        self.control: Optional[Any] = None
        self.group = ProcessGroup()
        self.fake_nodes: List[nodes.FakeNode] = []
        self._loops: List[Loop] = []
        self._sa_seen: set = set()
        self._client: Optional[Any] = None
        self._binaries, self._apiserver, self._kubectl = binaries, apiserver, kubectl

    # ------------------------------------------------------------------ properties

    @property
    def kubeconfig(self) -> Path:
        assert self.control is not None and self.control.kubeconfig is not None, "cluster not started"
        return Path(self.control.kubeconfig)

    @property
    def log_dir(self) -> Path:
        assert self.workdir is not None, "cluster not started"
        return self.workdir / "logs"

    def running(self) -> bool:
        return bool(self.control and self.control.running) and not self.group.dead()

    def paused(self, name: str) -> ContextManager[None]:
        """Hold one of the cluster's programs (SIGSTOP) for the block, e.g. ``with sim.paused("vc-scheduler"):``."""
        return self.group.get(name).paused()

    def restart(self, name: str) -> None:
        """Start one of the cluster's programs again once it has exited, as a real install's Deployment restarts its
        crashed pod (its log goes on in the same file)."""
        process = self.group.get(name)
        if process.alive():
            raise SimClusterError(f"{name} is still running")
        process.start()

    def dead_processes(self) -> List[str]:
        dead = self.group.dead()
        if self.control is not None and not self.control.running:
            dead.append("kube-apiserver")
        return dead

    # ------------------------------------------------------------------ lifecycle

    def __enter__(self) -> "SimCluster":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "SimCluster":
        binaries = self._binaries or self._built()
        self.workdir = Path(tempfile.mkdtemp(prefix="ascend-compile-simcluster-"))
        self.log_dir.mkdir()
        try:
            self._start_control_plane()
            if self.admission_webhook:
                self._start_webhooks(binaries)
            self._start_controllers(binaries)
            self._start_kwok_and_nodes(binaries)
            self._start_stand_ins()
        except BaseException as exc:
            logs = self.logs_for_failure()
            self.stop()
            if isinstance(exc, (SimClusterError, controlplane.ControlPlaneError, RuntimeError)):
                raise SimClusterError(f"simulated cluster did not start: {exc}\n{logs}") from exc
            raise
        return self

    def _built(self) -> build.Binaries:
        cached = build.cached_binaries((self.release,))
        if cached is not None:  # without waiting for the build lock, which a build of other releases holds
            return cached
        reason = build.unavailable_reason((self.release,))
        if reason:
            raise SimClusterError(reason)
        try:
            return build.build_all(progress=Progress(), release_names=(self.release,))
        except (BuildError, build.sources.SourceError, build.patches.PatchError) as exc:
            raise SimClusterError(str(exc)) from exc

    def stop(self) -> None:
        for loop in self._loops:
            loop.stop()
        self.group.stop_all()
        if self.control is not None:
            self.control.stop()
        if self.workdir is not None and not self.keep_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)

    # ------------------------------------------------------------------ steps

    def _start_control_plane(self) -> None:
        assert self.workdir is not None
        crds = manifests.write_crds(self.workdir / "crds", self.release)
        self.control = controlplane.ControlPlane(crds=crds, create_default_queue=True, keep_dir=self.keep_dir,
                                                 binary=self._apiserver, kubectl=self._kubectl)
        self.control.start()
        # Volcano's namespace, as its chart makes it: the Ascend plugin keeps its rescheduling state
        # (vcjob-fault-npu-cm, remaining fault-retry-times the operator reads) there
        self.kubectl("create", "namespace", VOLCANO_NAMESPACE)
        # the apiserver's own log, next to ours
        if self.control.log_path is not None:
            with contextlib.suppress(OSError):
                (self.log_dir / "kube-apiserver.log").symlink_to(self.control.log_path)

    def _kubeconfig_env(self) -> Dict[str, str]:
        env = dict(os.environ)
        env["KUBECONFIG"] = str(self.kubeconfig)
        return env

    def _start_webhooks(self, binaries: build.Binaries) -> None:
        assert self.workdir is not None
        certs = self.workdir / "webhook-certs"
        out = Process("certgen", [str(binaries["certgen"]), f"-dir={certs}"], self.log_dir / "certgen.log").start()
        assert out.popen is not None
        if out.popen.wait(timeout=60) != 0:
            raise SimClusterError(f"certgen failed:\n{out.tail()}")
        port = _free_port()
        configs = manifests.webhook_configurations(port)
        self.apply_objects(configs)
        self.group.start(Process("vc-webhook-manager", [
            str(binaries["vc-webhook-manager"]), f"--kubeconfig={self.kubeconfig}",
            f"--enabled-admission={','.join(manifests.ENABLED_ADMISSIONS)}",
            f"--tls-cert-file={certs / 'tls.crt'}", f"--tls-private-key-file={certs / 'tls.key'}",
            f"--ca-cert-file={certs / 'ca.crt'}", "--listen-address=127.0.0.1", f"--port={port}",
            f"--webhook-url=https://127.0.0.1:{port}", "--enable-healthz=false", "--logtostderr", "-v=3",
        ], self.log_dir / "vc-webhook-manager.log"))
        deadline = time.monotonic() + 90
        names = [c["metadata"]["name"] for c in configs]
        while time.monotonic() < deadline:
            if not self.group.get("vc-webhook-manager").alive():
                raise SimClusterError("vc-webhook-manager exited")
            if _wait_port(port, 0.5) and all(self._webhook_has_ca(c["kind"], n) for c, n in zip(configs, names)):
                return
            time.sleep(0.5)
        raise SimClusterError("vc-webhook-manager did not register its CA bundle within 90s")

    def _webhook_has_ca(self, kind: str, name: str) -> bool:
        import kubernetes

        api = kubernetes.client.AdmissionregistrationV1Api(self.api_client())
        read = (api.read_mutating_webhook_configuration if kind.startswith("Mutating")
                else api.read_validating_webhook_configuration)
        try:
            found = json.loads(read(name, _preload_content=False).data)
        except kubernetes.client.ApiException:
            return False
        return bool(((found.get("webhooks") or [{}])[0].get("clientConfig") or {}).get("caBundle"))

    def _start_controllers(self, binaries: build.Binaries) -> None:
        assert self.workdir is not None
        # alone in its folder: the scheduler reloads it on every write in that folder (BUILDING-RELEASES.md)
        conf = self.workdir / "scheduler-conf" / "volcano-scheduler.conf"
        conf.parent.mkdir()
        conf.write_text(yaml.safe_dump(self._scheduler_conf(), sort_keys=False))
        empty_plugins = self.workdir / "scheduler-plugins"
        empty_plugins.mkdir()
        kube = f"--kubeconfig={self.kubeconfig}"
        self.group.start(Process("vc-controller-manager", [
            str(binaries["vc-controller-manager"]), kube, "--leader-elect=false",
            f"--listen-address=127.0.0.1:{_free_port()}", f"--healthz-address=127.0.0.1:{_free_port()}",
            "--logtostderr", "-v=3"], self.log_dir / "vc-controller-manager.log"))
        self.group.start(Process("vc-scheduler", [
            str(self._scheduler_program(binaries)), kube, f"--scheduler-conf={conf}", f"--plugins-dir={empty_plugins}",
            "--leader-elect=false", "--schedule-period=1s", "--percentage-nodes-to-find=100",
            f"--listen-address=127.0.0.1:{_free_port()}", f"--healthz-address=127.0.0.1:{_free_port()}",
            f"--cache-dump-dir={self.workdir}", "--logtostderr", f"-v={self.scheduler_verbosity}"],
            self.log_dir / "vc-scheduler.log"))
        self._start_operator(binaries)

    def _scheduler_conf(self) -> Dict[str, Any]:
        """The scheduler's configuration (tests/simcluster/devicestacks.py runs another)."""
        return manifests.scheduler_conf(self.release)

    def _scheduler_program(self, binaries: build.Binaries) -> Path:
        return binaries.of("vc-scheduler", self.release)

    def _start_operator(self, binaries: build.Binaries) -> None:
        # its healthz server (v26.1.0 on) would listen on a fixed port: off, so that clusters can run side by side
        healthz = ["-enable-healthz=false"] if releases.get(self.release).operator_healthz else []
        self.group.start(Process("ascend-operator", [
            str(binaries.of("ascend-operator", self.release)), f"-logFile={self.log_dir / 'ascend-operator.run.log'}",
            *healthz, "-enableGangScheduling=true", "-kubeApiQps=800", "-kubeApiBurst=800"],
            self.log_dir / "ascend-operator.log", env=self._kubeconfig_env()))

    def _start_kwok_and_nodes(self, binaries: build.Binaries) -> None:
        assert self.workdir is not None
        config = self.workdir / "kwok-stages.yaml"
        config.write_text(stages.config_yaml())
        self.group.start(Process("kwok", [
            str(binaries["kwok"]), f"--kubeconfig={self.kubeconfig}", f"--config={config}",
            "--manage-all-nodes=false", f"--manage-nodes-with-annotation-selector={nodes.KWOK_NODE_ANNOTATION}=fake",
            "--cidr=10.0.0.1/16", "--node-ip=10.0.0.1", f"--server-address=127.0.0.1:{_free_port()}",
            "--node-lease-duration-seconds=40", "--v=WARN"], self.log_dir / "kwok.log"))
        self.fake_nodes = self._render_nodes()
        self.apply_objects([n.device_info for n in self.fake_nodes])
        self.apply_objects([n.node for n in self.fake_nodes], create=True)
        names = [n.name for n in self.fake_nodes]
        deadline = time.monotonic() + self.ready_timeout
        pending = set(names)
        while pending and time.monotonic() < deadline:
            if not self.group.get("kwok").alive():
                raise SimClusterError("kwok exited")
            listed = json.loads(self.core_api().list_node(_preload_content=False).data)["items"]
            for item in listed:
                ready = any(c.get("type") == "Ready" and c.get("status") == "True"
                            for c in item.get("status", {}).get("conditions", []))
                if ready:
                    pending.discard(item["metadata"]["name"])
            if pending:
                time.sleep(0.5)
        if pending:
            raise SimClusterError(f"{len(pending)} fake node(s) not Ready within {self.ready_timeout:.0f}s")
        if names:
            self.kubectl("taint", "nodes", "--all", f"{TAINT_NOT_READY}:NoSchedule-", check=False)

    def _render_nodes(self) -> List[nodes.FakeNode]:  # the fake nodes (and device-info ConfigMaps) to start with
        return nodes.render_cluster(self.profiles, self.nodes_per_profile)

    # ------------------------------------------------------------------ stand-ins

    def _start_stand_ins(self) -> None:
        self.ensure_service_accounts()
        reports = deviceplugin.DeviceReports(self.core_api, self.fake_nodes, self.log_dir / "device-plugin.log")
        self._loops = [Loop("simcluster-serviceaccounts", self.ensure_service_accounts, 0.5).start(),
                       Loop("simcluster-device-plugin", reports.report, deviceplugin.PERIOD).start()]

    def ensure_service_accounts(self, namespaces: Iterable[str] = ()) -> None:
        """Create the ``default`` ServiceAccount in every namespace (or the ones given) that lacks it."""
        core = self.core_api()
        wanted = list(namespaces) or [ns.metadata.name for ns in core.list_namespace().items]
        for name in wanted:
            if name in self._sa_seen:
                continue
            body = {"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "default"}}
            try:
                core.create_namespaced_service_account(name, body)
            except Exception as exc:  # noqa: BLE001 - AlreadyExists is the usual answer
                if getattr(exc, "status", None) not in (409,):
                    raise
            self._sa_seen.add(name)

    # ------------------------------------------------------------------ API access

    def api_client(self) -> Any:
        """A ``kubernetes.client.ApiClient`` for this cluster (made once)."""
        if self._client is None:
            import kubernetes

            self._client = kubernetes.config.new_client_from_config(config_file=str(self.kubeconfig),
                                                                    persist_config=False)
            # The loader's hook reloads the kubeconfig before every request (for credentials that expire; ours
            # do not), and on the way reads the proxy variables by iterating os.environ: in the session
            # cluster's thread that races pytest setting PYTEST_CURRENT_TEST in the main thread (KeyError).
            self._client.configuration.refresh_api_key_hook = None
        return self._client

    def core_api(self) -> Any:
        import kubernetes

        return kubernetes.client.CoreV1Api(self.api_client())

    def custom_api(self) -> Any:
        import kubernetes

        return kubernetes.client.CustomObjectsApi(self.api_client())

    def kubectl(self, *args: str, input: Optional[str] = None, check: bool = True, timeout: float = 120.0):
        assert self.control is not None
        return self.control.kubectl(*args, input=input, check=check, timeout=timeout)

    def apply_objects(self, objects: Sequence[Dict[str, Any]], *, create: bool = False) -> None:
        """Create (``create``) or server-side apply the objects through kubectl, in one call."""
        if not objects:
            return
        text = json.dumps({"apiVersion": "v1", "kind": "List", "items": list(objects)})
        if create:
            self.kubectl("create", "-f", "-", input=text)
        else:
            self.kubectl("apply", "--server-side", "--field-manager=simcluster", "-f", "-", input=text)

    # ------------------------------------------------------------------ diagnostics

    def logs_for_failure(self, lines: int = 12, grep: Sequence[str] = ()) -> str:
        """The tail of every component's log (and lines matching ``grep``), for a failure message."""
        parts: List[str] = []
        if self.control is not None:
            parts.append(f"--- kube-apiserver ({self.control.log_path}) ---\n{self.control.log_tail(lines)}")
        for process in self.group.processes:
            body = process.tail(lines)
            if grep and process.log.exists():
                hits = [ln for ln in process.log.read_text(errors="replace").splitlines()
                        if any(g in ln for g in grep)]
                if hits:
                    body = "\n".join(hits[-lines:]) + "\n(...)\n" + body
            parts.append(f"--- {process.name} ({process.log}) ---\n{body}")
        operator_log = self.log_dir / "ascend-operator.run.log" if self.workdir else None
        if operator_log is not None and operator_log.exists():
            tail = "\n".join(operator_log.read_text(errors="replace").splitlines()[-lines:])
            parts.append(f"--- ascend-operator run log ({operator_log}) ---\n{tail}")
        return "\n".join(parts)

    def profile_of_node(self, node_name: str) -> Optional[str]:
        return next((n.profile for n in self.fake_nodes if n.name == node_name), None)
