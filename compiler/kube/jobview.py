"""One job as the cluster sees it: the job, its PodGroup and queue, its pods, their events, the nodes.

This is the job-state model ``why``, ``wait``, ``logs``, ``events`` and ``status`` share, on the
kubectl path and in the Python client alike: a :class:`Reader` (``reading.KubectlReader`` or the
client's) fetches plain JSON objects, :func:`gather` reads one job's whole picture into a
:class:`JobView`.  Reading is read-only: ``get`` and ``list`` on the job kinds, PodGroups, Queues,
pods, events and nodes, and ``get`` on ``pods/log`` (see ``docs/cluster.md`` for the RBAC rules).

What is optional (Volcano's PodGroups and Queues, nodes, events) may be missing or forbidden: the
view then says what it could not read (``notes``) instead of failing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Protocol, Sequence, Tuple, Type

from ..inventory.model import Node
from ..inventory.objects import nodes_from, pod_npus, queue_of
from ..inventory.replies import MIN_INT32, Reply
from ..manifest.job import Manifest
from ..manifest.pods import PodSet, Term
from ..manifest.values import as_dict, as_list
from ..vocabulary import (ASCEND_910, ASCEND310_RESOURCE, ASCEND310P_RESOURCE, ASCEND_JOB, ASCEND_JOB_NAME_LABEL,
                          NPU_RESOURCE, PODGROUP_PLURAL, QUEUE_PLURAL, REPLICA_TYPE_LABEL,
                          VOLCANO_JOB_NAME_LABEL, VOLCANO_SCHEDULING_API_GROUP)
from .jobs import JobState, JobType, job_state

PODGROUP_RESOURCE = f"{PODGROUP_PLURAL}.{VOLCANO_SCHEDULING_API_GROUP}"
QUEUE_RESOURCE = f"{QUEUE_PLURAL}.{VOLCANO_SCHEDULING_API_GROUP}"
POD_RESOURCE = "pods"
EVENT_RESOURCE = "events"
NODE_RESOURCE = "nodes"
#: the label an AscendJob pod carries with its index within its replica type
REPLICA_INDEX_LABEL = "replica-index"
HOSTNAME_LABEL = "kubernetes.io/hostname"
#: Volcano's pod annotation naming the task
VOLCANO_TASK_ANNOTATION = "volcano.sh/task-spec"
_ENDED_PHASES = ("Succeeded", "Failed")
#: the whole-NPU resources whose devices the Ascend plugin writes into a pod annotation of the same name
ANNOTATED_NPU_RESOURCES = frozenset({ASCEND_910, ASCEND310_RESOURCE, ASCEND310P_RESOURCE, NPU_RESOURCE})


class Reader(Protocol):
    """Read-only access to a cluster; each backend raises its own errors, listed in ``errors``."""

    errors: Tuple[Type[BaseException], ...]

    def get(self, resource: str, name: str, namespace: Optional[str]) -> Optional[Dict[str, Any]]:
        """The object, or None when it (or its type) does not exist."""

    def list(self, resource: str, namespace: Optional[str], labels: str = "",
             fields: str = "") -> List[Dict[str, Any]]:
        """Objects of a namespace (all namespaces when None), by label and field selector."""

    def logs(self, pod: str, namespace: str, container: str, tail: int, previous: bool = False) -> str:
        """The last ``tail`` lines of a container's log (0: all of it)."""


@dataclass(frozen=True)
class Replica:
    """A replica type (AscendJob) or task (Volcano Job) as the job declares it (its pods and NPUs as the manifest
    model reads them: :mod:`ascend_compile.manifest.pods`)."""

    name: str
    replicas: int
    node_selector: Dict[str, str]
    npu_resource: str  # "" when the pods ask for no NPUs
    npus: int  # per pod
    restart_policy: str
    images: Tuple[str, ...]
    #: a required pod anti-affinity on the hostname against the job's own pods: one pod per node
    one_per_node: bool = False
    #: the required node affinity's terms (:attr:`ascend_compile.manifest.pods.PodSet.node_affinity`), None: none
    node_affinity: Optional[Tuple[Term, ...]] = None


