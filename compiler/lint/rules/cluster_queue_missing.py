"""The job's Volcano queue does not exist in the cluster (a cluster-aware rule: only with an inventory).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the queue the job names
(an AscendJob's ``spec.runPolicy.schedulingPolicy.queue``, a Volcano Job's
``spec.queue``; ``default`` when it names none) is not among the cluster's
Volcano queues.

**Why.** ascend-operator looks the queue up before it creates anything and
refuses the AscendJob ("check queue<...> failed ... maybe it is not create",
reason ``InvalidQueue``); Volcano's job admission refuses a Volcano Job whose
queue does not exist. The simulated cluster shows both. Offline, lint cannot
know which queues exist, so this rule runs only against a cluster inventory.

**How to fix.** Use a queue the cluster has (the message lists them), or ask
the cluster's administrator to create it.

Failing::

    spec:
      runPolicy:
        schedulingPolicy: {queue: research}   # the cluster has: default

Passing::

    spec:
      runPolicy:
        schedulingPolicy: {queue: default}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, VAL
from ..rule import Problem
from ._cluster import inventory, names
from ._queues import queue_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateBasicInfo", VAL, MC, "check queue<%s> failed, err: %v, maybe it is not create")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.queues is None:
        return
    queue = obj.queue()
    if queue not in inv.queues:
        yield Problem(queue_path(obj), f"queue {queue!r} does not exist in the cluster (its queues: "
                      f"{names(list(inv.queues))}): the job is refused at submission")
