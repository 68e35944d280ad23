"""What the cluster-aware rules (AC901-AC915) share: the run's inventory, and the nodes that can take a pod set.

Every answer that depends only on the inventory and a pod set's node selector, tolerations and NPUs is
worked out once per run (``run.cluster_memo``): a run of a thousand jobs asks the same few questions.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, TypeVar

from ...findings import Path
from ...inventory.model import BLOCKING_EFFECTS, Inventory, Node, NodeIndex
from ...manifest.pods import Term
from ...manifest.values import as_dict, as_int, as_list
from ...records import NamedTuple
from ...vocabulary import ASCEND_JOB, VOLCANO_JOB

if TYPE_CHECKING:
    from ...manifest.pods import PodSet
    from ..context import RunContext

#: how many names a message lists at most
SHOWN = 5
T = TypeVar("T")


def inventory(run: "RunContext") -> Optional[Inventory]:
    return getattr(run, "inventory", None)


def selector_of(pod_set: "PodSet") -> Tuple[Tuple[str, str], ...]:
    """The pod set's node selector as (label, value) pairs, sorted (values as the API would store them)."""
    return tuple(sorted((str(k), str(v)) for k, v in pod_set.node_selector.items()))


def tolerations_of(pod_set: "PodSet") -> Tuple[Dict[str, Any], ...]:
    return tuple(t for t in as_list(pod_set.spec.get("tolerations")) if isinstance(t, dict))


def _memo(run: "RunContext", key: Tuple[Any, ...], compute: Any) -> Any:
    try:
        return run.cluster_memo[key]
    except KeyError:
        found = run.cluster_memo[key] = compute()
        return found


class Nodes(List[Node]):
    """Nodes :func:`selected` or :func:`usable` found (once per run), with what the rules work out over them (sums,
    maxima, messages: :func:`once`), so that many jobs that may use the same nodes cost one pass over them."""

    def __init__(self, nodes: Iterable[Node]):
        super().__init__(nodes)
        self.memo: Dict[Tuple[Any, ...], Any] = {}


def once(nodes: Sequence[Node], key: Tuple[Any, ...], compute: Callable[[], T]) -> T:
    """``compute()``, a function of ``nodes`` and ``key``: worked out once for nodes the run found (:class:`Nodes`)."""
    if not isinstance(nodes, Nodes):
        return compute()
    try:
        found: T = nodes.memo[key]
    except KeyError:
        found = nodes.memo[key] = compute()
    return found


def selected(run: "RunContext", selector: Tuple[Tuple[str, str], ...], affinity: Optional[Tuple[Term, ...]] = None
             ) -> Nodes:
    """The schedulable nodes that carry every selected label and meet the required node affinity (taints aside)."""
    found: Nodes = _memo(run, ("selected", selector, affinity),
                         lambda: Nodes(node_index(run).select(dict(selector), affinity)))
    return found


def node_index(run: "RunContext") -> NodeIndex:
    """The run's schedulable nodes, indexed once (:class:`~ascend_compile.inventory.model.NodeIndex`)."""
    inv = inventory(run)
    index: NodeIndex = _memo(run, ("index",), lambda: NodeIndex(inv.nodes or () if inv is not None else ()))
    return index


def usable(run: "RunContext", pod_set: "PodSet", unselected: str = "") -> Nodes:
    """The schedulable nodes a pod of the set may be placed on: every selected label (but ``unselected``), the
    required node affinity met, every blocking taint tolerated."""
    selector = tuple(pair for pair in selector_of(pod_set) if pair[0] != unselected)
    tolerations, affinity = tolerations_of(pod_set), pod_set.node_affinity
    key = ("usable", selector, affinity, repr(tolerations))
    found: Nodes = _memo(run, key, lambda: Nodes(
        n for n in selected(run, selector, affinity)
        if all(t.tolerated_by(tolerations) for t in n.taints if t.effect in BLOCKING_EFFECTS)))
    return found


def affinity_text(affinity: Sequence[Term]) -> str:
    """A required node affinity as one line: ``host-arch In (huawei-arm) and gpu DoesNotExist, or ...``."""
    def one(requirement: Tuple[str, str, Tuple[str, ...]]) -> str:
        key, operator, values = requirement
        return f"{key} {operator}" + (f" ({', '.join(values)})" if values else "")

    return ", or ".join(" and ".join(one(r) for r in labels + fields) or "(no requirement)"
                        for labels, fields in affinity)