@dataclass(frozen=True)
class ContainerState:
    name: str
    state: str  # waiting, running, terminated, or "" before any status
    reason: str = ""
    message: str = ""
    exit_code: Optional[int] = None
    restarts: int = 0
    last_exit_code: Optional[int] = None  # of the previous run, after a restart in place
    init: bool = False


@dataclass(frozen=True)
class PodView:
    name: str
    namespace: str
    phase: str
    node: str
    replica: str
    index: str
    containers: Tuple[ContainerState, ...]
    unschedulable: str = ""  # the PodScheduled=False message
    start_time: str = ""
    deleting: bool = False
    uid: str = ""
    #: the NPU resource the pod asks for and how many ("", 0 when none)
    npu_resource: str = ""
    npus: int = 0
    #: whether the pod carries the device annotation the Ascend plugin writes when it assigns NPUs (an annotation
    #: named after the resource: ``huawei.com/Ascend910: Ascend910-0,...``)
    npus_assigned: bool = False

    @property
    def ended(self) -> bool:
        return self.phase in _ENDED_PHASES

    @property
    def running_without_npus(self) -> bool:
        """Running on a node, asking for NPUs, but without the plugin's device annotation: the scheduler assigned
        it none, so its containers see no NPU."""
        return self.phase == "Running" and bool(self.node) and self.npus > 0 and not self.npus_assigned


@dataclass(frozen=True)
class EventView:
    kind: str
    name: str
    type: str
    reason: str
    message: str
    count: int
    time: str  # last seen

    def line(self) -> str:
        times = f" (x{self.count})" if self.count > 1 else ""
        return f"{self.time or '-'} {self.type} {self.kind}/{self.name} {self.reason}{times}: {self.message}"

    def as_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "type": self.type, "reason": self.reason,
                "message": self.message, "count": self.count, "time": self.time}


@dataclass(frozen=True)
class PodGroupView:
    name: str
    phase: str
    min_member: int
    queue: str
    conditions: Tuple[Dict[str, Any], ...]
    min_resources: Dict[str, Any]

    def unschedulable(self) -> Optional[Dict[str, Any]]:
        return next((c for c in self.conditions if c.get("type") == "Unschedulable"
                     and str(c.get("status")) == "True"), None)


@dataclass(frozen=True)
class QueueView:
    name: str
    found: bool
    state: str = ""
    capability: Dict[str, Any] = field(default_factory=dict)
    allocated: Dict[str, Any] = field(default_factory=dict)


@dataclass
class JobView:
    state: JobState
    obj: Dict[str, Any]
    manifest: Manifest  # the job as the manifest model reads it (lint reads it the same way)
    replicas: List[Replica]
    min_available: Optional[int]
    queue_name: str
    podgroups: List[PodGroupView] = field(default_factory=list)
    queue: Optional[QueueView] = None
    pods: List[PodView] = field(default_factory=list)
    events: List[EventView] = field(default_factory=list)
    nodes: Optional[Sequence[Node]] = None  # the inventory's nodes; None: not read (or not allowed)
    notes: List[str] = field(default_factory=list)  # what could not be read, and why

    @property
    def total_pods(self) -> int:
        return sum(r.replicas for r in self.replicas)


# --------------------------------------------------------------------------- reading


def find_job(reader: Reader, types: Sequence[JobType], name: str, namespace: Optional[str]
             ) -> List[Dict[str, Any]]:
    """The jobs called ``name`` among the given types (a type not installed counts as none)."""
    return [obj for t in types for obj in [reader.get(t.resource, name, namespace)] if obj is not None]


