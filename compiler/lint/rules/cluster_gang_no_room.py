"""The job's pods, which start together, do not fit the cluster's free NPUs now (they would on idle nodes).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the nodes the job's NPU
pods may run on could hold them all when idle, but the NPUs other pods hold now
(as the inventory saw them) leave room for fewer pods than the job starts
together.

**Why.** Volcano starts a gang only when every pod of it can be placed at once;
the job waits Pending until enough NPUs are free. A warning: it runs later,
once other jobs end (or sooner, if the snapshot is old).

**How to fix.** Nothing, if waiting is fine; otherwise run fewer or smaller
pods, or ask for the NPUs other jobs hold (``ascend-compile why`` names them
once the job is submitted).

Failing::

    replicas: 4      # 4 pods of 8 NPUs; 2 of the 4 nodes are busy

Passing::

    replicas: 2
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..rule import Problem
from ._cluster import gangs, nodes_summary, pods_room, selector_of

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, resource, npus, pods, nodes in gangs(run, obj):
        if pods_room(nodes, resource, npus, free=False) < pods:
            continue  # never fits: cluster-gang-never-fits
        room = pods_room(nodes, resource, npus, free=True)
        if room < pods:
            free = sum(max(n.free(resource), 0) for n in nodes)
            yield Problem(pod_set.role_path, f"the job starts {pods} pods of {npus} {resource} together, but the "
                          f"nodes they may run on have room for {room} now ({free} free in all; "
                          f"{nodes_summary(nodes, selector_of(pod_set), resource)}): it waits until other jobs end")
