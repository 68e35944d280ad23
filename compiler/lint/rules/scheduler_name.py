"""A job or pod template names a scheduler other than ``volcano``.

**What.** ``spec.schedulerName`` of an AscendJob or Volcano Job, and
``schedulerName`` in any pod template, is ``volcano`` or left out.

**Why.** Only Volcano's scheduler runs the Ascend plugin that picks the NPUs
(and writes the device annotation the device plugin and
``ASCEND_VISIBLE_DEVICES`` read). Upstream keeps another name as written: the
operator only records an event saying it keeps the other scheduler, and
Volcano's job controller copies it into the pods, so Volcano never places them
and the job stays Pending (the simulated cluster runs no other scheduler; a real
default scheduler would place them without NPU devices).

An AscendJob's pod templates go together: ascend-operator fills in ``volcano``
for a template without a ``schedulerName`` only when *no* template of the job
names one (it takes the first name it finds, and then writes none). A job whose
Master says ``schedulerName: volcano`` while its Worker leaves it out gets
Worker pods with Kubernetes' default scheduler: they stay Pending and the gang
never fills (the simulated cluster shows "1 Pending, 2 minAvailable"). The job's
own ``spec.schedulerName`` does not help. A Volcano Job has no such trap: its
job controller gives a template without a name the job's.

**How to fix.** Use ``schedulerName: volcano`` or leave it out (both
default to Volcano); in an AscendJob, in every pod template or in none.

Failing::

    spec:
      schedulerName: default-scheduler

    replicaSpecs:
      Master: {template: {spec: {schedulerName: volcano, ...}}}
      Worker: {template: {spec: {containers: ...}}}

Passing::

    spec:
      schedulerName: volcano
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, OP, Place, VC
from ...vocabulary import ASCEND_JOB, SCHEDULER_NAME
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("setGangScheduleInfo", OP + "pod.go", MC,
                    "Another job scheduler is specified when gang-scheduling is enabled and it will not be overwritten",
                    also=(Place("createJobPod", "pkg/controllers/job/job_controller_util.go", VC),
                          Place("getSchedulerName", OP + "utils.go", MC)))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    value = obj.spec.get("schedulerName")
    if isinstance(value, str) and value and value != SCHEDULER_NAME:
        yield Problem(("spec", "schedulerName"), f"schedulerName {value!r}: only {SCHEDULER_NAME} places NPU pods; "
                                                 "the pods stay Pending")
    named, unnamed = None, []
    for pod_set in obj.pod_sets():
        value = pod_set.spec.get("schedulerName")
        if not isinstance(value, str) or not value:
            unnamed.append(pod_set)
            continue
        named = named or pod_set
        if value != SCHEDULER_NAME:
            yield Problem(pod_set.spec_path + ("schedulerName",),
                          f"the {pod_set.role} pods name scheduler {value!r}: only {SCHEDULER_NAME} places NPU pods; "
                          "they stay Pending")
    if named is None or obj.kind != ASCEND_JOB:
        return
    for pod_set in unnamed:
        if pod_set.replicas > 0:
            yield Problem(pod_set.spec_path + ("schedulerName",),
                          f"the {pod_set.role} pod template names no scheduler while the {named.role} template "
                          f"names one: ascend-operator then fills in none, so the {pod_set.role} pods get the "
                          "default scheduler and stay Pending",
                          hint=f"set schedulerName: {SCHEDULER_NAME} in every pod template, or in none")
