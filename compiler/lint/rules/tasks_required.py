"""A Volcano Job has no tasks.

**What.** ``spec.tasks`` must list at least one task.

**Why.** Volcano's admission webhook rejects a job without tasks.


**How to fix.** Add a task with ``name``, ``replicas`` and a pod ``template``.

Failing::

    spec:
      minAvailable: 1
      tasks: []

Passing::

    spec:
      minAvailable: 1
      tasks:
      - name: worker
        replicas: 1
        template: {...}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, VC, VCJ
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "No task specified in job spec")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not isinstance(obj.data.get("spec"), dict):
        return
    tasks = obj.spec.get("tasks")
    if tasks is None or tasks == []:
        yield Problem(("spec", "tasks"), "no task specified in the job spec: Volcano rejects the job",
                      key="tasks" in obj.spec)
