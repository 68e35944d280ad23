"""A job or pod template names a scheduler other than ``volcano``.

**What.** ``spec.schedulerName`` of an AscendJob or Volcano Job, and
``schedulerName`` in any pod template, is ``volcano`` or left out.

**Why.** Only Volcano's scheduler runs the Ascend plugin that picks the NPUs
(and writes the device annotation the device plugin and
``ASCEND_VISIBLE_DEVICES`` read). Upstream keeps another name as written: the
operator only records the event "Another job scheduler is specified when
gang-scheduling is enabled and it will not be overwritten" (or "Another
scheduler is specified ...") and Volcano's job controller copies it into the
pods, so Volcano never places them and the job stays Pending (the simulated
cluster runs no other scheduler; a real default scheduler would place them
without NPU devices). Source: ``setGangScheduleInfo`` in
``component/ascend-operator/pkg/controllers/v1/pod.go`` (mind-cluster
``22bb3d98``); ``createJobPod`` in ``pkg/controllers/job/job_controller_util.go``
(Volcano ``v1.12.0``).

**How to fix.** Use ``schedulerName: volcano`` or leave it out (both
default to Volcano).

Failing::

    spec:
      schedulerName: default-scheduler

Passing::

    spec:
      schedulerName: volcano
"""
from ...vocabulary import SCHEDULER_NAME
from ..rule import Problem


def check(obj, run):
    value = obj.spec.get("schedulerName")
    if isinstance(value, str) and value and value != SCHEDULER_NAME:
        yield Problem(("spec", "schedulerName"), f"schedulerName {value!r}: only {SCHEDULER_NAME} places NPU pods; "
                                                 "the pods stay Pending")
    for pod_set in obj.pod_sets():
        value = pod_set.spec.get("schedulerName")
        if isinstance(value, str) and value and value != SCHEDULER_NAME:
            yield Problem(pod_set.spec_path + ("schedulerName",),
                          f"the {pod_set.role} pods name scheduler {value!r}: only {SCHEDULER_NAME} places NPU pods; "
                          "they stay Pending")
