"""Submitting jobs from Python without kubectl: the official ``kubernetes`` client.

Optional: install it with the ``k8s`` extra (``pip install '.[k8s]'`` in a clone, or
``pip install 'dist/ascend_compile-<version>-py3-none-any.whl[k8s]'`` for a built wheel), or ``pip install kubernetes``.  The
``kubernetes`` package is imported only when a :class:`Cluster` is made, so
importing this module (or ``compiler``) never needs it::

    import ascend_compile

    cluster = ascend_compile.Cluster.from_kubeconfig()          # ~/.kube/config, current context
    cluster.create(ascend_compile.compile_spec(spec))           # ConfigMap first, then the job
    print(cluster.status("resnet50", "AscendJob", "training").summary())
    print("\n".join(cluster.why("resnet50", "AscendJob", "training").lines()))  # why is it Pending?
    cluster.wait("resnet50", "AscendJob", "training", until="succeeded", timeout=3600)
    cluster.delete("resnet50", "AscendJob", "training")   # the job and its rings-config-<job> ConfigMap

Every error the API server returns (or a failure to reach it) is raised as
one :class:`ClusterError` carrying the server's own message: an ``AscendCompileError`` whose one
finding is rule AC017.

Job kinds and states are the ones ``ascend-compile status`` reports: :class:`JobState`,
:func:`~ascend_compile.kube.jobs.job_state` and the job types are shared with the kubectl path
(:mod:`ascend_compile.kube.jobs`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar

from ..errors import ArgumentError
from ..vocabulary import ASCEND_JOB, CONFIG_MAP, CORE_API_VERSION, NAMESPACE, ranktable_configmap_name
from ..yamlio.plain import plain
from .clienterror import ClusterError, error_from
from .clientread import ClientReader, ReplyError, body_of
from .jobs import JobState, JobType, find_job_type, job_state, job_type_of
from .lifecycle import MANAGER

if TYPE_CHECKING:
    from .jobview import EventView
    from .lifecycle import Waited
    from .why import Why

__all__ = ["Cluster", "INSTALL_K8S_HELP"]

INSTALL_K8S_HELP = (
    "the kubernetes Python client is not installed; install the k8s extra where you install ascend-compile "
    "from (in a clone: pip install '.[k8s]'; a built wheel: pip install 'dist/ascend_compile-<version>-py3-none-any.whl[k8s]'), "
    "or pip install kubernetes")

_SERVICE_ACCOUNT_NAMESPACE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"
#: seconds a Cluster waits to connect and for each reply unless told otherwise: a server that stops
#: answering fails the call instead of hanging the caller (the CLI bounds kubectl runs the same way)
DEFAULT_REQUEST_TIMEOUT = 60.0

T = TypeVar("T")


def _kubernetes() -> Any:
    """The ``kubernetes`` package, or an ImportError that says how to install it."""
    try:
        import kubernetes
    except ImportError as exc:
        raise ImportError(INSTALL_K8S_HELP) from exc
    return kubernetes


def _job_type(kind: str) -> JobType:
    """The job type ``kind`` names; an ArgumentError (the API's own error) naming the kinds there are."""
    found = find_job_type(kind) if isinstance(kind, str) else None
    if found is None:
        raise ArgumentError(f"unknown job kind {kind!r}", "use AscendJob (acjob) or VolcanoJob (Job, vcjob)")
    return found


class Cluster:
    """A Kubernetes cluster reached through the official Python client.

    Make one with :meth:`from_kubeconfig` or :meth:`in_cluster`, or wrap an
    ``kubernetes.client.ApiClient`` you configured yourself.  ``namespace`` is
    where objects without one go (the kubeconfig context's namespace, the
    pod's own namespace in a cluster, else ``default``).
    """

    def __init__(self, api_client: Any, namespace: str = "default",
                 request_timeout: Optional[float] = DEFAULT_REQUEST_TIMEOUT):
        kubernetes = _kubernetes()
        self.api_client = api_client
        self.namespace = namespace or "default"
        #: seconds to connect, and to wait for each reply, before a call fails (None: wait forever)
        self.request_timeout = request_timeout
        self._core = kubernetes.client.CoreV1Api(api_client)
        self._custom = kubernetes.client.CustomObjectsApi(api_client)
        self._api_exception: Type[BaseException] = kubernetes.client.exceptions.ApiException

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_kubeconfig(cls, path: Optional[str] = None, context: Optional[str] = None,
                        request_timeout: Optional[float] = DEFAULT_REQUEST_TIMEOUT) -> "Cluster":
        """From a kubeconfig file (default: ``$KUBECONFIG``, then ``~/.kube/config``) and context."""
        kubernetes = _kubernetes()
        where = f"kubeconfig {path}" if path else "kubeconfig"
        try:
            api_client = kubernetes.config.new_client_from_config(config_file=path, context=context,
                                                                  persist_config=False)
            contexts, active = kubernetes.config.list_kube_config_contexts(config_file=path)
        except (kubernetes.config.ConfigException, OSError, ValueError, TypeError) as exc:
            raise ClusterError(f"cannot load {where}: {exc}", operation="connect") from None
        chosen = active
        if context is not None:
            chosen = next((c for c in contexts or [] if c.get("name") == context), active)
        namespace = ((chosen or {}).get("context") or {}).get("namespace") or "default"
        return cls(api_client, namespace, request_timeout)

    @classmethod
    def in_cluster(cls, request_timeout: Optional[float] = DEFAULT_REQUEST_TIMEOUT) -> "Cluster":
        """From the pod's service account (when running inside the cluster)."""
        kubernetes = _kubernetes()
        configuration = kubernetes.client.Configuration()
        try:
            kubernetes.config.load_incluster_config(client_configuration=configuration)
        except kubernetes.config.ConfigException as exc:
            raise ClusterError(f"not running in a cluster: {exc}", operation="connect") from None
        namespace = "default"
        try:
            with open(_SERVICE_ACCOUNT_NAMESPACE, encoding="utf-8") as handle:
                namespace = handle.read().strip() or "default"
        except OSError:
            pass
        return cls(kubernetes.client.ApiClient(configuration), namespace, request_timeout)

    def close(self) -> None:
        close = getattr(self.api_client, "close", None)
        if callable(close):
            close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ plumbing

    def _call(self, operation: str, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``func``'s reply, read as JSON (or text) up to the byte cap of every reply (:func:`.clientread.body_of`)."""
        if self.request_timeout is not None:
            kwargs.setdefault("_request_timeout", self.request_timeout)
        try:
            return body_of(func(*args, _preload_content=False, **kwargs))  # type: ignore[no-any-return]
        except ReplyError as exc:
            raise ClusterError(str(exc), operation=operation) from None
        except self._api_exception as exc:
            raise error_from(exc, operation) from None
        except (OSError, ValueError) as exc:
            raise error_from(exc, operation) from None
        except Exception as exc:  # noqa: BLE001 - urllib3 errors (MaxRetryError...) have no common base we import
            if type(exc).__module__.startswith(("urllib3", "ssl", "http")):
                raise error_from(exc, operation) from None
            raise

    def _plain(self, value: Any) -> Dict[str, Any]:
        data = value if isinstance(value, dict) else self.api_client.sanitize_for_serialization(value)
        return data if isinstance(data, dict) else {}

    # ------------------------------------------------------------------ operations

    def ensure_namespace(self, name: str) -> bool:
        """Create the namespace unless it exists; True when it was created."""
        try:
            self._call(f"get Namespace {name}", self._core.read_namespace, name)
            return False
        except ClusterError as exc:
            if not exc.not_found:
                raise
        body = {"apiVersion": CORE_API_VERSION, "kind": NAMESPACE, "metadata": {"name": name}}
        try:
            self._call(f"create Namespace {name}", self._core.create_namespace, body)
        except ClusterError as exc:
            if exc.already_exists:
                return False
            raise
        return True

    def create(self, objects: Sequence[Mapping[str, Any]], namespace: Optional[str] = None) -> List[Dict[str, Any]]:
        """Create compiled objects: Namespaces (if missing), then ConfigMaps, then the jobs.

        Objects without a namespace go to ``namespace`` (default: this
        cluster's).  All or nothing: if the server refuses one, the objects
        this call already created (not namespaces) are deleted again and the
        :class:`ClusterError` is raised.  Returns the objects as the server
        stored them.
        """
        default_ns = namespace or self.namespace
        plan: List[Tuple[int, Dict[str, Any]]] = []
        for index, obj in enumerate(objects):
            data = plain(obj, f"objects[{index}]")  # a private, plain copy (a cycle: the caller's ArgumentError)
            kind, api_version = data.get("kind"), data.get("apiVersion")
            meta = data.setdefault("metadata", {})
            if (api_version, kind) == (CORE_API_VERSION, NAMESPACE):
                plan.append((0, data))
                continue
            meta.setdefault("namespace", default_ns)
            if (api_version, kind) == (CORE_API_VERSION, CONFIG_MAP):
                plan.append((1, data))
            elif job_type_of(data) is not None:
                plan.append((2, data))
            else:
                raise ArgumentError(f"objects[{index}]: Cluster.create does not create {kind} ({api_version})",
                                    "give it what ascend-compile emits: Namespace, ConfigMap, AscendJob, Volcano Job")
        plan.sort(key=lambda item: item[0])
        created: List[Dict[str, Any]] = []
        done: List[Tuple[str, str, str]] = []  # (kind, name, namespace) to roll back
        try:
            for rank, data in plan:
                meta = data["metadata"]
                name, ns = str(meta.get("name", "")), str(meta.get("namespace", ""))
                if rank == 0:
                    self.ensure_namespace(name)
                    continue
                if rank == 1:
                    result = self._call(f"create ConfigMap {ns}/{name}", self._core.create_namespaced_config_map,
                                        ns, data)
                    done.append((CONFIG_MAP, name, ns))
                else:
                    job = _job_type(str(data["kind"]))
                    result = self._call(f"create {job.label} {ns}/{name}",
                                        self._custom.create_namespaced_custom_object,
                                        job.group, job.version, ns, job.plural, data, field_manager=MANAGER)
                    done.append((job.kind, name, ns))
                created.append(self._plain(result))
        except ClusterError:
            self._roll_back(done)
            raise
        return created

    def _roll_back(self, done: List[Tuple[str, str, str]]) -> None:
        for kind, name, ns in reversed(done):
            try:
                if kind == CONFIG_MAP:
                    self._call("roll back", self._core.delete_namespaced_config_map, name, ns)
                else:
                    job = _job_type(kind)
                    self._call("roll back", self._custom.delete_namespaced_custom_object, job.group, job.version,
                               ns, job.plural, name, propagation_policy="Background")
            except ClusterError:
                pass  # best effort: the original error is the one to report

    def get(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None) -> Dict[str, Any]:
        """The job object as stored (with its status); :class:`ClusterError` (404) when absent."""
        job = _job_type(kind)
        ns = namespace or self.namespace
        result = self._call(f"get {job.label} {ns}/{name}", self._custom.get_namespaced_custom_object,
                            job.group, job.version, ns, job.plural, name)
        return self._plain(result)

    def status(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None) -> JobState:
        """The job's state as ``ascend-compile status`` reports it.

        AscendJob: its last condition (type, reason, message); Volcano Job:
        ``status.state.phase``; ``Pending`` (``observed=False``) before any
        controller wrote a status.  :class:`ClusterError` (404) when absent.
        """
        return job_state(self.get(name, kind, namespace))

    def delete(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None,
               missing_ok: bool = False) -> List[str]:
        """Delete the job and its ``rings-config-<job>`` ConfigMap; returns what was deleted.

        A missing ConfigMap is fine (an AscendJob with env ranktables has
        none); a missing job raises :class:`ClusterError` (404) unless
        ``missing_ok``.  Pods go in the background, as with kubectl.
        """
        job = _job_type(kind)
        ns = namespace or self.namespace
        deleted: List[str] = []
        try:
            self._call(f"delete {job.label} {ns}/{name}", self._custom.delete_namespaced_custom_object,
                       job.group, job.version, ns, job.plural, name, propagation_policy="Background")
            deleted.append(f"{job.label} {ns}/{name}")
        except ClusterError as exc:
            if not (exc.not_found and missing_ok):
                raise
        configmap = ranktable_configmap_name(name)
        try:
            self._call(f"delete ConfigMap {ns}/{configmap}", self._core.delete_namespaced_config_map, configmap, ns)
            deleted.append(f"ConfigMap {ns}/{configmap}")
        except ClusterError as exc:
            if not exc.not_found:
                raise
        return deleted

    # ------------------------------------------------------------------ the lifecycle (shared job-state model)

    def _reader(self) -> ClientReader:
        return ClientReader(self, ClusterError)

    def why(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None, *, lint: bool = True,
            log_lines: int = 10) -> "Why":
        """Why the job is in its state, as ``ascend-compile why`` says it: ``.causes[0]`` is the real cause,
        ``.lines()`` the text, ``.as_dict()`` the JSON.  Read-only."""
        from .why import explain

        return explain(self._reader(), self.get(name, kind, namespace), lint=lint, log_lines=log_lines)

    def wait(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None, *, until: str = "finished",
             timeout: float = 3600.0, interval: float = 2.0) -> "Waited":
        """Wait until the job is ``running``, ``succeeded`` or ``finished`` (0 = no time limit).

        Returns a :class:`~ascend_compile.kube.lifecycle.Waited`: ``code`` is ``ascend-compile wait``'s exit
        code (0 when reached, 1 when the job ended in another state or time ran out), ``result`` says which
        (``reached``, ``ended otherwise``, ``timed out``), and ``state`` is the last state read."""
        from .lifecycle import WAIT_FOR, wait_for

        if until not in WAIT_FOR:
            raise ArgumentError(f"until={until!r} is not a state to wait for", f"use one of {', '.join(WAIT_FOR)}")
        _job_type(kind)  # a bad kind is refused before any reading
        return wait_for(lambda _left: self.status(name, kind, namespace), until, timeout, interval)

    def list(self, namespace: Optional[str] = None, *, selector: str = "", everyone: bool = False) -> List[JobState]:
        """The jobs ascend-compile applied or created (field manager ``ascend-compile``), in ``namespace`` or
        in all namespaces (None), by label ``selector``; ``everyone=True`` lists every job."""
        from .lifecycle import list_jobs

        return list_jobs(self._reader(), namespace, selector, everyone)

    def logs(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None, *,
             replica: Optional[str] = None, index: Optional[int] = None, container: Optional[str] = None,
             tail: int = 0, previous: bool = False) -> str:
        """The log of one pod of the job (the first, or ``replica``/``index``); LookupError if no such pod."""
        from .jobview import gather
        from .lifecycle import container_of, pick_pod

        view = gather(self._reader(), self.get(name, kind, namespace), nodes=False, events=False)
        pod = pick_pod(view.pods, name, replica, index)
        return str(self._reader().logs(pod.name, pod.namespace, container_of(pod, container)[0], tail, previous))

    def events(self, name: str, kind: str = ASCEND_JOB, namespace: Optional[str] = None) -> List["EventView"]:
        """The events of the job, its PodGroup and its pods, oldest first."""
        from .jobview import gather

        return gather(self._reader(), self.get(name, kind, namespace), nodes=False).events