def labels_text(selector: Sequence[Tuple[str, str]]) -> str:
    return ",".join(f"{k}={v}" for k, v in selector) or "(any node)"


def counted(values: Counter) -> str:  # type: ignore[type-arg]
    """``a (3), b (1)``, most first, at most :data:`SHOWN`."""
    items = sorted(values.items(), key=lambda item: (-item[1], item[0]))
    more = f" and {len(items) - SHOWN} more" if len(items) > SHOWN else ""
    return ", ".join(f"{value or '(none)'} ({n})" for value, n in items[:SHOWN]) + more


def names(found: Sequence[str]) -> str:
    shown = sorted(found)[:SHOWN]
    more = f" and {len(found) - SHOWN} more" if len(found) > SHOWN else ""
    return ", ".join(shown) + more if shown else "none"


def pods_room(nodes: Sequence[Node], resource: str, npus: int, free: bool) -> int:
    """How many pods of ``npus`` NPUs of ``resource`` the nodes take (now: ``free``; idle: not ``free``)."""
    if npus <= 0:
        return 0
    return once(nodes, ("room", resource, npus, free), lambda: sum(
        max(n.free(resource) if free else n.allocatable.get(resource, 0), 0) // npus for n in nodes))


def most(nodes: Sequence[Node], resource: str, free: bool = False) -> int:
    """The most NPUs of ``resource`` one of the nodes has (free now: ``free``); 0 without nodes."""
    return once(nodes, ("most", resource, free), lambda: max(
        (n.free(resource) if free else n.allocatable.get(resource, 0) for n in nodes), default=0))


def free_npus(nodes: Sequence[Node], resource: str) -> int:
    """The free NPUs of ``resource`` on all the nodes."""
    return once(nodes, ("free", resource), lambda: sum(max(n.free(resource), 0) for n in nodes))


def nodes_summary(nodes: Sequence[Node], pod_set: "PodSet", resource: str) -> str:
    """``nodes with accelerator-type=module-910b-8: 12, the largest 8 huawei.com/Ascend910, the most free 8`` (the nodes
    the pod set may use: its selected labels, and its required node affinity when it has one)."""
    affinity = " and the required node affinity" if pod_set.node_affinity is not None else ""
    text = f"nodes with {labels_text(selector_of(pod_set))}{affinity}: {len(nodes)}"
    if not nodes or not resource:
        return text
    return text + f", the largest {most(nodes, resource)} {resource}, the most free {max(most(nodes, resource, True), 0)}"


class Gang(NamedTuple):
    """The job's NPU pod sets that compete for the same nodes (the same selector, tolerations, resource and size)."""

    pod_set: Any  # the first of them (where a finding points)
    roles: str  # their names, "Master+Worker"
    resource: str
    npus: int  # per pod
    pods: int  # the group's pods
    least: int  # of those, the pods the scheduler needs placed before it starts the job (per-task minimums)
    nodes: List[Node]  # the nodes they may run on


class GangNeed(NamedTuple):
    """What the scheduler needs placed at once before it starts a job (Volcano's gang plugin)."""

    pods: int  # the job's pods
    least: int  # the pod group's minMember: pods placed together before any starts
    groups: List[Gang]  # the NPU groups whose nodes could take one pod (the others: no nodes, or a pod too large)
    others: int  # pods without NPUs (counted toward ``least``, placed wherever they may go)
    complete: bool  # every NPU group is in ``groups``
    path: Path  # where the job sets its minAvailable (or the job's spec)


def gang_need(run: "RunContext", obj: Any) -> Optional[GangNeed]:
    """The job's gang as the scheduler sees it; None without an inventory that has the nodes, or when the pod group
    starts pods one by one (minMember 0).

    The pod group's minMember is the job's minAvailable (an AscendJob's ``runPolicy.schedulingPolicy``, default every
    pod: ascend-operator; a Volcano Job's ``spec.minAvailable``, default the sum of its tasks' ``minAvailable``, each
    task's default its replicas: Volcano's job admission), and each task's minimum (minTaskMember) is its
    replicas (the operator) or its ``minAvailable`` (Volcano).  When minMember is below the sum of the task minimums
    the scheduler skips the per-task check (``CheckTaskValid``): any minMember pods do."""
    inv = inventory(run)
    if inv is None or inv.nodes is None:
        return None
    size = gang_size(obj)
    if size is None:
        return None
    pod_sets, minimums, least, path = size
    per_task = least >= sum(minimums)
    groups: Dict[Tuple[Any, ...], List[Tuple[Any, int]]] = {}
    others = 0
    for pod_set, minimum in zip(pod_sets, minimums):
        if pod_set.npus() <= 0:
            others += pod_set.replicas
            continue
        key = (selector_of(pod_set), pod_set.node_affinity, repr(tolerations_of(pod_set)), pod_set.npu_resource(),
               pod_set.npus())
        groups.setdefault(key, []).append((pod_set, minimum if per_task else 0))
    out = []
    for (_, _, _, resource, npus), members in groups.items():
        nodes = usable(run, members[0][0])
        if nodes and npus <= most(nodes, resource):
            out.append(Gang(members[0][0], "+".join(p.role for p, _ in members), resource, npus,
                            sum(p.replicas for p, _ in members), sum(m for _, m in members), nodes))
    return GangNeed(sum(p.replicas for p in pod_sets), least, out, others, len(out) == len(groups), path)


def gang_size(obj: Any) -> Optional[Tuple[List["PodSet"], List[int], int, Path]]:
    """(the job's pod sets with pods, each one's minimum, the pods its pod group places together, where the job sets
    that number): the job's minMember and minTaskMember as :func:`gang_need` says; None when it starts pods one by
    one (minMember 0)."""
    pod_sets = [p for p in obj.pod_sets() if p.replicas > 0]
    minimums = [_task_minimum(obj, p) for p in pod_sets]
    least = obj.min_available()
    if least is None or (obj.kind == VOLCANO_JOB and least == 0):
        least = sum(minimums) if obj.kind == VOLCANO_JOB else sum(p.replicas for p in pod_sets)
    return None if least <= 0 else (pod_sets, minimums, least, _min_available_path(obj))


def least_npus(obj: Any, resource: str) -> int:
    """The fewest NPUs of ``resource`` the pods the job's pod group places together can ask for (the sum over its
    smallest pods: whichever pods the pod group's minimum resources count, at least these); 0 when it has no gang."""
    size = gang_size(obj)
    if size is None:
        return 0
    pod_sets, _minimums, least, _path = size
    counts = sorted(c for p in pod_sets for c in [p.npus() if p.npu_resource() == resource else 0]
                    for _ in range(min(p.replicas, least)))
    return sum(counts[:least])


def where(inv: Inventory) -> str:
    """Where a message's claim about the cluster comes from: ``the cluster`` (a live read) or ``the cluster snapshot
    FILE``."""
    return "the cluster" if inv.source == "cluster" else f"the cluster snapshot {inv.source}"


def _task_minimum(obj: Any, pod_set: "PodSet") -> int:
    """The pods of a task the pod group's minTaskMember asks for (a Volcano task's minAvailable, else its replicas)."""
    if obj.kind == VOLCANO_JOB and len(pod_set.role_path) == 3:
        tasks = as_list(obj.spec.get("tasks"))
        index = pod_set.role_path[2]
        task = as_dict(tasks[index]) if isinstance(index, int) and index < len(tasks) else {}
        found = as_int(task.get("minAvailable"))
        if found is not None and found >= 0:
            return int(min(found, pod_set.replicas))
    return int(pod_set.replicas)


def _min_available_path(obj: Any) -> Path:
    if obj.kind == ASCEND_JOB:
        policy = as_dict(as_dict(obj.spec.get("runPolicy")).get("schedulingPolicy"))
        return ("spec", "runPolicy", "schedulingPolicy", "minAvailable") if "minAvailable" in policy else ("spec",)
    return ("spec", "minAvailable") if "minAvailable" in obj.spec else ("spec",)


def placeable(need: GangNeed, free: bool) -> int:
    """The most of the job's pods the nodes hold at once (idle: not ``free``): every pod without NPUs, and of each
    group as many as its nodes take."""
    return need.others + sum(min(g.pods, pods_room(g.nodes, g.resource, g.npus, free)) for g in need.groups)


def gang_text(need: GangNeed, free: bool) -> str:
    """What the nodes hold of each group (``Master+Worker, 6 pods of 8 huawei.com/Ascend910: room for 3; nodes
    with ...``), then the pods without NPUs."""
    parts = [f"{g.roles}, {g.pods} pods of {g.npus} {g.resource}: room for "
             f"{pods_room(g.nodes, g.resource, g.npus, free)}; {nodes_summary(g.nodes, g.pod_set, g.resource)}"
             for g in need.groups]
    if need.others:
        parts.append(f"{need.others} pods without NPUs")
    return " / ".join(parts)
