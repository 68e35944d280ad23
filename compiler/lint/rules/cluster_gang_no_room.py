"""The job's pods, which start together, do not fit the cluster's free NPUs now (they would on idle nodes).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the nodes the job's NPU
pods may run on could hold the pods its pod group must place together (its
``minAvailable``: every pod unless the job sets fewer) when idle, but the NPUs
other pods hold now (as the inventory saw them) leave room for fewer.

**Why.** Volcano starts a gang only when that many of its pods can be placed at once;
the job waits Pending until enough NPUs are free. A warning against the live
cluster (``--cluster``): it runs later, once other jobs end. From a snapshot the
NPUs in use are those of the time it was taken (``cluster snapshot --usage``
records it), which says little about when the job is applied: the finding is
info, naming that time, so it never fails a ``failOn: warning`` build; a
snapshot of capacity only (the default) records no NPUs in use and this rule
says nothing.

**How to fix.** Nothing, if waiting is fine; otherwise run fewer or smaller
pods, or ask for the NPUs other jobs hold (``ascend-compile why`` names them
once the job is submitted).

Failing::

    replicas: 4      # 4 pods of 8 NPUs; 2 of the 4 nodes are busy

Passing::

    replicas: 2
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import Citation, VC
from ...findings import INFO
from ...inventory.model import LIVE, UNTIMED
from ..rule import Problem
from ._cluster import free_npus, gang_need, gang_text, inventory, nodes_summary, placeable, pods_room

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("OnSessionClose", "pkg/scheduler/plugins/gang/gang.go", VC,
                    "%v/%v tasks in gang unschedulable: %v")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    usage: Optional[str] = getattr(inventory(run), "usage", None)
    need = gang_need(run, obj) if usage is not None else None
    if need is None or usage is None:
        return
    severity = None if usage == LIVE else INFO
    for problem in _short(need, _when(usage)):
        yield problem._replace(severity=severity)


def _when(usage: str) -> str:
    """When the NPUs in use were read, as a message says it."""
    if usage == LIVE:
        return "now"
    return "when the snapshot was taken, at a time it does not record" if usage == UNTIMED else \
        f"at {usage}, when the snapshot was taken"


def _short(need: Any, when: str) -> Iterator[Problem]:
    """The pods that the NPUs free ``when`` the inventory read them leave no room for."""
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
                          f"together, but the nodes they may run on have room for {room} {when} ({free} free in all; "
                          f"{nodes_summary(gang.nodes, gang.pod_set, gang.resource)}): it waits until "
                          "other jobs end")
    if short or not need.complete or need.least > need.pods or placeable(need, free=False) < need.least:
        return  # said above, or by another rule (cluster-gang-never-fits among them)
    most = placeable(need, free=True)
    if most < need.least:
        yield Problem(need.path, f"the job's pod group starts {need.least} of its {need.pods} pods together "
                      f"(minAvailable), but the nodes hold {most} of them {when} ({gang_text(need, True)}): it waits "
                      "until other jobs end")
