"""The job's pods, which start together, need more nodes than the cluster has even when idle.

**What.** With ``--cluster`` or ``--cluster-snapshot``: the pods the job's pod
group must place together (gang scheduling) are more than the nodes they may
run on could hold even if nothing else ran, e.g. 8 pods of 8 NPUs on a cluster
with 4 such nodes. The pod group asks for its ``minAvailable`` pods: every pod
unless the job sets fewer (an AscendJob's ``schedulingPolicy.minAvailable``, a
Volcano Job's ``minAvailable``, or its tasks' ``minAvailable``); with fewer,
any pods of the job will do, the ones the nodes take most easily counted first.

**Why.** Volcano starts a gang only when that many of its pods can be placed
at once (and, unless ``minAvailable`` is below the sum of the tasks' minimums,
that many of each task); a gang larger than the cluster stays Pending for ever
("not enough resources"). The message says how many pods the nodes could take.

**How to fix.** Run fewer pods (or fewer NPUs per pod where the profile allows),
or run the job on a larger cluster.

Failing::

    replicas: 8          # 8 pods of 8 NPUs; the cluster has 4 module-910b-8 nodes

Passing::

    replicas: 4
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, VC
from ..rule import Problem
from ._cluster import gang_need, gang_text, nodes_summary, placeable, pods_room

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("OnSessionClose", "pkg/scheduler/plugins/gang/gang.go", VC,
                    "%v/%v tasks in gang unschedulable: %v")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    need = gang_need(run, obj)
    if need is None:
        return
    short = False
    for gang in need.groups:
        room = pods_room(gang.nodes, gang.resource, gang.npus, free=False)
        if room < gang.least:
            short = True
            yield Problem(gang.pod_set.role_path, f"the job starts {gang.least} pods of {gang.npus} {gang.resource} "
                          f"together, but even idle the nodes they may run on take {room} "
                          f"({nodes_summary(gang.nodes, gang.pod_set, gang.resource)}): it is never placed")
    if short or not need.complete or need.least > need.pods:
        return  # a group short of its own minimum (above), a pod no node takes (AC903, AC905), minAvailable too large
    most = placeable(need, free=False)
    if most < need.least:
        yield Problem(need.path, f"the job's pod group starts {need.least} of its {need.pods} pods together "
                      f"(minAvailable), but even idle the nodes hold at most {most} of them ({gang_text(need, False)}): "
                      "it is never placed")
