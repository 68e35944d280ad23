"""A soft-share device job without the quotas the scheduler needs.

**What.** A job annotated ``huawei.com/schedule_policy: chip1-softShareDev``
needs three job labels: ``huawei.com/scheduler.softShareDev.aicoreQuota`` (an
integer from 1 to 100, the percentage of one NPU's AI Cores),
``huawei.com/scheduler.softShareDev.hbmQuota`` (an integer of at least 1, MB of
its memory) and ``huawei.com/scheduler.softShareDev.policy`` (``fixed-share``,
``elastic`` or ``best-effort``).

**Why.** The plugin's soft-share handler refuses the job otherwise (reason
InvalidResourceRequest): it never schedules. ascend-operator treats a job as
soft-share only with all three labels. Such a job's NPU request is a share, not
a count, so the profiles' NPU counts are not checked for it. (``ascend-compile
compile`` does not write soft-share jobs: see the end of docs/spec.md.)

**How to fix.** Add the three labels with valid values.

Failing::

    metadata:
      labels:
        huawei.com/scheduler.softShareDev.aicoreQuota: "150"
      annotations:
        huawei.com/schedule_policy: chip1-softShareDev

Passing::

    metadata:
      labels:
        huawei.com/scheduler.softShareDev.aicoreQuota: "50"
        huawei.com/scheduler.softShareDev.hbmQuota: "2048"
        huawei.com/scheduler.softShareDev.policy: fixed-share
      annotations:
        huawei.com/schedule_policy: chip1-softShareDev
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import Citation, MC, OP, PL, Place
from ...releases import PLUGIN_STACKS
from ...vocabulary import (SCHEDULE_POLICY_ANNOTATION, SOFT_SHARE_AICORE_LABEL, SOFT_SHARE_HBM_LABEL, SOFT_SHARE_POLICIES,
                           SOFT_SHARE_POLICY, SOFT_SHARE_POLICY_LABEL)
from ..rule import Problem
from ._resilience import job_label

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("checkSoftShareDevResource", PL + "internal/npu/policy/chip1softsharedev/job.go", MC,
                    "check share device job(%s) valid failed, aicoreQuota: %v not in range [1,100]",
                    also=(Place("getSoftShareDevResource", PL + "internal/npu/policy/chip1softsharedev/job.go", MC),
                          Place("isSoftShareDevJob", OP + "utils.go", MC)))


def _integer(value: Any) -> Optional[int]:
    try:
        return int(str(value))
    except ValueError:
        return None


def _problem(key: str, value: Any) -> Optional[str]:
    if value is None:
        return f"no label {key}"
    if key == SOFT_SHARE_AICORE_LABEL and not 1 <= (_integer(value) or 0) <= 100:
        return f"{key} {value!r} is not an integer from 1 to 100"
    if key == SOFT_SHARE_HBM_LABEL and (_integer(value) or 0) < 1:
        return f"{key} {value!r} is not an integer of at least 1"
    if key == SOFT_SHARE_POLICY_LABEL and value not in SOFT_SHARE_POLICIES:
        return f"{key} {value!r} is not one of {', '.join(SOFT_SHARE_POLICIES)}"
    return None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.schedule_policy != SOFT_SHARE_POLICY:
        return
    for key in (SOFT_SHARE_AICORE_LABEL, SOFT_SHARE_HBM_LABEL, SOFT_SHARE_POLICY_LABEL):
        value, where = job_label(obj, key)
        what = _problem(key, value)
        if what is None:
            continue
        if value is None:
            where = ("metadata", "annotations", SCHEDULE_POLICY_ANNOTATION)
        yield Problem(where, f"soft-share job: {what}; the scheduler refuses the job")
