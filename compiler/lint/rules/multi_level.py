"""A multi-level scheduling job whose levels the scheduler refuses.

**What.** A job annotated ``huawei.com/schedule_policy: multilevel`` needs the
annotation ``huawei.com/affinity-config: level1=<n>,level2=<m>,...``: pairs of
``level<i>=<integer>``, levels consecutive from ``level1``, each level's number
dividing the next level's, the last dividing the number of NPU pods; and every
pod set must request NPUs (a MindSpore ``Scheduler`` excepted).

**Why.** The plugin's multilevel handler validates the job before placing it and
refuses it otherwise (no affinity blocks, a malformed level pair, a level that
does not exist, a level that does not divide the one above it, a distributed job
on partial nodes): the job never schedules. The handler also places whole nodes
only; the node's NPU count is checked where the hardware is known (``compile``,
from the profile).

**How to fix.** Write the levels as above (``ascend-compile`` writes them from
``spec.multiLevel``).

Failing::

    metadata:
      annotations:
        huawei.com/schedule_policy: multilevel
        huawei.com/affinity-config: level2=4

Passing::

    metadata:
      annotations:
        huawei.com/schedule_policy: multilevel
        huawei.com/affinity-config: level1=2,level2=4
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL, Place
from ...hardware import arithmetic
from ...releases import PLUGIN_STACKS
from ...vocabulary import AFFINITY_CONFIG_ANNOTATION, MULTILEVEL_POLICY, SCHEDULE_POLICY_ANNOTATION, SCHEDULER
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("ValidNPUJob", PL + "internal/npu/policy/multilevelscheduling/frame.go", MC,
                    "affinity block levelN is not exist",
                    also=(Place("GetAffinityBlocks", PL + "plugin/job.go", MC),
                          Place("GetTaskTreeLevels", PL + "common/util/type_multilevel.go", MC),
                          Place("checkTaskNPU", PL + "internal/npu/policy/multilevelscheduling/frame.go", MC)))

#: pods that may request no NPUs in a multilevel job
SKIP_ANNOTATION = "huawei.com/skip-ascend-plugin"


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.schedule_policy != MULTILEVEL_POLICY:
        return
    found = obj.job_annotation(AFFINITY_CONFIG_ANNOTATION)
    value, where = found if found is not None else (None, ())
    if not isinstance(value, str) or not value:
        policy = obj.job_annotation(SCHEDULE_POLICY_ANNOTATION)  # there: the job is multilevel
        yield Problem(policy[1] if policy is not None else (),
                      f"schedule_policy multilevel without the {AFFINITY_CONFIG_ANNOTATION} annotation: the "
                      "scheduler has no levels to place the job by and refuses it")
        return
    levels, why = arithmetic.parse_multi_level(value)
    if levels is None:
        yield Problem(where, f"{AFFINITY_CONFIG_ANNOTATION} {value!r}: {why}; the scheduler refuses the job")
        return
    for pod_set in obj.pod_sets():
        skipped = (pod_set.metadata.get("annotations") or {}).get(SKIP_ANNOTATION) == "enabled"
        if pod_set.npus() == 0 and pod_set.role.lower() != SCHEDULER.lower() and not skipped:
            yield Problem(pod_set.spec_path + ("containers",),
                          f"the {pod_set.role} pods request no NPUs: the multilevel handler refuses such tasks",
                          key=True)
    npu_pods = sum(max(p.replicas, 0) for p in obj.npu_pod_sets())
    for v in arithmetic.check_multi_level(levels, npu_pods):
        yield Problem(where, v.message, hint=v.hint)
