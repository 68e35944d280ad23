"""A job with ``fault-retry-times`` whose pods restart in place, on a release whose retry then never starts.

**What.** When a job asks the scheduler to retry it (``fault-retry-times``
more than 0, with ``fault-scheduling`` grace or force), every AscendJob
replica's ``restartPolicy`` and every Volcano Job pod template's
``restartPolicy`` should be ``Never`` on MindCluster v6.0.0-v7.0.RC1
(|severity|). An AscendJob replica's ``ExitCode`` is not reported: the
operator gives its pods ``Never``.

**Why.** The retry is the Ascend plugin's: it restarts the job when it sees a
failed task, and what it counts as failed depends on the release:

- up to v7.0.RC1, only a pod in phase Failed, which with ``OnFailure`` or
  ``Always`` never comes (the kubelet restarts the container in place), so the
  job is never retried; those releases also read ``fault-retry-times`` from the
  job's own labels only (a pod template's is not seen, and then there is no
  retry to lose);
- from v7.3.2, also a pod whose container's last run ended with a non-zero
  exit code: the kubelet restarts that container in place and the plugin then
  restarts the job (deletes its pods) while retries remain. That is the retry
  the label asks for, and upstream's own 26.x MindIE samples pair ``Always``
  with ``fault-retry-times``: not reported there.

On the older releases the job runs but its failures are never retried, which
the label says is not intended: |severity|. With no release named, lint judges
for the newest, where nothing is wrong, and says at info what holds on the
older ones. Upstream's YAML reference asks for ``Never`` with
``fault-retry-times`` (its ``restartPolicy`` rows).

**How to fix.** Set ``restartPolicy: Never`` (an AscendJob replica's default),
or name your release if it is v7.3.2 or newer.

Failing::

    # lint --mindcluster v7.0.RC1
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

from ...catalogue.citations import AT, Citation, MC, OP, PL, Place
from ...releases import PLUGIN_STACKS, RELEASES, span_text
from ...vocabulary import ASCEND_JOB, FAULT_RETRY_TIMES_LABEL
from ..rule import Problem
from ._release import on_releases, where_fact
from ._resilience import rescheduling_on, retry_times

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

STACKS = PLUGIN_STACKS
CITATION = Citation("getTaskHealthStateByPod", PL + "internal/rescheduling/reschedule.go", AT["v7.0.RC1"],
                    also=(Place("getTaskHealthStateByPod", PL + "internal/rescheduling/reschedule.go", AT["v6.0.0"]),
                          Place("faultRetryTimeOfJob", PL + "internal/rescheduling/job.go", AT["v7.0.RC1"]),
                          Place("isFailedTask", PL + "internal/rescheduling/job.go", AT["v7.3.2"]),
                          Place("setFaultRetryTimeOfJob", PL + "internal/rescheduling/job.go", AT["v7.3.2"]),
                          Place("isFailedTask", PL + "internal/rescheduling/job.go", AT["v26.1.0"]),
                          Place("setRestartPolicy", OP + "pod.go", AT["v26.1.0"]),
                          Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (restartPolicy)", MC)))

#: the facts this rule's per-release claim rests on through the files compiler/releases.py cites, not a release
#: cluster, and why (lint/proofs.py)
CITED_FACTS = (
    ('fault-retry-times-on-pods',
     "not shown on a release's cluster yet: the restart claim labels the job itself"),
)

NEVER = "Never"
#: Kubernetes' default for a pod template without restartPolicy
POD_DEFAULT = "Always"
#: the policies with which the kubelet restarts a failed container in place (an AscendJob's ExitCode gives Never)
IN_PLACE = ("OnFailure", "Always")


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


def retried_where(obj: ObjectContext) -> Tuple[str, ...]:
    """The supported releases on which the plugin would retry the job: fault-scheduling grace or force and a
    fault-retry-times above 0 where that release reads it (its pods' labels only from the releases that read them)."""
    if retry_times(obj) <= 0 or not rescheduling_on(obj):
        return ()
    if FAULT_RETRY_TIMES_LABEL in obj.labels:
        return RELEASES
    return where_fact("fault-retry-times-on-pods")


def lost_where(obj: ObjectContext) -> Tuple[str, ...]:
    """The releases on which restarting in place loses the job's retry: it is retried there, and a container's
    non-zero exit does not count as a failure."""
    counted = where_fact("exit-code-fails-task")
    return tuple(release for release in retried_where(obj) if release not in counted)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    lost = lost_where(obj)
    said = on_releases(run, lost)
    if said is None:
        return
    severity, before, after = said
    whose = "their plugin" if before else \
        f"the plugin of MindCluster {run.target.release if run.target.given else span_text(lost)}"
    for where, policy, written in _policies(obj):
        if policy not in IN_PLACE:
            continue
        default = "" if written else " (Kubernetes' default for a pod template)"
        yield Problem(where, f"{before}restartPolicy {policy}{default} with fault-retry-times: the kubelet restarts "
                             f"a failed container in place, so the pod never reaches Failed, the only failure {whose} "
                             f"counts, and the job is never retried{after}",
                      key=not written, severity=severity)
