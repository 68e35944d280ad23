"""A Volcano Job's policies break Volcano's admission rules (unknown event or action, an event twice).

**What.** In ``spec.policies`` and, separately, in each task's ``policies``:
``event`` / ``events`` must be ``*``, ``PodFailed``, ``PodEvicted``,
``PodPending``, ``Unknown``, ``TaskCompleted``, ``TaskFailed`` or
``JobUpdated``, and ``action`` one of ``AbortJob``, ``RestartJob``,
``RestartTask``, ``RestartPod``, ``TerminateJob``, ``CompleteJob``,
``ResumeJob``, or ``Ignore``; an event may appear in one policy of a list only;
``*`` stands alone; a policy names an event or an ``exitCode`` (not both,
not neither); an ``exitCode`` is not 0 and appears once.

**Why.** Volcano's admission webhook rejects the job: "invalid policy event",
"invalid policy action", "duplicate event %v  across different policy", "if
there's * here, no other policy should be here", "must not specify event and
exitCode simultaneously", "either event and exitCode should be specified", "0 is
not a valid error code", "duplicate exitCode %v", for the job's list and each
task's. The MindCluster samples use ``{event: PodEvicted, action: RestartJob}``.
``Ignore``, which upstream's YAML reference asks for with ``fault-retry-times``,
is refused by the webhook too, but MindCluster's Volcano deployments run without
one: AC408 (a warning) says what it does where.

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
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Set, Tuple

from ...catalogue.citations import Citation, Place, VC, VCJ
from ...manifest.values import as_list
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

CITATION = Citation("validatePolicies", "pkg/webhooks/admission/jobs/validate/util.go", VC,
                    "duplicate event %v  across different policy",
                    also=(Place("validateJobCreate", VCJ, VC),))

EVENTS = ("*", "PodFailed", "PodEvicted", "PodPending", "Unknown", "TaskCompleted", "TaskFailed", "JobUpdated")
ANY_EVENT = "*"
#: Volcano's actions, and MindCluster's Ignore (fault-retry-times; AC408 judges it)
ACTIONS = ("AbortJob", "RestartJob", "RestartTask", "RestartPod", "TerminateJob", "CompleteJob", "ResumeJob",
           "Ignore")


def _events(policy: Dict[str, Any], base: Path) -> List[Tuple[Path, str]]:
    """(path, event) of one policy's ``event`` and ``events``, each distinct event once (as Volcano dedupes)."""
    out: List[Tuple[Path, str]] = []
    seen: Set[str] = set()
    items = [(base + ("events", j), e) for j, e in enumerate(as_list(policy.get("events")))]
    if "event" in policy and policy.get("event") not in ("", None):
        items.append((base + ("event",), policy.get("event")))
    for path, event in items:
        if isinstance(event, str) and event not in seen:
            seen.add(event)
            out.append((path, event))
    return out


def _shape(policy: Dict[str, Any], base: Path, exit_codes: Set[int]) -> Optional[Problem]:
    """Problems of a policy that has no event: exitCode 0, twice, or neither event nor exitCode."""
    code = policy.get("exitCode")
    if code is None:
        return Problem(base, "a policy needs an event (or events) or an exitCode", key=True)
    if not isinstance(code, int):
        return None  # a type error the schema reports
    if code == 0:
        return Problem(base + ("exitCode",), "exitCode 0 is not a valid error code")
    if code in exit_codes:
        return Problem(base + ("exitCode",), f"exitCode {code} appears in two policies of this list")
    exit_codes.add(code)
    return None


def _check_policies(policies: Any, base: Path) -> Iterator[Problem]:
    seen: Dict[str, int] = {}
    exit_codes: Set[int] = set()
    for i, policy in enumerate(as_list(policies)):
        if not isinstance(policy, dict):
            continue
        here = base + (i,)
        events = _events(policy, here)
        if events and policy.get("exitCode") is not None:
            yield Problem(here + ("exitCode",), "a policy names an event and an exitCode; Volcano takes one or the other")
            continue
        if not events:
            problem = _shape(policy, here, exit_codes)
            if problem:
                yield problem
            continue
        for path, event in events:
            if event not in EVENTS:
                yield Problem(path, f"policy event {event!r} is not one of {', '.join(EVENTS)}")
            elif event in seen:
                yield Problem(path, f"event {event} is already handled by policy {seen[event]} of this list; "
                                    "Volcano allows each event in one policy only")
            else:
                seen[event] = i
        if "action" in policy and policy.get("action") not in ACTIONS:
            yield Problem(here + ("action",),
                          f"policy action {policy.get('action')!r} is not one of {', '.join(ACTIONS)}")
    if ANY_EVENT in seen and len(seen) > 1:
        yield Problem(base + (seen[ANY_EVENT],), "a policy for event * must be the only event of the list", key=True)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.spec.get("policies"):
        yield from _check_policies(obj.spec.get("policies"), ("spec", "policies"))
    for t, task in enumerate(as_list(obj.spec.get("tasks"))):
        if isinstance(task, dict) and task.get("policies"):
            yield from _check_policies(task.get("policies"), ("spec", "tasks", t, "policies"))
