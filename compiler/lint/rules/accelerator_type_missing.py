"""A 910 job names no ``accelerator-type`` and no schedule_policy, so the old Atlas 800 rules apply.

**What.** A job requesting ``huawei.com/Ascend910`` should select its server
type: the ``accelerator-type`` node selector (MindCluster ≤ 26.0 dialect) or
the ``huawei.com/schedule_policy`` annotation (26.1+ dialect), or carry
``sp-block`` (A3 super-pod).

**Why.** Without any of them the Volcano plugin gives the job the default
910 handler, ``huawei.com/Ascend910module`` (the Atlas 800 (910) rules, per-pod
counts 1, 2, 4, 8). That is right for Atlas 800 (910) jobs, which upstream's
own a800 samples write exactly so; it is wrong only for other servers (a Box16
job requesting 16 NPUs stays Pending). The manifest does not say which it is,
so this is |severity|, never a reason to change a correct job. Pods no
Volcano places (a Pod, Deployment or batch Job without ``schedulerName:
volcano``) are not reported: Kubernetes' default scheduler only counts the
resource, and the plugin's handlers never see them. Source:
``get910CardHandlerName`` in
``component/ascend-for-volcano/internal/npu/factory.go`` (mind-cluster
``22bb3d98``); the plugin reports nothing for the choice itself.

**How to fix.** Nothing for Atlas 800 (910) servers. For other servers add
``nodeSelector: {accelerator-type: <type>}`` to every pod template, or the job
annotation ``huawei.com/schedule_policy: <policy>``.

Failing::

    nodeSelector:
      host-arch: huawei-arm
    ... requests: {huawei.com/Ascend910: 8}

Passing::

    nodeSelector:
      host-arch: huawei-arm
      accelerator-type: module-910b-8
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import ACCELERATOR_TYPE_LABEL, SCHEDULE_POLICY_ANNOTATION, ASCEND_910, SP_BLOCK_ANNOTATION
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.accelerator_type() or obj.npu_resource() != ASCEND_910 or obj.schedule_policy \
            or obj.block(SP_BLOCK_ANNOTATION)[0]:
        return
    placed = [pod_set for pod_set in obj.npu_pod_sets() or obj.pod_sets() if obj.volcano_places(pod_set)]
    if not placed:
        return
    pod_set = placed[0]
    where = pod_set.spec_path + ("nodeSelector",)
    yield Problem(where, f"the job requests {ASCEND_910} without {ACCELERATOR_TYPE_LABEL} or "
                         f"{SCHEDULE_POLICY_ANNOTATION}: the scheduler uses its default Atlas 800 (910) handler "
                         "(1, 2, 4 or 8 NPUs per pod), right for those servers only", key=True)
