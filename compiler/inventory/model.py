"""The inventory model: nodes, queues, claims, ConfigMaps, component versions and device sharing of one cluster.

Every collection says whether it was read at all (``None``: not read, not allowed, or not in the
snapshot), so a check never takes "not read" for "not there".
"""
from __future__ import annotations

from typing import Dict, FrozenSet, List, Mapping, Optional, Sequence, Set, Tuple

from ..manifest.pods import NODE_NAME_FIELD, Requirement, Term, whole_number
from ..records import field, record

#: the components whose versions the inventory records (from their Deployments' images)
VOLCANO, ASCEND_PLUGIN, ASCEND_OPERATOR = "volcano", "ascend-plugin", "ascend-operator"
COMPONENTS = (VOLCANO, ASCEND_PLUGIN, ASCEND_OPERATOR)
#: taint effects that keep a pod that does not tolerate them off a node
BLOCKING_EFFECTS = ("NoSchedule", "NoExecute")
#: :attr:`Inventory.usage` of NPUs in use read now (``--cluster``), and of a snapshot that recorded them without a time
LIVE, UNTIMED = "live", "unknown"
#: the Ascend modes of Volcano's deviceshare plugin (HAMi mode, MindCluster vNPU mode) and the argument that turns each on
DEVICE_SHARE_MODES = {"hami": "deviceshare.AscendHAMiVNPUEnable", "mindcluster": "deviceshare.AscendMindClusterVNPUEnable"}
#: PriorityClasses every cluster has (the API server creates them), whether or not they were read
SYSTEM_PRIORITY_CLASSES = frozenset({"system-cluster-critical", "system-node-critical"})


@record(frozen=True)
class Taint:
    key: str
    value: str
    effect: str

    def tolerated_by(self, tolerations: Sequence[Mapping[str, object]]) -> bool:
        """Whether one of a pod's tolerations tolerates this taint (the Kubernetes matching rules)."""
        for tol in tolerations:
            effect = tol.get("effect") or ""
            if effect and effect != self.effect:
                continue
            key, operator = tol.get("key") or "", tol.get("operator") or "Equal"
            if not key and operator == "Exists":
                return True
            if key == self.key and (operator == "Exists" or (tol.get("value") or "") == self.value):
                return True
        return False


@record(frozen=True)
class Node:
    name: str
    labels: Dict[str, str]
    allocatable: Dict[str, int]  # NPU resources only
    used: Dict[str, int]  # by pods bound there and not ended
    ready: bool
    cordoned: bool
    #: who holds the used NPUs: "namespace/owner" (the pod's controller, else the pod) -> NPUs (live reads only)
    holders: Dict[str, int] = field(default_factory=dict)
    #: the taints that keep pods off (:data:`BLOCKING_EFFECTS`: the only ones a check reads)
    taints: Tuple[Taint, ...] = ()
    #: whether HAMi slices the node's NPUs softly (its ``hami-vnpu-core`` annotation, which HAMi's Ascend device plugin
    #: sets on every node it registers: "true" or "false"); None: not annotated (the scheduler's device config decides)
    soft_slicing: Optional[bool] = None

    def free(self, resource: str) -> int:
        return self.allocatable.get(resource, 0) - self.used.get(resource, 0)

    @property
    def schedulable(self) -> bool:
        """Ready and not cordoned (taints are a question of the pod's tolerations: :meth:`takes`)."""
        return self.ready and not self.cordoned

    def selected_by(self, selector: Mapping[str, str], affinity: Optional[Sequence[Term]] = None) -> bool:
        """Whether the node has every label of a pod's ``nodeSelector`` and meets its required node affinity."""
        return all(self.labels.get(k) == v for k, v in selector.items()) and self.affine(affinity)

    def affine(self, affinity: Optional[Sequence[Term]]) -> bool:
        """Whether the node meets one term of a required node affinity (None: the pod sets none).  A term
        without requirements selects no node (the Kubernetes rule)."""
        if affinity is None:
            return True
        fields = {NODE_NAME_FIELD: self.name}
        return any((labels or on_fields) and all(_meets(self.labels, r) for r in labels) and
                   all(_meets(fields, r) for r in on_fields) for labels, on_fields in affinity)

    def takes(self, selector: Mapping[str, str], tolerations: Sequence[Mapping[str, object]] = (),
              affinity: Optional[Sequence[Term]] = None) -> bool:
        """Whether a pod with this node selector, required node affinity and tolerations may be placed here at all."""
        return self.schedulable and self.selected_by(selector, affinity) and all(
            t.tolerated_by(tolerations) for t in self.taints if t.effect in BLOCKING_EFFECTS)


