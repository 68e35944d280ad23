"""A job with ``fault-retry-times`` whose pods restart in place, so the retry never starts.

**What.** When a job is labelled ``fault-retry-times`` (more than 0), every
AscendJob replica's ``restartPolicy`` (or, where the replica has none, its pod
template's) and every Volcano Job pod template's ``restartPolicy`` must be
``Never``.

A job that carries ``huawei.com/schedule_policy`` is not reported: that
annotation is read from MindCluster 26.1 only, and there the pairing works (see
below); upstream's MindIE server samples for 26.x pair ``restartPolicy: Always``
with ``fault-retry-times``.

**Why.** The retry is the Ascend plugin's: it restarts the job when it sees a
failed task. What it counts as failed depends on the release:

- before MindCluster 26.0 (up to 7.x), a pod in phase Failed only, which with
  ``OnFailure`` or ``Always`` never comes (the kubelet restarts the container in
  place), so the job is never retried;
- from 26.0, also a container whose last run ended with a non-zero exit code: the
  plugin restarts the whole job, on top of the kubelet's restart of that
  container.

Upstream's YAML reference requires ``Never`` with ``fault-retry-times`` (its
``restartPolicy`` rows). The job runs on every release; before 26.0 its failures
are not retried, from 26.0 a failed container is restarted twice over (in place,
then with the whole job): |severity|.

**How to fix.** Set ``restartPolicy: Never`` (an AscendJob replica's default).

Failing::

    metadata:
      labels: {fault-scheduling: force, fault-retry-times: "3"}
    spec:
      tasks:
      - template:
          spec:
            restartPolicy: OnFailure

Passing::

    metadata:
      labels: {fault-scheduling: force, fault-retry-times: "3"}
    spec:
      tasks:
      - template:
          spec:
            restartPolicy: Never
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Tuple

from ...vocabulary import ASCEND_JOB
from ..rule import Problem
from ._resilience import retry_times

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

NEVER = "Never"
#: Kubernetes' default for a pod template without restartPolicy
POD_DEFAULT = "Always"


def _policies(obj: ObjectContext) -> Iterator[Tuple[Path, Any, bool]]:
    """(where, restartPolicy in effect, whether it is written) of each pod set."""
    for pod_set in obj.pod_sets():
        if obj.kind == ASCEND_JOB:
            replica = obj.spec.get("replicaSpecs", {}).get(pod_set.role, {})
            if isinstance(replica, dict) and "restartPolicy" in replica:
                yield pod_set.role_path + ("restartPolicy",), replica.get("restartPolicy"), True
            else:  # the operator's default for the replica
                yield pod_set.role_path, NEVER, False
        elif "restartPolicy" in pod_set.spec:
            yield pod_set.spec_path + ("restartPolicy",), pod_set.spec.get("restartPolicy"), True
        else:
            yield pod_set.spec_path, POD_DEFAULT, False


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if retry_times(obj) <= 0 or obj.schedule_policy:  # a 26.1+ job: the plugin restarts the whole job there
        return
    for where, policy, written in _policies(obj):
        if policy != NEVER:
            yield Problem(where, f"restartPolicy {policy} with fault-retry-times: the kubelet restarts a failed "
                                 "container in place, so before MindCluster 26.0 the pod never fails and the job is "
                                 "never retried; from 26.0 the plugin also restarts the whole job on top of it"
                                 + ("" if written else " (Kubernetes' default for a pod template)"),
                          key=not written)
