"""A 910 job names no ``accelerator-type`` and no schedule_policy, so the old Atlas 800 rules apply.

**What.** A job requesting ``huawei.com/Ascend910`` should select its server
type: the ``accelerator-type`` node selector (MindCluster ≤ 26.0 dialect) or
the ``huawei.com/schedule_policy`` annotation (26.1+ dialect), or carry
``sp-block`` (A3 super-pod).

**Why.** Without any of them the Volcano plugin falls back to handler
``huawei.com/Ascend910module``: the old Atlas 800 (910) rules, per-pod counts
{1, 2, 4, 8}. On 910B/A3 servers that refuses valid requests (16 NPUs on a
Box16) or mis-places pods. Source:
``MC: component/ascend-for-volcano/internal/npu/factory.go``
(get910CardHandlerName) step 3. A warning, since real Atlas 800
(910) jobs are fine without it (the a800 vcjob samples omit it).

**How to fix.** Add ``nodeSelector: {accelerator-type: <type>}`` to every pod
template, or the job annotation ``huawei.com/schedule_policy: <policy>``.

Failing::

    nodeSelector:
      host-arch: huawei-arm
    ... requests: {huawei.com/Ascend910: 8}

Passing::

    nodeSelector:
      host-arch: huawei-arm
      accelerator-type: module-910b-8
"""
from ...vocabulary import ACCELERATOR_TYPE_LABEL, SCHEDULE_POLICY_ANNOTATION, ASCEND_910, SP_BLOCK_ANNOTATION
from ..rule import Problem


def check(obj, run):
    if obj.npu_resource() != ASCEND_910 or obj.schedule_policy or obj.block(SP_BLOCK_ANNOTATION)[0]:
        return
    if obj.accelerator_type():
        return
    pod_set = obj.npu_pod_sets()[0] if obj.npu_pod_sets() else obj.pod_sets()[0]
    where = pod_set.spec_path + ("nodeSelector",)
    yield Problem(where, f"the job requests {ASCEND_910} without {ACCELERATOR_TYPE_LABEL} or "
                         f"{SCHEDULE_POLICY_ANNOTATION}: the scheduler applies the old Atlas 800 (910) rules "
                         "(1, 2, 4 or 8 NPUs per pod)", key=True)
