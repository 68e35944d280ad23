"""A Volcano task has negative ``replicas`` or a ``minAvailable`` above its replicas.

**What.** Each task's ``replicas`` must be ≥ 0 and its ``minAvailable`` (if
set) ≤ ``replicas``.

**Why.** Volcano's admission webhook rejects a task with negative ``replicas``
or a ``minAvailable`` above its ``replicas``.

**How to fix.** Make ``minAvailable`` at most ``replicas``, or leave it out (it
defaults to ``replicas``).

Failing::

    tasks:
    - name: worker
      replicas: 2
      minAvailable: 3

Passing::

    tasks:
    - name: worker
      replicas: 2
      minAvailable: 2
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, VC, VCJ
from ...manifest.values import as_int, as_list
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "'replicas' < 0 in task: %s, job: %s;")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for i, task in enumerate(as_list(obj.spec.get("tasks"))):
        if not isinstance(task, dict):
            continue
        name = task.get("name", f"#{i}")
        replicas = as_int(task.get("replicas"))
        if replicas is not None and replicas < 0:
            yield Problem(("spec", "tasks", i, "replicas"), f"'replicas' < 0 in task {name} ({replicas})")
            continue
        minimum = as_int(task.get("minAvailable"))
        if minimum is not None and replicas is not None and minimum > replicas:
            yield Problem(("spec", "tasks", i, "minAvailable"),
                          f"task {name}: minAvailable {minimum} is greater than its replicas {replicas}")