def _meets(values: Mapping[str, str], requirement: Requirement) -> bool:
    """Whether a node's labels (or fields) meet one node selector requirement (Kubernetes' operators)."""
    key, operator, wanted = requirement
    value = values.get(key)
    if operator == "In":
        return value is not None and value in wanted
    if operator == "NotIn":
        return value is None or value not in wanted
    if operator == "Exists":
        return value is not None
    if operator == "DoesNotExist":
        return value is None
    number, bound = whole_number(value), whole_number(wanted[0])  # Gt, Lt: both whole numbers
    if number is None or bound is None:
        return False
    return number > bound if operator == "Gt" else number < bound


class NodeIndex:
    """Schedulable nodes indexed once by label and by name, so that the nodes a selector and a required node affinity
    pick are found from the nodes that carry the rarest label asked for, not by a pass over every node: a lint of
    many jobs against a large cluster costs nodes + jobs, not nodes x jobs."""

    def __init__(self, nodes: Sequence[Node]):
        self.nodes = [n for n in nodes if n.schedulable]
        self._by_label: Dict[Tuple[str, str], List[int]] = {}
        self._by_name: Dict[str, List[int]] = {}
        for i, node in enumerate(self.nodes):
            for pair in node.labels.items():
                self._by_label.setdefault(pair, []).append(i)
            self._by_name.setdefault(node.name, []).append(i)

    def select(self, selector: Mapping[str, str], affinity: Optional[Sequence[Term]] = None) -> List[Node]:
        """The nodes, in their order, that :meth:`Node.selected_by` the selector and affinity."""
        base: Optional[List[int]] = min((self._by_label.get(pair, []) for pair in selector.items()), key=len,
                                        default=None)
        narrowed = None if affinity is None else self._affinity_candidates(affinity)
        if narrowed is not None and (base is None or len(narrowed) < len(base)):
            base = narrowed
        candidates = self.nodes if base is None else [self.nodes[i] for i in base]
        return [n for n in candidates if n.selected_by(selector, affinity)]

    def _affinity_candidates(self, affinity: Sequence[Term]) -> Optional[List[int]]:
        """The nodes that may meet one of the terms (their indices, in order), each term narrowed by one of its
        ``In`` requirements; None when a term has none (it may select any node)."""
        found: Set[int] = set()
        for labels, on_fields in affinity:
            if not labels and not on_fields:
                continue  # selects no node
            term = next(([i for v in values for i in self._by_label.get((key, v), ())]
                         for key, operator, values in labels if operator == "In"), None)
            if term is None:
                term = next(([i for v in values for i in self._by_name.get(v, ())]
                             for _, operator, values in on_fields if operator == "In"), None)
            if term is None:
                return None
            found.update(term)
        return sorted(found)


@record(frozen=True)
class Queue:
    name: str
    state: str  # Open, Closed, Closing, Unknown
    capability: Dict[str, str] = field(default_factory=dict)
    allocated: Dict[str, str] = field(default_factory=dict)  # live reads only
    #: the share the capacity plugin lets the queue keep when other queues reclaim (``spec.deserved``)
    deserved: Dict[str, str] = field(default_factory=dict)

    @property
    def open(self) -> bool:
        return self.state in ("", "Open")


