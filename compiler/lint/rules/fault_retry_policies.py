"""A Volcano Job's ``policies`` work against its fault tolerance.

**What.** With ``fault-retry-times`` (more than 0) the job's policies must
include ``{event: PodFailed, action: Ignore}``. With ``pod-rescheduling: "on"``
and no ``fault-retry-times`` the job must have no policies.

**Why.** Upstream's YAML reference (``MC: docs/zh/scheduling/06_api/
15_yaml_configuration.md``, the ``spec.policies`` row): unconditional retry
needs ``PodFailed -> Ignore`` so that Volcano leaves failed pods to the Ascend
plugin (without it Volcano's job state machine marks the job Failed once all its
pods have failed, as they do when the training processes all crash, and the
plugin's retry never comes); Pod-level rescheduling
needs the policies removed, or a ``RestartJob`` policy restarts the whole job
instead of the faulty pod. MindCluster's Volcano build teaches the job
controller the ``Ignore`` action (``MC: component/ascend-for-volcano/build/
build.sh``) and deploys no admission webhook that would refuse it. The job
runs, but its faults are not handled as asked.

**How to fix.** Use the policies above.

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
      policies:
      - {event: PodFailed, action: Ignore}
"""
from ...vocabulary import ENABLED, POD_RESCHEDULING_LABEL
from ..context import as_list
from ..rule import Problem
from ._resilience import job_label, retry_times


def _has_ignore_on_failure(policies):
    for policy in policies:
        if not isinstance(policy, dict) or policy.get("action") != "Ignore":
            continue
        events = [policy.get("event")] + as_list(policy.get("events"))
        if "PodFailed" in events or "*" in events:
            return True
    return False


def check(obj, run):
    policies = as_list(obj.spec.get("policies"))
    where = ("spec", "policies") if "policies" in obj.spec else ("spec",)
    if retry_times(obj) > 0:
        if not _has_ignore_on_failure(policies):
            yield Problem(where, "fault-retry-times without the policy {event: PodFailed, action: Ignore}: once all "
                                 "its pods have failed Volcano marks the job Failed, and the scheduler's retry "
                                 "never comes",
                          key=True)
        return
    rescheduling, _ = job_label(obj, POD_RESCHEDULING_LABEL)
    if rescheduling == ENABLED and policies:
        yield Problem(where, "pod-rescheduling with policies: a RestartJob policy restarts the whole job instead of "
                             "rescheduling the faulty pod", key=True)
