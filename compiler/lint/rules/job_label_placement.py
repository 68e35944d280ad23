"""A job label (``fault-scheduling``, ``pod-rescheduling``, ...) sits where the scheduler never reads it.

**What.** The Ascend plugin reads a job's ``fault-scheduling``, ``fault-retry-times``,
``pod-rescheduling``, ``subHealthyStrategy``, ``elastic-scheduling``, ``tor-affinity`` and
``huawei.com/scheduler.softShareDev.*`` from the labels of the job's PodGroup and of its pods.
They belong in the ``metadata.labels`` of the AscendJob or Volcano Job (or of a pod template).
Reported where one sits:

- on another object: a ConfigMap (the job's ``rings-config-<job>``, say), a Service, ...,
  unless the job named by a ``rings-config-<job>`` / ``reset-config-<job>`` ConfigMap has the
  same label itself (then the copy is only dead weight);
- on a Deployment's, StatefulSet's, ReplicaSet's, DaemonSet's or batch Job's own
  ``metadata.labels`` and not on its pod template's, and likewise on another kind with pod
  templates (a RayCluster, a LeaderWorkerSet, ...: ``podtemplates.py``).

(A job label written among the job's annotations is AC313's and AC309's.)

**Why.** Volcano and the operator copy only the job's own labels onto its PodGroup, the
PodGroup Volcano makes for a Deployment's pods takes none of the Deployment's labels, and the
plugin merges the PodGroup's labels and the pods'. Elsewhere the label does nothing: fault
rescheduling, retries or the affinity it asks for are silently off, very likely not as meant:
a warning.

**How to fix.** Move the label to the job's ``metadata.labels`` (a Deployment's: to
``spec.template.metadata.labels``).

Failing::

    kind: ConfigMap
    metadata:
      name: rings-config-mindx-dls-test
      labels: {ring-controller.atlas: ascend-910, fault-scheduling: "force"}

Passing::

    kind: Job
    metadata:
      name: mindx-dls-test
      labels: {ring-controller.atlas: ascend-910, fault-scheduling: "force"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import Citation, MC, OP, PL, Place, VC
from ...findings import format_path
from ...releases import PLUGIN_STACKS
from ...vocabulary import (JOB_LABELS, JOBS, POD_CONTROLLERS, RANKTABLE_CONFIGMAP_PREFIX, RESET_CONFIGMAP_PREFIX,
                           TEMPLATED, WORKLOADS)
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef

STACKS = PLUGIN_STACKS
CITATION = Citation("getJobLabelFromVcJob", PL + "plugin/job.go", MC,
                    also=(Place("", PL + "internal/rescheduling/type.go (the label keys)", MC),
                          Place("createOrUpdatePodGroup", "pkg/controllers/job/job_controller_actions.go", VC),
                          Place("", "pkg/controllers/podgroup/pg_controller_handler.go", VC),
                          Place("createPodGroup", OP + "job.go", MC)))

_POD_GROUP = "PodGroup"  # its labels are what the plugin reads
_JOB_CONFIG_MAPS = (RANKTABLE_CONFIGMAP_PREFIX, RESET_CONFIGMAP_PREFIX)


def facts(obj: ObjectContext) -> Any:
    """(where, key, what) of each job label out of place: what is "object" or "owner"; None if none."""
    owner = obj.kind in POD_CONTROLLERS or obj.rule_kind == TEMPLATED  # its pods are made by a controller
    if obj.kind in WORKLOADS or owner:
        if not owner or not obj.labels:
            return None
        read = {key for _, labels in obj.label_holders() for key in labels}
        pods = obj.pod_sets()
        labels_at = format_path(pods[0].spec_path[:-1] + ("metadata", "labels")) if pods else "its pod templates"
        found = [(("metadata", "labels", key), key, "owner", labels_at) for key in JOB_LABELS
                 if key in obj.labels and key not in read]
    elif obj.kind != _POD_GROUP and obj.labels:
        found = [(("metadata", "labels", key), key, "object", "") for key in JOB_LABELS if key in obj.labels]
    else:
        return None
    return found or None


def _job_of(ref: ObjectRef) -> Optional[str]:
    """The job a ``rings-config-<job>`` or ``reset-config-<job>`` ConfigMap belongs to."""
    for prefix in _JOB_CONFIG_MAPS:
        if ref.name.startswith(prefix) and len(ref.name) > len(prefix):
            return ref.name[len(prefix):]
    return None


def judge(ref: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    job = _job_of(ref)
    jobs = run.find_any(JOBS, job, ref.namespace, near=ref) if job else []
    for where, key, what, labels_at in fact:
        if what == "object":
            if any(key in other.labels for other in jobs):
                continue  # the job has it: the copy here changes nothing
            whose = f"job {job}'s" if jobs else "the job's"
            yield Problem(where, f"{key} is a label of the job: the scheduler reads it from the job's PodGroup and "
                                 f"its pods, never from a {ref.kind}, so here it does nothing; put it on {whose} "
                                 "metadata.labels", key=True)
        else:
            yield Problem(where, f"{key} is on the {ref.kind}'s own labels, which no PodGroup gets (Volcano's PodGroup "
                                 f"for its pods takes none of them): the scheduler never sees it; put it on {labels_at}",
                          key=True)
