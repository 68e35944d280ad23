"""The schedule policy's handler takes no node as large as the nodes the pods select.

**What.** A job whose ``huawei.com/schedule_policy`` names the policy of
smaller servers than the ones its ``accelerator-type`` node selector names:
e.g. ``chip1-node2`` (the generic card handler, servers of at most 8 NPUs)
on a job whose pods select ``module-a3-16`` nodes (16 NPUs each).

**Why.** The policy picks the scheduler's handler, and each handler has a node
limit: the most NPUs a node it takes may have (the largest server it serves). It
reads a node's free NPUs from the node's annotation and refuses a node with more
than that ("node npu top<...> is invalid"), so every idle node of the selected
type is refused and the job stays Pending. It fits only on a node where other
jobs already hold enough NPUs to leave at most the limit free, and then runs
under the rules of another server. The simulated cluster shows the job Pending
on idle nodes. A warning, not an error: whether a node qualifies depends on what
else runs on it.

With ``--cluster`` or ``--cluster-snapshot``, a selected node of the cluster that
offers no more NPUs than the handler takes means the profile's node size is not
this cluster's: nothing is reported (AC904 judges the nodes themselves).

**How to fix.** Use the schedule policy of the servers you select
(``ascend-compile profiles``), or select the servers the policy is for.

Failing::

    metadata:
      annotations: {huawei.com/schedule_policy: chip1-node2}
    ...
          nodeSelector: {accelerator-type: module-a3-16}

Passing::

    metadata:
      annotations: {huawei.com/schedule_policy: chip2-node16}
    ...
          nodeSelector: {accelerator-type: module-a3-16}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import Citation, MC, PL, Place
from ...hardware.targeting import handler_family, handler_key, handler_node_limit, node_profile
from ...releases import PLUGIN_STACKS
from ...vocabulary import ACCELERATOR_TYPE_LABEL, CARD_ACCELERATOR_MARK
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("GetUsableTopFromNode", "component/ascend-for-volcano/internal/npu/base/node.go", MC,
                    "node npu top<%v> is invalid",
                    also=(Place("SetMaxNodeNPUNum", PL + "internal/npu/base/frame.go", MC),
                          Place("WithMaxNodeNum", PL + "internal/npu/base/frame.go", MC),
                          Place("", PL + "internal/npu/factory.go (each handler's node limit)", MC)))


def _small_nodes(run: RunContext, resource: Optional[str], value: Any, limit: int) -> bool:
    """Whether a node of the run's cluster inventory that carries the selected accelerator-type offers at most
    ``limit`` NPUs of ``resource`` (the inventory beats the profile's node size; AC904 judges those nodes)."""
    nodes = run.inventory.nodes if run.inventory is not None else None
    return bool(nodes) and any(n.labels.get(ACCELERATOR_TYPE_LABEL) == value and
                               0 < n.allocatable.get(resource or "", 0) <= limit for n in nodes or ())


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    policy = run.signals(obj).schedule_policy
    if run.profiles is None:
        return
    chosen = [p for p in run.candidate_profiles(obj) if policy and p.schedule_policy == policy]
    if not chosen:  # the policy is not what picks the handler: an older card handler's node limit may still bite
        chosen = [p for p in run.candidate_profiles(obj) if handler_key(p) == CARD_ACCELERATOR_MARK]
        policy = None
    if not chosen:
        return
    every = run.profiles.all()
    family = handler_family(every, chosen)
    limit = handler_node_limit(family, run.release)
    resource = obj.npu_resource()
    for pod_set in obj.npu_pod_sets():
        value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
        nodes = node_profile(every, resource, value)
        if nodes is None or nodes.npus_per_node <= limit or _small_nodes(run, resource, value, limit):
            continue
        served = ", ".join(p.name for p in family)
        picked = f"schedule_policy {policy} picks" if policy else f"on MindCluster {run.release} the card handler is"
        yield Problem(pod_set.spec_path + ("nodeSelector", ACCELERATOR_TYPE_LABEL),
                      f"{pod_set.role}: {picked} the scheduler's handler for {served}, which "
                      f"refuses a node with more than {limit} free NPUs; {ACCELERATOR_TYPE_LABEL}={value} selects "
                      f"{nodes.name} nodes with {nodes.npus_per_node}: an idle one never takes the pods")
