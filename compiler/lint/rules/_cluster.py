"""What the cluster-aware rules (AC901-AC915) share: the run's inventory, and the nodes that can take a pod set.

Every answer that depends only on the inventory and a pod set's node selector, tolerations and NPUs is
worked out once per run (``run.cluster_memo``): a run of a thousand jobs asks the same few questions.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple

from ...inventory.model import BLOCKING_EFFECTS, Inventory, Node
from ...manifest.values import as_list

if TYPE_CHECKING:
    from ...manifest.pods import PodSet
    from ..context import RunContext

#: how many names a message lists at most
SHOWN = 5


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


def selected(run: "RunContext", selector: Tuple[Tuple[str, str], ...]) -> List[Node]:
    """The schedulable nodes that carry every selected label (taints aside)."""
    inv = inventory(run)
    nodes = inv.schedulable_nodes() if inv is not None else []
    found: List[Node] = _memo(run, ("selected", selector), lambda: [n for n in nodes if n.selected_by(dict(selector))])
    return found


def usable(run: "RunContext", pod_set: "PodSet") -> List[Node]:
    """The schedulable nodes a pod of the set may be placed on: every selected label, every blocking taint tolerated."""
    selector, tolerations = selector_of(pod_set), tolerations_of(pod_set)
    key = ("usable", selector, repr(tolerations))
    found: List[Node] = _memo(run, key, lambda: [
        n for n in selected(run, selector)
        if all(t.tolerated_by(tolerations) for t in n.taints if t.effect in BLOCKING_EFFECTS)])
    return found


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
    return sum(max(n.free(resource) if free else n.allocatable.get(resource, 0), 0) // npus for n in nodes)


def nodes_summary(nodes: Sequence[Node], selector: Sequence[Tuple[str, str]], resource: str) -> str:
    """``nodes with accelerator-type=module-910b-8: 12, the largest 8 huawei.com/Ascend910, the most free 8``."""
    text = f"nodes with {labels_text(selector)}: {len(nodes)}"
    if not nodes or not resource:
        return text
    largest = max(n.allocatable.get(resource, 0) for n in nodes)
    most_free = max(n.free(resource) for n in nodes)
    return text + f", the largest {largest} {resource}, the most free {max(most_free, 0)}"


def gangs(run: "RunContext", obj: Any) -> List[Tuple[Any, str, int, int, List[Node]]]:
    """(first pod set, resource, NPUs per pod, pods, usable nodes) of each group of the job's NPU pod sets that
    compete for the same nodes (the same selector, tolerations, resource and size), for a job whose pods all
    start together (no ``minAvailable`` below its pod count); none without an inventory that has the nodes."""
    inv = inventory(run)
    if inv is None or inv.nodes is None:
        return []
    pod_sets = [p for p in obj.npu_pod_sets() if p.replicas > 0 and p.npus() > 0]
    least = obj.min_available()
    if not pod_sets or (least is not None and least < sum(max(p.replicas, 0) for p in obj.pod_sets())):
        return []
    groups: Dict[Tuple[Any, ...], List[Any]] = {}
    for pod_set in pod_sets:
        key = (selector_of(pod_set), repr(tolerations_of(pod_set)), pod_set.npu_resource(), pod_set.npus())
        groups.setdefault(key, []).append(pod_set)
    out = []
    for (_, _, resource, npus), members in groups.items():
        nodes = usable(run, members[0])
        if nodes and npus <= max(n.allocatable.get(resource, 0) for n in nodes):
            out.append((members[0], resource, npus, sum(p.replicas for p in members), nodes))
    return out