def gather(reader: Reader, job: Mapping[str, Any], *, nodes: bool = True, events: bool = True) -> JobView:
    """Everything that explains one job's state: PodGroup, queue, pods, events and (if asked) nodes."""
    obj = dict(job)
    reply = Reply(obj, str(obj.get("kind") or "job"))
    namespace = reply.namespace
    reply.objects("status", "conditions"), reply.mapping("status", "state")  # what job_state reads: checked
    manifest = Manifest(obj)
    view = JobView(job_state(obj), obj, manifest, replicas_of(manifest), manifest.min_available(), manifest.queue())
    uid = reply.text("metadata", "uid")
    pgs = _optional(reader, view, "PodGroups", lambda: reader.list(PODGROUP_RESOURCE, namespace)) or []
    view.podgroups = [podgroup_view(pg) for pg in map(lambda pg: Reply(pg, "PodGroup"), pgs) if _owned_by(pg, uid)]
    if view.podgroups and view.podgroups[0].queue:
        view.queue_name = view.podgroups[0].queue
    failed = len(view.notes)
    queue = _optional(reader, view, f"Queue {view.queue_name}",
                      lambda: reader.get(QUEUE_RESOURCE, view.queue_name, None))
    view.queue = queue_view(queue, view.queue_name) if len(view.notes) == failed else None
    label = ASCEND_JOB_NAME_LABEL if obj.get("kind") == ASCEND_JOB else VOLCANO_JOB_NAME_LABEL
    pods = [Reply(p, "Pod") for p in reader.list(POD_RESOURCE, namespace, labels=f"{label}={reply.name}")]
    view.pods = sorted((pod_view(p) for p in pods if _owned_by(p, uid)), key=lambda p: (p.replica, p.index, p.name))
    if events:
        view.events = job_events(reader, view, namespace)
    if nodes:
        view.nodes = _optional(reader, view, "nodes", lambda: read_nodes(reader))
    return view


def job_events(reader: Reader, view: JobView, namespace: str) -> List[EventView]:
    """The events of the job, its PodGroup(s) and its pods, oldest first."""
    listed = _optional(reader, view, "events", lambda: reader.list(EVENT_RESOURCE, namespace)) or []
    names = {(str(view.obj.get("kind")), view.state.name)}
    names |= {("PodGroup", pg.name) for pg in view.podgroups} | {("Pod", p.name) for p in view.pods}
    out = [event for event in map(event_view, listed) if (event.kind, event.name) in names]
    return sorted(out, key=lambda e: e.time)


def _optional(reader: Reader, view: JobView, what: str, read: Any) -> Any:
    try:
        return read()
    except reader.errors as exc:
        view.notes.append(f"could not read {what}: {getattr(exc, 'message', None) or exc}")
        return None


def _owned_by(reply: Reply, uid: str) -> bool:
    return not uid or any(r.text("uid") == uid for r in reply.objects("metadata", "ownerReferences"))


def read_nodes(reader: Reader) -> Tuple[Node, ...]:
    """Every node as the inventory model has it (:func:`ascend_compile.inventory.objects.nodes_from`): its NPUs
    allocatable, and used by the pods bound there that have not ended."""
    pods = reader.list(POD_RESOURCE, None, fields="status.phase!=Succeeded,status.phase!=Failed")
    return nodes_from(reader.list(NODE_RESOURCE, None), pods)


# --------------------------------------------------------------------------- plain objects -> views


def replicas_of(job: Manifest) -> List[Replica]:
    """The job's replica types (by name) or tasks (in order)."""
    pod_sets = job.pod_sets()
    if job.kind == ASCEND_JOB:
        pod_sets = sorted(pod_sets, key=lambda p: p.role)
    out = []
    for pod_set in pod_sets:
        resource = pod_set.npu_resource() or ""
        images = tuple(str(c.data.get("image", "")) for c in pod_set.containers())
        selector = {str(k): str(v) for k, v in pod_set.node_selector.items()}
        restart = _role(job, pod_set).get("restartPolicy") or pod_set.spec.get("restartPolicy") or ""
        out.append(Replica(pod_set.role, pod_set.replicas, selector, resource, pod_set.npus(), str(restart), images,
                           _one_per_node(pod_set.spec, job.name), pod_set.node_affinity))
    return out


def _role(job: Manifest, pod_set: PodSet) -> Dict[str, Any]:
    """The replica spec or task a pod set comes from."""
    node: Any = job.data
    for key in pod_set.role_path:
        node = as_list(node)[key] if isinstance(key, int) else as_dict(node).get(key)
    return as_dict(node)


