"""A job annotation sits on a Deployment's (StatefulSet's, ...) own metadata, where the scheduler never reads it.

**What.** The Ascend plugin reads a job's ``sp-block``, ``ra-block``, ``sp-fit``,
``huawei.com/schedule_minAvailable``, ``huawei.com/recover_policy_path``,
``huawei.com/infer_service_schedule`` and ``huawei.com/affinity-config`` from its PodGroup,
or else from one of its pods. For a Deployment, StatefulSet, DaemonSet, ReplicaSet or
batch Job they belong in the pod template's annotations, not the object's own.
(``huawei.com/schedule_policy`` is AC307's: without it a ``huawei.com/npu`` job has no handler.)

**Why.** Kubernetes' controllers copy only the pod template onto the pods, and the PodGroup
Volcano makes for them takes only the owner's ``volcano.sh/`` annotations, so the plugin never
sees these keys: the job runs as if they were not set (``sp-block`` defaults to the job's NPUs,
no rack block, no affinity levels), very likely not as meant. A warning. Shown on the simulated
cluster for the policy (``tests/simcluster/test_owner_annotations.py``).

**How to fix.** Move the annotation to ``spec.template.metadata.annotations``.

Failing::

    kind: Deployment
    metadata:
      annotations: {sp-block: "8"}

Passing::

    kind: Deployment
    spec:
      template:
        metadata:
          annotations: {sp-block: "8"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL, Place, VC
from ...releases import PLUGIN_STACKS
from ...vocabulary import POD_GROUP_ANNOTATIONS, SCHEDULE_POLICY_ANNOTATION
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("getJobAnnotationFromJobInfo", PL + "plugin/job.go", MC,
                    also=(Place("inheritUpperAnnotations", "pkg/controllers/podgroup/pg_controller_handler.go", VC),))

_KEYS = tuple(key for key in POD_GROUP_ANNOTATIONS if key != SCHEDULE_POLICY_ANNOTATION)  # AC307 reports the policy


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.annotations:
        return
    for key in _KEYS:
        where = obj.unread_annotation(key)
        if where is not None:
            yield Problem(where, f"{key} is on the {obj.kind}'s own metadata, which Volcano does not pass to the "
                                 "pods' PodGroup (it passes volcano.sh/ annotations only): the scheduler never sees it",
                          key=True)