@record(frozen=True)
class Inventory:
    """One cluster as the checks see it.  ``None`` for what was not read."""

    nodes: Optional[Tuple[Node, ...]] = None
    queues: Optional[Dict[str, Queue]] = None
    #: namespace -> names, for the namespaces read (a namespace not listed: unknown)
    claims: Optional[Dict[str, FrozenSet[str]]] = None
    config_maps: Optional[Dict[str, FrozenSet[str]]] = None
    #: component (:data:`COMPONENTS`) -> version ("" when its Deployment was found without a tagged image)
    versions: Dict[str, str] = field(default_factory=dict)
    #: where it came from: "cluster" (a live read) or the snapshot file's name
    source: str = "cluster"
    #: the context or name the snapshot was taken of (as its metadata.name says)
    name: str = ""
    #: the Ascend plugin's multi-level topology (its ``resource-level-config``): tree name -> the node label of each
    #: level, level1 first; {} when the scheduler's configuration has none it can use; None: not read
    resource_levels: Optional[Dict[str, Tuple[str, ...]]] = None
    #: the namespace a job that names none lands in (``-n``, else the context's, else ``default``); "": not known
    default_namespace: str = ""
    #: the NPUs in use on the nodes (:attr:`Node.used`): :data:`LIVE` read now; a snapshot's UTC time stamp
    #: (``2026-12-07T05:00:00Z``) or :data:`UNTIMED`: as they were then; None: not recorded (every ``used`` is 0 and says
    #: nothing about now: the rules about room now are silent)
    usage: Optional[str] = LIVE
    #: the names of the cluster's PriorityClasses (None: not read)
    priority_classes: Optional[FrozenSet[str]] = None
    #: Volcano HyperNodes (network topology): name -> tier (None: not read; {}: the cluster has none)
    hyper_nodes: Optional[Dict[str, int]] = None
    #: the Ascend modes Volcano's deviceshare plugin turns on in the scheduler's configuration (:data:`DEVICE_SHARE_MODES`,
    #: sorted; (): none, or no deviceshare plugin); None: no scheduler configuration was read
    device_share: Optional[Tuple[str, ...]] = None

    def bundled_volcano(self) -> Optional[str]:
        """The cluster's Volcano release when lint bundles its schemas ('1.9', ...): what a lint against this
        cluster checks Volcano objects with, unless told otherwise (``--volcano-version``); None otherwise."""
        from ..schemacheck.registry import normalize_volcano_version

        try:
            return normalize_volcano_version(self.versions.get(VOLCANO, ""))
        except ValueError:
            return None

    def offered(self) -> FrozenSet[str]:
        """The NPU resources some node offers (allocatable above 0); empty when the nodes were not read."""
        return frozenset(r for node in self.nodes or () for r, count in node.allocatable.items() if count > 0)

    def namespace_of(self, namespace: Optional[str]) -> Optional[str]:
        """Where an object lands: its own namespace, else the cluster's default (None when neither is known)."""
        return namespace or self.default_namespace or None

    def offers(self, resource: str) -> Optional[bool]:
        """Whether a node offers ``resource`` (allocatable, any amount); None when the nodes were not read."""
        return None if self.nodes is None else any(resource in n.allocatable for n in self.nodes)

    def carries(self, label: str, value: Optional[str] = None) -> Optional[bool]:
        """Whether a node carries the label (with ``value``, unless None); None when the nodes were not read."""
        if self.nodes is None:
            return None
        return any(label in n.labels and (value is None or n.labels[label] == value) for n in self.nodes)

    def has_priority_class(self, name: str) -> Optional[bool]:
        """Whether the PriorityClass exists; None when they were not read."""
        if name in SYSTEM_PRIORITY_CLASSES:
            return True
        return None if self.priority_classes is None else name in self.priority_classes

    def has_claim(self, namespace: str, name: str) -> Optional[bool]:
        """Whether the PVC exists; None when the namespace was not read."""
        return _has(self.claims, namespace, name)

    def has_config_map(self, namespace: str, name: str) -> Optional[bool]:
        """Whether the ConfigMap exists; None when the namespace was not read."""
        return _has(self.config_maps, namespace, name)


def _has(table: Optional[Dict[str, FrozenSet[str]]], namespace: str, name: str) -> Optional[bool]:
    if table is None or namespace not in table:
        return None
    return name in table[namespace]