def _one_per_node(pod_spec: Mapping[str, Any], job_name: str) -> bool:
    """A required anti-affinity, topology hostname, whose selector names the job: no two of its pods share a node."""
    anti = as_dict(as_dict(pod_spec.get("affinity")).get("podAntiAffinity"))
    for term in as_list(anti.get("requiredDuringSchedulingIgnoredDuringExecution")):
        if not isinstance(term, dict) or term.get("topologyKey") != HOSTNAME_LABEL:
            continue
        selector = as_dict(term.get("labelSelector"))
        values = [v for e in as_list(selector.get("matchExpressions")) for v in as_list(as_dict(e).get("values"))]
        if job_name in values or job_name in as_dict(selector.get("matchLabels")).values():
            return True
    return False


def podgroup_view(pg: Reply) -> PodGroupView:
    return PodGroupView(pg.name, pg.text("status", "phase") or "Pending", int(pg.count("spec", "minMember") or 0),
                        pg.text("spec", "queue"), tuple(c.data for c in pg.objects("status", "conditions")),
                        dict(pg.mapping("spec", "minResources")))


def queue_view(queue: Optional[Mapping[str, Any]], name: str) -> QueueView:
    if queue is None:
        return QueueView(name, False)
    found = queue_of(queue)
    return QueueView(name, True, found.state, dict(found.capability), dict(found.allocated))


def pod_view(pod: Reply) -> PodView:
    labels, annotations = pod.texts("metadata", "labels"), pod.texts("metadata", "annotations")
    replica = labels.get(REPLICA_TYPE_LABEL) or annotations.get(VOLCANO_TASK_ANNOTATION) or ""
    containers = [container_state(c, True) for c in pod.objects("status", "initContainerStatuses")]
    containers += [container_state(c, False) for c in pod.objects("status", "containerStatuses")]
    unschedulable = next((c.text("message") or c.text("reason") for c in pod.objects("status", "conditions")
                          if c.text("type") == "PodScheduled" and c.text("status") == "False"), "")
    resource, npus = _npu_request(pod)
    return PodView(pod.name, pod.namespace, pod.text("status", "phase") or "Pending", pod.text("spec", "nodeName"),
                   replica, labels.get(REPLICA_INDEX_LABEL, ""), tuple(containers), unschedulable,
                   pod.text("status", "startTime"), bool(pod.text("metadata", "deletionTimestamp")),
                   pod.text("metadata", "uid"), resource, npus, bool(resource and annotations.get(resource)))


def _npu_request(pod: Reply) -> Tuple[str, int]:
    """(the whole-NPU resource the Ascend plugin assigns that the pod asks for, how many), as the manifest model
    reads a pod; ("", 0) without one (HAMi's and virtual devices are annotated by others)."""
    for resource, count in pod_npus(pod).items():
        if count > 0 and resource in ANNOTATED_NPU_RESOURCES:
            return resource, count
    return "", 0


def container_state(status: Reply, init: bool) -> ContainerState:
    state = status.mapping("state")
    which = next((k for k in ("waiting", "terminated", "running") if k in state), "")
    return ContainerState(status.text("name"), which, status.text("state", which, "reason") if which else "",
                          status.text("state", which, "message") if which else "",
                          status.count("state", which, "exitCode", default=None, low=MIN_INT32) if which else None,
                          int(status.count("restartCount") or 0),
                          status.count("lastState", "terminated", "exitCode", default=None, low=MIN_INT32), init)


def event_view(event: Mapping[str, Any]) -> EventView:
    reply = Reply(event, "Event", named=False)  # only its involved object matters
    when = (reply.text("lastTimestamp") or reply.text("series", "lastObservedTime") or reply.text("eventTime")
            or reply.text("metadata", "creationTimestamp"))
    count = reply.count("count", default=None) or reply.count("series", "count", default=None) or 1
    return EventView(reply.text("involvedObject", "kind"), reply.text("involvedObject", "name"), reply.text("type"),
                     reply.text("reason"), reply.text("message").strip(), count, _utc(when))


def _utc(when: str) -> str:
    """RFC 3339 in UTC as the API server writes it (``...Z``), also from the Python client's ``+00:00``."""
    return when[:-6] + "Z" if when.endswith("+00:00") else when
