"""A job with ``fault-retry-times`` whose pods restart in place, so the retry never starts.

**What.** When a job is labelled ``fault-retry-times`` (more than 0), every
AscendJob replica's ``restartPolicy`` (or, where the replica has none, its pod
template's) and every Volcano Job pod template's ``restartPolicy`` must be
``Never``.

**Why.** The retry is the Ascend plugin's: it restarts the job when it sees a
failed task (``MC: component/ascend-for-volcano/internal/rescheduling/job.go``,
isFailedTask). Up to MindCluster 7.x that is a pod in phase Failed only, which
with ``OnFailure`` or ``Always`` never comes: the kubelet restarts the container
in place and the job is never retried. From 26.0 the plugin also takes a
restarted container as failed and restarts the whole job, on top of the
kubelet's restart of that container. Upstream's YAML reference requires
``Never`` with ``fault-retry-times`` (``MC: docs/zh/scheduling/06_api/
15_yaml_configuration.md``, the ``restartPolicy`` rows). The job runs, but its
failures are not handled as the reference describes.

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
    if retry_times(obj) <= 0:
        return
    for where, policy, written in _policies(obj):
        if policy != NEVER:
            yield Problem(where, f"restartPolicy {policy} with fault-retry-times: the kubelet restarts the container "
                                 "in place, so the pod never fails (MindCluster before 26.0 never retries the job; "
                                 "26.0 and later restart the whole job as well)"
                                 + ("" if written else " (Kubernetes' default for a pod template)"),
                          key=not written)
