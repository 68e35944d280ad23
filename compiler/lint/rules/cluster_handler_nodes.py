"""The schedule policy's handler refuses every node the pods select, as the cluster's nodes are now.

**What.** With ``--cluster`` or ``--cluster-snapshot``: the job's
``huawei.com/schedule_policy`` picks a scheduler handler that takes only nodes
with at most so many free NPUs (the largest server it serves), and every node
the pods select has more free NPUs than that (or too few for one pod).

**Why.** The handler reads a node's free NPUs and refuses a node with more than
its limit ("node npu top<...> is invalid"), so the job is never placed while the
nodes stay as they are. An error when every such node is idle (the simulated
cluster shows the job Pending: nothing will ever free fewer NPUs on them); a
warning when some are busy (a node may qualify once other jobs hold enough of
its NPUs); info when they were busy in a snapshot's record of usage (a moment
that says little about when the job runs), and a snapshot of capacity only
counts every node idle. Offline, AC317 warns from the hardware profiles; this rule looks at
the cluster's nodes.

**How to fix.** Use the schedule policy of the servers you select
(``ascend-compile profiles``), or select the servers the policy is for.

Failing::

    metadata:
      annotations: {huawei.com/schedule_policy: chip1-node2}   # the card handler: nodes of at most 8
    ...
          nodeSelector: {accelerator-type: module-a3-16}          # the cluster's nodes have 16 free

Passing::

    metadata:
      annotations: {huawei.com/schedule_policy: chip2-node16}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List, Optional, Tuple

from ...catalogue.citations import Citation, MC, PL
from ...findings import INFO, WARNING
from ...inventory.model import LIVE
from ...hardware.targeting import handler_family, handler_node_limit
from ...releases import PLUGIN_STACKS
from ...vocabulary import SCHEDULE_POLICY_ANNOTATION
from ..rule import Problem
from ._cluster import inventory, nodes_summary, once, usable

if TYPE_CHECKING:
    from ...inventory.model import Node
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("GetUsableTopFromNode", PL + "internal/npu/base/node.go", MC, "node npu top<%v> is invalid")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    policy = obj.schedule_policy
    if inv is None or inv.nodes is None or policy is None or run.profiles is None:
        return
    chosen = [p for p in run.candidate_profiles(obj) if p.schedule_policy == policy]
    if not chosen:
        return  # the policy does not pick the handler (unknown, or another resource)
    family = handler_family(run.profiles.all(), chosen)
    limit = handler_node_limit(family, run.release)
    for pod_set in obj.npu_pod_sets():
        resource, npus = pod_set.npu_resource() or "", pod_set.npus()
        usable_nodes = usable(run, pod_set)
        refused = once(usable_nodes, ("handler", resource, npus, limit), lambda: _refused(usable_nodes, resource, npus,
                                                                                           limit))
        if refused is None:
            continue
        nodes, idle = refused
        served = ", ".join(p.name for p in family)
        text = (f"{pod_set.role}: schedule_policy {policy} picks the handler for {served}, which refuses a node with "
                f"more than {limit} free NPUs; {nodes_summary(nodes, pod_set, resource)}")
        found = obj.job_annotation(SCHEDULE_POLICY_ANNOTATION)
        yield Problem(found[1] if found is not None else pod_set.spec_path,
                      text + (": every one is idle, so the pods are never placed" if idle else
                              ": none qualifies now (one may, once other jobs hold some of its NPUs)"),
                      severity=None if idle else WARNING if inv.usage == LIVE else INFO)


def _refused(usable_nodes: List[Node], resource: str, npus: int, limit: int) -> Optional[Tuple[List[Node], bool]]:
    """(the nodes with room for a pod, whether every one is idle) when the handler refuses them all although some have
    room now; None when there are no such nodes (another rule says so), one the handler takes, or no room now
    (cluster-gang-no-room)."""
    nodes = [n for n in usable_nodes if n.allocatable.get(resource, 0) >= npus > 0]
    if not nodes or any(npus <= n.free(resource) <= limit for n in nodes) or all(n.free(resource) < npus for n in nodes):
        return None
    return nodes, all(n.free(resource) == n.allocatable.get(resource, 0) for n in nodes)
