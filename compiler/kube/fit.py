"""Node fit: could the nodes take the job's pods, and if not, what is the nearest miss.

For each replica type (task) of a job: the nodes that carry every label its pods select
(``accelerator-type``, ``host-arch`` and whatever else the nodeSelector says), how many of those
have enough free NPUs of the resource its pods request (allocatable minus the requests of pods bound
there that have not ended), and, when none matches, the nodes that miss by the fewest labels.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

from .jobview import JobView, NodeView, Replica

#: the fit verdicts, worst first
NO_NODES = "no-nodes"  # no schedulable node carries the selected labels
NEVER_FITS = "npus-never-fit"  # nodes match, but none has that many NPUs at all
NO_ROOM = "npus-busy"  # nodes match and could, but their NPUs are taken now
FITS = "fits"


@dataclass(frozen=True)
class Fit:
    replica: str
    pods: int  # pods of this replica type still to be placed
    selector: Dict[str, str]
    resource: str
    npus: int
    matching: int  # schedulable nodes with every selected label
    enough: int  # of those: nodes with at least ``npus`` free
    slots: int  # pods of this size the matching nodes could take now
    largest: int  # the most NPUs of ``resource`` any matching node has at all
    most_free: int
    nearest: str  # when matching == 0: the closest nodes and what they lack
    verdict: str

    def line(self) -> str:
        labels = ",".join(f"{k}={v}" for k, v in sorted(self.selector.items())) or "(any node)"
        if self.verdict == NO_NODES:
            return f"{self.replica}: 0 nodes are {labels}" + (f"; nearest: {self.nearest}" if self.nearest else "")
        nodes = f"{self.matching} node{'s' if self.matching != 1 else ''} {'are' if self.matching != 1 else 'is'}"
        if not self.resource:
            return f"{self.replica}: {nodes} {labels} (the pods ask for no NPUs)"
        short = self.resource.rpartition("/")[2]
        if self.verdict == NEVER_FITS:
            return (f"{self.replica}: {nodes} {labels}, but none has {self.npus} {short} at all "
                    f"(at most {self.largest} per node): a pod asking for {self.npus} can never be placed")
        text = f"{self.replica}: {nodes} {labels}, {self.enough} of them with {self.npus} free {short}"
        if self.verdict == NO_ROOM:
            return (f"{self.replica}: {nodes} {labels}, but {self.enough} have {self.npus} free {short} "
                    f"(room for {self.slots} of the {self.pods} pods still to place; the most free on one node: "
                    f"{self.most_free}): other pods hold them")
        return text + f" (room for {self.slots} pod{'s' if self.slots != 1 else ''}, {self.pods} to place)"

    def as_dict(self) -> Dict[str, Any]:
        return {"replica": self.replica, "pods": self.pods, "selector": dict(self.selector),
                "resource": self.resource, "npus": self.npus, "matchingNodes": self.matching,
                "nodesWithEnoughFree": self.enough, "slots": self.slots, "largest": self.largest,
                "mostFree": self.most_free, "nearest": self.nearest, "verdict": self.verdict, "line": self.line()}


def node_fit(view: JobView) -> List[Fit]:
    """One :class:`Fit` per replica type that still has pods to place (all of them before any pod exists)."""
    if view.nodes is None:
        return []
    usable = [n for n in view.nodes if n.ready and not n.cordoned]
    out = []
    for replica in view.replicas:
        placed = sum(1 for p in view.pods if p.node and p.replica.lower() == replica.name.lower() and not p.ended)
        pods = max(replica.replicas - placed, 0)
        out.append(_fit(replica, pods, usable))
    return out


def _fit(replica: Replica, pods: int, nodes: Sequence[NodeView]) -> Fit:
    selector = replica.node_selector
    matching = [n for n in nodes if all(n.labels.get(k) == v for k, v in selector.items())]
    resource, npus = replica.npu_resource, replica.npus
    if not matching:
        return Fit(replica.name, pods, selector, resource, npus, 0, 0, 0, 0, 0, nearest(selector, nodes), NO_NODES)
    if not resource or npus <= 0:
        return Fit(replica.name, pods, selector, resource, npus, len(matching), len(matching), pods, 0, 0, "", FITS)
    free = [n.free(resource) for n in matching]
    largest = max(n.allocatable.get(resource, 0) for n in matching)
    enough = sum(1 for f in free if f >= npus)
    slots = sum(max(f, 0) // npus for f in free)
    verdict = NEVER_FITS if largest < npus else (NO_ROOM if slots < pods else FITS)
    return Fit(replica.name, pods, selector, resource, npus, len(matching), enough, slots, largest, max(free), "",
               verdict)


def nearest(selector: Dict[str, str], nodes: Sequence[NodeView]) -> str:
    """The nodes missing the fewest selected labels, and what they have instead."""
    if not selector or not nodes:
        return "" if nodes else "the cluster has no schedulable node"
    misses: List[Tuple[int, Tuple[Tuple[str, str], ...]]] = []
    for node in nodes:
        wrong = tuple((k, node.labels.get(k, "")) for k, v in sorted(selector.items()) if node.labels.get(k) != v)
        misses.append((len(wrong), wrong))
    fewest = min(count for count, _ in misses)
    groups: Dict[Tuple[Tuple[str, str], ...], int] = {}
    for count, wrong in misses:
        if count == fewest:
            groups[wrong] = groups.get(wrong, 0) + 1
    wrong, count = max(groups.items(), key=lambda item: (item[1], item[0]))
    have = ", ".join(f"{k}={v}" if v else f"no {k} label" for k, v in wrong)
    want = ", ".join(f"{k}={selector[k]}" for k, _ in wrong)
    return f"{count} node{'s' if count != 1 else ''} {'have' if count != 1 else 'has'} {have} (not {want})"
