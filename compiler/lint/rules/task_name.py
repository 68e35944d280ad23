"""A Volcano task name is repeated or not a DNS-1123 label.

**What.** Task names must be unique within the job and valid DNS-1123 labels
(lower-case letters, digits and ``-``, starting and ending alphanumeric, at
most 63 characters).

**Why.** Volcano's admission webhook rejects the job: "duplicated task name
%s;" and the DNS-1123 message for the task name; the name becomes part of pod
names and (with the ``svc`` plugin) host names. Source:
``VC@v1.9.0: pkg/webhooks/admission/jobs/validate/admit_job.go``

**How to fix.** Rename the task, e.g. ``default_test`` to ``default-test``.

Failing::

    tasks:
    - name: Worker_0

Passing::

    tasks:
    - name: worker-0
"""
from ..context import as_list
from ...vocabulary import DNS1123_LABEL
from ..rule import Problem


def check(obj, run):
    seen = {}
    for i, task in enumerate(as_list(obj.spec.get("tasks"))):
        if not isinstance(task, dict) or "name" not in task:
            continue
        name = task.get("name")
        path = ("spec", "tasks", i, "name")
        if not isinstance(name, str):
            continue
        if name in seen:
            yield Problem(path, f"duplicated task name {name!r} (also task {seen[name]})")
            continue
        seen[name] = i
        if len(name) > 63 or not DNS1123_LABEL.match(name):
            yield Problem(path, f"task name {name!r} is not a valid DNS-1123 label")
