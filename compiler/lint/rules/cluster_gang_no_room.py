"""The job's pods, which start together, do not fit the cluster's free NPUs now (they would on idle nodes).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the nodes the job's NPU
pods may run on could hold the pods its pod group must place together (its
``minAvailable``: every pod unless the job sets fewer) when idle, but the NPUs
other pods hold now (as the inventory saw them) leave room for fewer.

**Why.** Volcano starts a gang only when that many of its pods can be placed at once;
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

from ...catalogue.citations import Citation, VC
from ..rule import Problem
from ._cluster import free_npus, gang_need, gang_text, nodes_summary, placeable, pods_room

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
        if pods_room(gang.nodes, gang.resource, gang.npus, free=False) < gang.least:
            short = True
            continue  # never fits: cluster-gang-never-fits
        room = pods_room(gang.nodes, gang.resource, gang.npus, free=True)
        if room < gang.least:
            short = True
            free = free_npus(gang.nodes, gang.resource)
            yield Problem(gang.pod_set.role_path, f"the job starts {gang.least} pods of {gang.npus} {gang.resource} "
                          f"together, but the nodes they may run on have room for {room} now ({free} free in all; "
                          f"{nodes_summary(gang.nodes, gang.pod_set, gang.resource)}): it waits until "
                          "other jobs end")
    if short or not need.complete or need.least > need.pods or placeable(need, free=False) < need.least:
        return  # said above, or by another rule (cluster-gang-never-fits among them)
    most = placeable(need, free=True)
    if most < need.least:
        yield Problem(need.path, f"the job's pod group starts {need.least} of its {need.pods} pods together "
                      f"(minAvailable), but the nodes hold {most} of them now ({gang_text(need, True)}): it waits "
                      "until other jobs end")
