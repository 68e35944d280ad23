"""A Volcano Job's ``minAvailable`` is negative or larger than its total replicas.

**What.** ``spec.minAvailable`` must be ≥ 0 and ≤ the sum of the tasks'
``replicas``. (MindCluster samples use exactly the number of pods, so the
gang starts only when every pod fits.)

**Why.** Volcano's admission webhook rejects the job when ``minAvailable`` is
negative or greater than the sum of the tasks' replicas. Without the webhook
(MindCluster's own install has none) a job asking for more pods than it has is
admitted, and its PodGroup never gathers them: it stays Pending forever. Either
way the job never runs.

**How to fix.** Set ``minAvailable`` to the number of pods of the job.

Failing::

    spec:
      minAvailable: 3
      tasks:
      - name: worker
        replicas: 2

Passing::

    spec:
      minAvailable: 2
      tasks:
      - name: worker
        replicas: 2
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, NO_WEBHOOK, Place, VC, VC19, VCJ
from ...manifest.values import as_int
from ...findings import ERROR
from ..rule import Problem
from ._release import webhook_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "job 'minAvailable' should not be greater than total replicas in tasks;",
                    also=(*NO_WEBHOOK, Place("validateJobCreate", VCJ, VC19), Place("", "pkg/controllers/job/job_controller_actions.go (PodGroup minMember)", VC19),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    value = as_int(obj.spec.get("minAvailable"))
    if value is None:
        return
    path = ("spec", "minAvailable")
    if value < 0:
        yield Problem(path, f"job minAvailable must be >= 0, not {value}")
        return
    tasks = obj.pod_sets()  # a Volcano Job's pod sets are its tasks, each with its replicas (0 when unreadable)
    if not tasks:
        return  # AC403
    total = sum(max(task.replicas, 0) for task in tasks)
    if value > total:
        what, _ = webhook_refusal(run, "the job is admitted and its PodGroup can never gather that many pods: it "
                                       "stays Pending forever", ERROR)
        yield Problem(path, f"job minAvailable {value} is greater than the {total} replicas of its tasks: {what}")
