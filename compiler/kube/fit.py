"""Node fit: could the nodes take the job's pods, and if not, what is the nearest miss.

For each replica type (task) of a job: the nodes that carry every label its pods select
(``accelerator-type``, ``host-arch`` and whatever else the nodeSelector says), how many of those
have enough free NPUs of the resource its pods request (allocatable minus the requests of pods bound
there that have not ended), and, when none matches, the nodes that miss by the fewest labels.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Dict, List, Sequence, Tuple

from ..manifest.job import Manifest
from ..vocabulary import ACCELERATOR_TYPE_LABEL
from ..inventory.model import Node
from .jobview import JobView, Replica

#: the fit verdicts, worst first
NO_NODES = "no-nodes"  # no schedulable node carries the selected labels
NEVER_FITS = "npus-never-fit"  # nodes match, but none has that many NPUs at all
TOO_FEW = "too-few-nodes"  # nodes match, but even idle they cannot take all the job's pods at once
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
    holders: Tuple[str, ...] = ()  # who holds the matching nodes' NPUs, most first
    family: str = ""  # the job's schedule_policy: the accelerator-types it stands for, and how many nodes have one
    capacity: int = 0  # pods of this size the matching nodes could take if they were idle
    total: int = 0  # the job's pods in this group, placed or not
    one_per_node: bool = False
    #: when the job's pod group starts with fewer than all its pods (minAvailable): that many, of ``job_pods``
    needed: int = 0
    job_pods: int = 0

    def line(self) -> str:
        return self._line() + (f"; {self.family}" if self.family else "")

    def _line(self) -> str:
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
        if self.verdict == TOO_FEW:
            per = " (one pod per node: the job's anti-affinity)" if self.one_per_node else ""
            together = (f"the job's pod group needs {self.needed} of its {self.job_pods} pods together" if self.needed
                        else f"the job runs {self.total} together")
            return (f"{self.replica}: {nodes} {labels}; even idle they take at most {self.capacity} pods of "
                    f"{self.npus} {short}{per}, but {together}: it can never be placed")
        text = f"{self.replica}: {nodes} {labels}, {self.enough} of them with {self.npus} free {short}"
        if self.verdict == NO_ROOM:
            return (f"{self.replica}: {nodes} {labels}, but {self.enough} have {self.npus} free {short} "
                    f"(room for {self.slots} of the {self.pods} pods still to place; the most free on one node: "
                    f"{self.most_free}): {self._held()}")
        if self.pods == 0:
            return text + " now; every pod is placed"
        return text + f" (room for {self.slots} pod{'s' if self.slots != 1 else ''}, {self.pods} to place)"

    def _held(self) -> str:
        if not self.holders:
            return "other pods hold them"
        more = f" and {len(self.holders) - 3} more" if len(self.holders) > 3 else ""
        return f"held by {', '.join(self.holders[:3])}{more}"

    def as_dict(self) -> Dict[str, Any]:
        return {"replica": self.replica, "pods": self.pods, "selector": dict(self.selector),
                "resource": self.resource, "npus": self.npus, "matchingNodes": self.matching,
                "nodesWithEnoughFree": self.enough, "slots": self.slots, "largest": self.largest,
                "mostFree": self.most_free, "nearest": self.nearest, "verdict": self.verdict,
                "heldBy": list(self.holders), "family": self.family, "capacity": self.capacity,
                "total": self.total, "onePerNode": self.one_per_node, "needed": self.needed, "jobPods": self.job_pods,
                "line": self.line()}


def node_fit(view: JobView) -> List[Fit]:
    """One :class:`Fit` per group of replica types that select the same nodes and NPUs (they compete for them)."""
    if view.nodes is None:
        return []
    usable = [n for n in view.nodes if n.ready and not n.cordoned]
    groups: Dict[Tuple[Any, ...], List[Replica]] = {}
    for replica in view.replicas:
        key = (tuple(sorted(replica.node_selector.items())), replica.node_affinity, replica.npu_resource, replica.npus,
               replica.one_per_node)
        groups.setdefault(key, []).append(replica)
    out = []
    for replicas in groups.values():
        names = {r.name.lower() for r in replicas}
        placed = sum(1 for p in view.pods if p.node and p.replica.lower() in names and not p.ended)
        total = sum(r.replicas for r in replicas)
        fit = _fit(replicas, total, max(total - placed, 0), usable)
        family = policy_family(view.manifest, replicas[0], usable)
        out.append(replace(fit, family=family) if family else fit)
    return _by_min_available(view, out)


def _by_min_available(view: JobView, fits: List[Fit]) -> List[Fit]:
    """When the job's pod group starts with fewer than all its pods (its minMember, else the job's minAvailable), a
    group the nodes cannot hold whole does not keep the job from starting as long as the groups together hold that
    many (the gang plugin counts pods, not groups): such a group fits when the free NPUs hold that many now, else it
    is short of room; otherwise each short group says how many the pod group needs."""
    want = view.podgroups[0].min_member if view.podgroups else view.min_available
    if want is None or want <= 0 or want >= view.total_pods:
        return fits
    sized = [f for f in fits if f.resource and f.npus > 0]
    others = view.total_pods - sum(f.total for f in sized)  # pods without NPUs: placed wherever they may go
    if others + sum(min(f.total, f.capacity) for f in sized) < want:
        return [replace(f, needed=want, job_pods=view.total_pods) if f.verdict == TOO_FEW else f for f in fits]
    now = others + sum(f.total - f.pods + min(f.pods, f.slots) for f in sized)  # placed, and room for more now
    return [replace(f, verdict=FITS if now >= want else NO_ROOM) if f.verdict == TOO_FEW else f for f in fits]


def policy_family(job: Manifest, replica: Replica, nodes: Sequence[Node]) -> str:
    """For a job that names a ``schedule_policy``: the node accelerator-types of the profiles the policy stands
    for (the plugin's handler choice, :mod:`ascend_compile.hardware.targeting`, from what the job tells the scheduler) and
    how many of the selected nodes have one."""
    signals = job.signals()
    policy = signals.schedule_policy
    if not policy or not replica.npu_resource:
        return ""
    from ..hardware.profiles import ProfileRegistry
    from ..hardware.targeting import candidate_profiles

    types = sorted({str(p.accelerator_type) for p in candidate_profiles(ProfileRegistry().all(), signals)
                    if p.accelerator_type})
    if not types:
        return f"schedule_policy {policy} stands for no profile ascend-compile knows"
    selected = [n for n in nodes if n.selected_by(replica.node_selector, replica.node_affinity)]
    have = sum(1 for n in selected if n.labels.get(ACCELERATOR_TYPE_LABEL) in types)
    return (f"schedule_policy {policy} is {ACCELERATOR_TYPE_LABEL} {' or '.join(types)}: {have} of the "
            f"{len(selected)} selected nodes")


def _fit(replicas: Sequence[Replica], total: int, pods: int, nodes: Sequence[Node]) -> Fit:
    first = replicas[0]
    name = "+".join(r.name for r in replicas)
    selector, resource, npus = first.node_selector, first.npu_resource, first.npus
    matching = [n for n in nodes if n.selected_by(selector, first.node_affinity)]
    if not matching:
        labelled = sum(1 for n in nodes if n.selected_by(selector))
        near = (f"{labelled} node{'s' if labelled != 1 else ''} {'have' if labelled != 1 else 'has'} the labels but not "
                "the pods' required node affinity") if labelled else nearest(selector, nodes)
        return Fit(name, pods, selector, resource, npus, 0, 0, 0, 0, 0, near, NO_NODES)
    if not resource or npus <= 0:
        slots = len(matching) if first.one_per_node else pods
        return Fit(name, pods, selector, resource, npus, len(matching), len(matching), slots, 0, 0, "",
                   FITS if slots >= pods else TOO_FEW, capacity=slots, total=total)
    free = [n.free(resource) for n in matching]
    largest = max(n.allocatable.get(resource, 0) for n in matching)
    enough = sum(1 for f in free if f >= npus)
    slots = sum(_slots(f, npus, first.one_per_node) for f in free)
    capacity = sum(_slots(n.allocatable.get(resource, 0), npus, first.one_per_node) for n in matching)
    verdict = NEVER_FITS if largest < npus else TOO_FEW if capacity < total else NO_ROOM if slots < pods else FITS
    held: Dict[str, int] = {}
    for node in matching:
        for holder, count in node.holders.items():
            held[holder] = held.get(holder, 0) + count
    holders = tuple(f"{h} ({n} {resource.rpartition('/')[2]})" for h, n in sorted(held.items(), key=lambda i: -i[1]))
    return Fit(name, pods, selector, resource, npus, len(matching), enough, slots, largest, max(free), "", verdict,
               holders, capacity=capacity, total=total, one_per_node=first.one_per_node)


def _slots(available: int, npus: int, one_per_node: bool) -> int:
    """How many pods of ``npus`` NPUs a node with ``available`` NPUs takes."""
    count = max(available, 0) // npus
    return min(count, 1) if one_per_node else count


def nearest(selector: Dict[str, str], nodes: Sequence[Node]) -> str:
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
