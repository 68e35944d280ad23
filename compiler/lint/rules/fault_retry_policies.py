"""A Volcano Job's ``policies`` work against its fault tolerance.

**What.** Three findings. The action ``Ignore``, in any policy of the job or
of a task. With ``fault-retry-times`` (more than 0): a policy that restarts or
ends the job on a pod's failure or deletion (``RestartJob``, ``RestartTask``,
``RestartPod``, ``AbortJob``, ``TerminateJob`` or ``CompleteJob`` on
``PodFailed``, ``PodEvicted``, ``*`` or an ``exitCode``). With
``pod-rescheduling: "on"`` and no ``fault-retry-times``: any job policies.

**Why.** The Ascend plugin retries a job whose pod failed by deleting the job's
pods; Volcano, with no policy for the deletions (``PodEvicted``), makes new pods
and leaves its ``retryCount`` alone. A ``RestartJob`` on ``PodEvicted`` turns
each such retry into a Volcano restart as well, and one on ``PodFailed``
restarts the job before the plugin sees the failed pod: either way every restart
counts against ``maxRetry``, and the job fails at the restart that reaches it,
whatever ``fault-retry-times`` allows. ``AbortJob``, ``TerminateJob`` and
``CompleteJob`` end the job instead of retrying it. Shown on the simulated
cluster (``fault-retry-times: "2"``, one pod failed): without policies the
plugin retried the job (new pods, ``retryCount`` 0); with ``maxRetry: 1`` and
``RestartJob`` on ``PodEvicted`` or ``PodFailed`` the job was Failed at that
first failure, with ``TerminateJob`` on ``PodFailed`` Terminated. ``Ignore`` is
what upstream's YAML reference (row ``spec.policies``) asks for with
``fault-retry-times``, but it is no Volcano action: Volcano's admission webhook
refuses the job ("invalid policy action"). MindCluster's Volcano deployments
install no webhook and its build edits the job controller to do nothing on
``Ignore``; the edit matches the job controller of Volcano v1.9 only, so on
MindCluster's Volcano v1.12 and v1.15 ``Ignore`` is the same as no policy. On
v1.9, by its code, it keeps a job whose pods all fail at once from being marked
Failed by Volcano; elsewhere such a job is Failed (Volcano deletes its PodGroup)
and the plugin's retry never comes, with or without ``Ignore``. A job with
Pod-level rescheduling needs no policies: a ``RestartJob`` policy restarts the
whole job instead of rescheduling the faulty pod (upstream's YAML reference).

**How to fix.** Remove the policies named. Keep ``Ignore`` only on a cluster
that runs MindCluster's Volcano v1.9: lint with ``--volcano-version 1.9`` and
``Ignore`` is not reported (the other findings are).

Failing::

    metadata:
      labels: {fault-scheduling: force, fault-retry-times: "3"}
    spec:
      policies:
      - {event: PodEvicted, action: RestartJob}

Passing::

    metadata:
      labels: {fault-scheduling: force, fault-retry-times: "3"}
    spec:
      tasks: ...   # no policies
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Tuple

from ...catalogue.citations import Citation, MC, Place, VC
from ...vocabulary import ENABLED, POD_RESCHEDULING_LABEL
from ...manifest.values import as_list
from ..rule import Problem
from ._resilience import job_label, retry_times

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

CITATION = Citation("Execute", "pkg/controllers/job/state/running.go", VC,
                    also=(Place("", "pkg/controllers/job/state/restarting.go", VC),
                          Place("", "component/ascend-for-volcano/internal/rescheduling", MC),
                          Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (spec.policies)", MC),
                          Place("", "component/ascend-for-volcano/build/build.sh and volcano-v*.yaml", MC)))

IGNORE = "Ignore"
#: the ``--volcano-version`` releases whose MindCluster build acts on Ignore (its patch of Volcano's running-job
#: state applies to these releases only)
IGNORE_ACTED_ON = ("1.9",)
#: the events on which Volcano sees a pod fail or be deleted (the plugin's retry deletes the job's pods)
FAILURE_EVENTS = ("PodFailed", "PodEvicted", "*")
RESTARTS = ("RestartJob", "RestartTask", "RestartPod")
ENDS = ("AbortJob", "TerminateJob", "CompleteJob")

IGNORE_MESSAGE = ("policy action Ignore is not a Volcano action: Volcano's admission webhook refuses the job, and "
                  "MindCluster's Volcano v1.12 and v1.15 builds take it as no policy; only its Volcano v1.9 build "
                  "acts on it (a job whose pods all fail at once is left to the Ascend plugin's retry instead of "
                  "being failed)")
IGNORE_HINT = ("remove the policy (the Ascend plugin retries failed pods without it); keep it only on MindCluster's "
               "Volcano v1.9, and lint with --volcano-version 1.9 there")


def _policy_lists(obj: ObjectContext) -> Iterator[Tuple[Path, List[Any]]]:
    yield ("spec", "policies"), as_list(obj.spec.get("policies"))
    for t, task in enumerate(as_list(obj.spec.get("tasks"))):
        if isinstance(task, dict):
            yield ("spec", "tasks", t, "policies"), as_list(task.get("policies"))


def _failure_triggers(policy: Dict[str, Any]) -> List[str]:
    """What makes Volcano run the policy's action on a failed or deleted pod: its events, or its exitCode."""
    events = [policy.get("event")] + as_list(policy.get("events"))
    out = [e for e in FAILURE_EVENTS if e in events]
    if isinstance(policy.get("exitCode"), int) and not isinstance(policy.get("exitCode"), bool):
        out.append(f"exitCode {policy['exitCode']}")
    return out


def _against_retry(action: Any, triggers: List[str], max_retry: Any) -> str:
    on = f"{action} on {', '.join(triggers)} with fault-retry-times: "
    if action in ENDS:
        return on + "Volcano ends the job when a pod fails or the Ascend plugin deletes its pods to retry it"
    return on + (f"Volcano restarts the job itself at each failure and counts the restarts against maxRetry "
                 f"({max_retry}): the job fails when they reach it, whatever fault-retry-times allows")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    retry = retry_times(obj) > 0
    ignore_works = run.volcano_version in IGNORE_ACTED_ON
    max_retry = obj.spec.get("maxRetry", 3)
    for base, policies in _policy_lists(obj):
        for i, policy in enumerate(policies):
            if not isinstance(policy, dict):
                continue
            action = policy.get("action")
            where = base + (i, "action") if "action" in policy else base + (i,)
            if action == IGNORE:
                if not ignore_works:
                    yield Problem(where, IGNORE_MESSAGE, IGNORE_HINT)
            elif retry and action in RESTARTS + ENDS and _failure_triggers(policy):
                yield Problem(where, _against_retry(action, _failure_triggers(policy), max_retry),
                              "remove the policy: with fault-retry-times the Ascend plugin retries the job, and "
                              "Volcano needs no policy for it")
    if retry:
        return
    if as_list(obj.spec.get("policies")) and job_label(obj, POD_RESCHEDULING_LABEL)[0] == ENABLED:
        where = ("spec", "policies")
        yield Problem(where, "pod-rescheduling with policies: a RestartJob policy restarts the whole job instead of "
                             "rescheduling the faulty pod", key=True)
