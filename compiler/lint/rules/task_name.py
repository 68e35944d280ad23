"""A Volcano task name is repeated or not a DNS-1123 label, or a task depends on one the job lacks.

**What.** Task names must be unique within the job and valid DNS-1123 labels
(lower-case letters, digits and ``-``, starting and ending alphanumeric, at
most 63 characters). A task's ``dependsOn.name`` may list only other tasks of
the job, each once, and the dependencies must not go round in a circle.

**Why.** Volcano's admission webhook rejects a job whose task names repeat or
are not DNS-1123 labels; the name becomes part of pod names and (with the
``svc`` plugin) host names. Without the webhook (MindCluster's own install has
none) the job is admitted, but its pods, named ``<job>-<task>-<index>``, are not:
the API server refuses an invalid pod name, and a repeated task name repeats its
pods' names. Either way the task never runs. For ``dependsOn`` it sorts the tasks by their
dependencies, counting one for every name listed; a task that depends on a name
no task has (a typo), on itself, on a name twice, or on a circle of tasks is
never reached, and the webhook refuses the job: "job has dependencies between
tasks, but doesn't form a directed acyclic graph(DAG)".

**How to fix.** Rename the task, e.g. ``default_test`` to ``default-test``;
make ``dependsOn`` name tasks of the job (once each), with no circle.

Failing::

    tasks:
    - name: Worker_0

Passing::

    tasks:
    - name: worker-0
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Set

from ...catalogue.citations import Citation, NO_WEBHOOK, Place, VC, VC19, VCJ
from ...manifest.values import as_list
from ...vocabulary import DNS1123_LABEL
from ...findings import ERROR
from ..rule import Problem
from ._release import webhook_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateJobCreate", VCJ, VC, "duplicated task name %s;",
                    also=(*NO_WEBHOOK, Place("", "pkg/controllers/job/helpers/helpers.go (PodNameFmt)", VC19), Place("topoSort", "pkg/webhooks/admission/jobs/validate/util.go", VC),
                          Place("makeGraph", "pkg/webhooks/admission/jobs/validate/util.go", VC)))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    tasks = as_list(obj.spec.get("tasks"))
    yield from _names(tasks, run)
    if any(isinstance(task, dict) and task.get("dependsOn") is not None for task in tasks):
        names = [task.get("name") if isinstance(task, dict) else None for task in tasks]
        listed = [as_list((task.get("dependsOn") or {}).get("name")) if isinstance(task, dict)
                  and isinstance(task.get("dependsOn") or {}, dict) else [] for task in tasks]
        if all(isinstance(n, str) for n in names) and all(isinstance(n, str) for each in listed for n in each):
            yield from _depends_on(names, listed)  # other types are the schema check's


def _depends_on(names: List[Any], listed: List[List[Any]]) -> Iterator[Problem]:
    """Volcano's dependency check: every task that a topological sort of the dependsOn graph never reaches."""
    waiting = {name: 0 for name in names}
    after: Dict[str, Set[str]] = {}
    for name, firsts in zip(names, listed):
        for first in firsts:
            after.setdefault(first, set()).add(name)
            waiting[name] += 1
    ready = [name for name, count in waiting.items() if count == 0]
    done = set()
    while ready:
        name = ready.pop()
        done.add(name)
        for later in after.get(name, ()):
            waiting[later] -= 1
            if waiting[later] == 0:
                ready.append(later)
    for i, (name, firsts) in enumerate(zip(names, listed)):
        if name in done:
            continue
        unknown = [n for n in firsts if n not in waiting]
        twice = [n for n in firsts if firsts.count(n) > 1]
        why = (f"depends on {unknown[0]!r}, which is no task of the job" if unknown
               else f"lists {twice[0]!r} twice in dependsOn" if twice
               else "waits on a circle of dependsOn")
        yield Problem(("spec", "tasks", i, "dependsOn"), f"task {name!r} {why}: the tasks' dependencies do not "
                                                         "form a directed acyclic graph and Volcano rejects the job")


def _names(tasks: List[Any], run: RunContext) -> Iterator[Problem]:
    seen: Dict[str, int] = {}
    for i, task in enumerate(tasks):
        if not isinstance(task, dict) or "name" not in task:
            continue
        name = task.get("name")
        path = ("spec", "tasks", i, "name")
        if not isinstance(name, str):
            continue
        if name in seen:
            yield Problem(path, f"duplicated task name {name!r} (also task {seen[name]}): {_refused(run, TWICE)}")
            continue
        seen[name] = i
        if len(name) > 63 or not DNS1123_LABEL.match(name):
            yield Problem(path, f"task name {name!r} is not a valid DNS-1123 label: {_refused(run, INVALID)}")


#: what becomes of such a job without Volcano's admission webhook (pods are named <job>-<task>-<index>)
TWICE = "the job is admitted, and the second task's pods are never created: their names are taken"
INVALID = "the job is admitted, and the API server refuses every pod of the task (a pod name is a DNS subdomain)"


def _refused(run: RunContext, without: str) -> str:
    return webhook_refusal(run, without, ERROR)[0]
