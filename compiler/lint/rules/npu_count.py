"""A pod requests a number of NPUs the scheduler does not accept on its hardware.

**What.** The NPUs each pod requests must be a count the job's hardware
profile allows: for one pod, ``npusPerPod.singlePod``; for a job of several
pods, ``npusPerPod.multiPod``. Examples: Atlas 800 (910, ``module``)
1/2/4/8; Atlas 200T A2 Box16 (``module-910b-16``) 1-8, 10, 12, 14, 16; A3
(``module-a3-16``) an even number in a distributed job; A3 super-pod 16 per pod.
The profiles are those whose handler the Volcano plugin could pick: the
``huawei.com/schedule_policy`` annotation, else ``sp-block``, else the
``accelerator-type`` node selector, else the old 910 ``module`` rules. When
several profiles fit (a policy shared by two servers), a count is reported
only when every one of them refuses it.
Numbers come from ``profiles/*.yaml`` (add a profile file to teach a new server).

**Why.** ascend-for-volcano refuses the job and it stays Pending: "expected:
job<%s> req npu num should small than %d, and not in %v, actual: task<%s> req
npu: %d" (reason ``InvalidResourceRequest``), or the A3 messages "job require
npu num should be even number" / "distributed super-pod job require npu(%d)
should be equal to node npu(%d)". Source:
``MC: component/ascend-for-volcano/internal/npu/base/frame.go``,
``internal/npu/ascend910/ascend910b/module910bx16/frame.go``,
``internal/npu/ascend910/ascend910a3/*/frame.go``
The arithmetic is shared with ``compile`` (``compiler/hardware.py``).

**How to fix.** Request an allowed count; for distributed jobs, whole nodes.

Failing::

    nodeSelector: {accelerator-type: module-910b-16}
    containers:
    - name: ascend
      resources:
        requests: {huawei.com/Ascend910: 9}
        limits: {huawei.com/Ascend910: 9}

Passing::

    nodeSelector: {accelerator-type: module-910b-16}
    containers:
    - name: ascend
      resources:
        requests: {huawei.com/Ascend910: 10}
        limits: {huawei.com/Ascend910: 10}
"""
from ... import hardware
from ...catalogue import NPU_COUNT
from ...vocabulary import ACCELERATOR_TYPE_LABEL
from ..rule import Problem
from ._util import npu_request_path


def mixed_accelerator_types(obj):
    """Whether the NPU pod templates select different accelerator-types: each lands on the nodes its own
    selector names, so no single profile's counts apply (the simulated cluster runs such jobs)."""
    values = {p.node_selector.get(ACCELERATOR_TYPE_LABEL) for p in obj.npu_pod_sets()}
    return len(values) > 1


def pod_set_violations(obj, run, rule):
    """(pod set, Violation) for each NPU pod set that breaks ``rule`` on every profile the job could target.

    The manifest may not say which server it is for (several profiles share a policy, or no
    accelerator-type); a count that one candidate accepts is not reported.  The violation shown is
    the first candidate's.
    """
    candidates = run.candidate_profiles(obj)
    if not candidates or mixed_accelerator_types(obj):
        return
    pods = obj.npu_layout().pods
    for pod_set in obj.pod_sets():
        npus = pod_set.npus()
        if npus <= 0 or pod_set.replicas <= 0:
            continue
        layout = hardware.NpuLayout((npus,), pods, npus * pods)
        found = [[v for v in hardware.check_pods(profile, layout) if v.rule == rule] for profile in candidates]
        if all(found):
            for violation in found[0]:
                yield pod_set, violation


def _safe_hint(obj, run, pod_set, hint):
    """With several candidate profiles, offer only counts every one of them accepts (a hint must not break a job)."""
    candidates = run.candidate_profiles(obj)
    if len(candidates) < 2:
        return hint
    pods = obj.npu_layout().pods
    common = set(candidates[0].allowed_per_pod(pods))
    for profile in candidates[1:]:
        common &= set(profile.allowed_per_pod(pods))
    names = ", ".join(p.name for p in candidates)
    if not common:
        return f"no count is allowed on every profile the job could target ({names}): name the server type"
    return f"request one of {', '.join(str(n) for n in sorted(common))} NPUs per pod (allowed on {names})"


def check(obj, run):
    for pod_set, violation in pod_set_violations(obj, run, NPU_COUNT):
        yield Problem(npu_request_path(pod_set), f"{pod_set.role}: {violation.message}",
                      hint=_safe_hint(obj, run, pod_set, violation.hint), severity=violation.severity)
