"""The job's Volcano queue is not Open in the cluster (a cluster-aware rule: only with an inventory).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the queue the job names
exists but its state is ``Closed`` or ``Closing`` (or ``Unknown``).

**Why.** Volcano's admission accepts jobs and PodGroups only into an Open
queue ("can only submit job to queue with state Open"): a Volcano Job is
refused when it is created; an AscendJob is accepted by the operator, but the
PodGroup it makes is refused, so no pod is ever created.

**How to fix.** Use an Open queue (the message lists them), or have the
queue opened (``vcctl queue operate --action open``).

Failing::

    spec:
      queue: maintenance      # state Closed

Passing::

    spec:
      queue: default          # state Open
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, VC, VCJ
from ..rule import Problem
from ._cluster import inventory, names
from ._queues import queue_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "can only submit job to queue with state `Open`, queue `%s` status is `%s`")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.queues is None:
        return
    found = inv.queues.get(obj.queue())
    if found is not None and not found.open:
        open_ones = [q.name for q in inv.queues.values() if q.open]
        yield Problem(queue_path(obj), f"queue {found.name!r} is {found.state} in the cluster (open queues: "
                      f"{names(open_ones)}): Volcano admits no job or PodGroup into it")
