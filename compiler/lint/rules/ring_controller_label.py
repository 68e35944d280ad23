"""The ``ring-controller.atlas`` label has an unknown value, or differs between the job and its pods.

**What.** Where set, ``ring-controller.atlas`` must be one of ``ascend-910``,
``ascend-910b``, ``ascend-310``, ``ascend-310P``, ``ascend-npu``; the pod
templates must carry the same value as the job; and it should match the
hardware profile the job lands on (e.g. ``ascend-910b`` for every A2/A3 profile).

**Why.** ascend-operator writes the ranktable for jobs labelled with it, and
the Volcano plugin uses it to pick the chip family (v6.0.0 910B handlers
*required* ``ascend-910b``: "%s label:%s not right(%s)"). The samples' comments
say the value "cannot be modified". Source:
``MC: component/ascend-operator/pkg/ranktable/plugins.go``,
``MC: component/ascend-for-volcano/common/util/job.go``

**How to fix.** Use the value of your hardware profile
(``ascend-compile profiles show <name>``) on the job and every pod template.

Failing::

    metadata:
      labels:
        ring-controller.atlas: ascend-910B

Passing::

    metadata:
      labels:
        ring-controller.atlas: ascend-910b
"""
from ...vocabulary import RING_CONTROLLER_VALUES, RING_LABEL
from ..rule import Problem

KNOWN = RING_CONTROLLER_VALUES


def check(obj, run):
    job_value = obj.labels.get(RING_LABEL)
    if job_value is not None and job_value not in KNOWN:
        yield Problem(("metadata", "labels", RING_LABEL),
                      f"{RING_LABEL} {job_value!r} is not one of {', '.join(KNOWN)}")
    for pod_set in obj.pod_sets():
        value = pod_set.labels.get(RING_LABEL)
        if value is None or job_value is None:
            continue
        if value != job_value:
            meta = pod_set.spec_path[:-1] + ("metadata", "labels", RING_LABEL)
            yield Problem(meta, f"the {pod_set.role} pods are labelled {RING_LABEL}={value} "
                                f"but the job {job_value}")
    candidates = run.candidate_profiles(obj)
    expected = sorted({p.ring_controller for p in candidates})
    if candidates and job_value in KNOWN and job_value not in expected:
        names = ", ".join(p.name for p in candidates)
        yield Problem(("metadata", "labels", RING_LABEL),
                      f"{RING_LABEL} is {job_value} but the job runs on {names}, "
                      f"which uses {' or '.join(expected)}")
