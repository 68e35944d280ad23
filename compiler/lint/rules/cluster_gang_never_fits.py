"""The job's pods, which start together, need more nodes than the cluster has even when idle.

**What.** With ``--cluster`` or ``--cluster-snapshot``: the job's NPU pods of one
size (that select the same nodes) all start together (gang scheduling: the
pod group's ``minAvailable`` is every pod), but the nodes they may run on
could not hold that many such pods even if nothing else ran, e.g. 8 pods of
8 NPUs on a cluster with 4 such nodes.

**Why.** Volcano starts a gang only when every pod of it can be placed at once;
a gang larger than the cluster stays Pending for ever ("not enough resources").
The message says how many pods the nodes could take.

**How to fix.** Run fewer pods (or fewer NPUs per pod where the profile allows),
or run the job on a larger cluster.

Failing::

    replicas: 8          # 8 pods of 8 NPUs; the cluster has 4 module-910b-8 nodes

Passing::

    replicas: 4
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..rule import Problem
from ._cluster import gangs, nodes_summary, pods_room, selector_of

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, resource, npus, pods, nodes in gangs(run, obj):
        room = pods_room(nodes, resource, npus, free=False)
        if room < pods:
            yield Problem(pod_set.role_path, f"the job starts {pods} pods of {npus} {resource} together, but even "
                          f"idle the nodes they may run on take {room} ({nodes_summary(nodes, selector_of(pod_set), resource)}): "
                          "it is never placed")
