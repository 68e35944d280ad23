"""A Volcano Job policy uses an unknown event or action.

**What.** In ``spec.policies`` and each task's ``policies``, ``event`` /
``events`` must be ``*``, ``PodFailed``, ``PodEvicted``, ``Unknown``,
``TaskCompleted``, ``TaskFailed`` or ``JobUpdated``, and ``action`` one of
``AbortJob``, ``RestartJob``, ``RestartTask``, ``TerminateJob``,
``CompleteJob``, ``ResumeJob``, or ``Ignore``.

**Why.** Volcano's admission webhook rejects invalid policies. Source:
``VC@v1.9.0: pkg/webhooks/admission/jobs/validate/util.go`` (validatePolicies).
The MindCluster samples use ``{event: PodEvicted,
action: RestartJob}``; with ``fault-retry-times`` upstream's YAML reference
requires ``{event: PodFailed, action: Ignore}``: MindCluster's Volcano build
adds the ``Ignore`` action to the job controller (``MC: component/
ascend-for-volcano/build/build.sh``) and its Volcano deployment
(``build/volcano-v*.yaml``) installs no admission webhook. A vanilla Volcano
with its webhook refuses ``Ignore``.

**How to fix.** Use a listed event and action (case matters).

Failing::

    policies:
    - event: PodEvict
      action: restartjob

Passing::

    policies:
    - event: PodEvicted
      action: RestartJob
"""
from ..context import as_list
from ..rule import Problem

EVENTS = ("*", "PodFailed", "PodEvicted", "Unknown", "TaskCompleted", "TaskFailed", "JobUpdated")
#: Volcano's actions, and MindCluster's Ignore (fault-retry-times)
ACTIONS = ("AbortJob", "RestartJob", "RestartTask", "TerminateJob", "CompleteJob", "ResumeJob", "Ignore")


def _check_policies(policies, base):
    for i, policy in enumerate(as_list(policies)):
        if not isinstance(policy, dict):
            continue
        events = []
        if "event" in policy:
            events.append((base + (i, "event"), policy.get("event")))
        for j, event in enumerate(as_list(policy.get("events"))):
            events.append((base + (i, "events", j), event))
        for path, event in events:
            if event not in EVENTS:
                yield Problem(path, f"policy event {event!r} is not one of {', '.join(EVENTS)}")
        if "action" in policy and policy.get("action") not in ACTIONS:
            yield Problem(base + (i, "action"),
                          f"policy action {policy.get('action')!r} is not one of {', '.join(ACTIONS)}")


def check(obj, run):
    yield from _check_policies(obj.spec.get("policies"), ("spec", "policies"))
    for t, task in enumerate(as_list(obj.spec.get("tasks"))):
        if isinstance(task, dict):
            yield from _check_policies(task.get("policies"), ("spec", "tasks", t, "policies"))
