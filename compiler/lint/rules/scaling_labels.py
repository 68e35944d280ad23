"""An elastic (scaling) AscendJob lacks the group-name or jobID label the operator requires.

**What.** When an AscendJob carries the label ``mind-cluster/scaling-rule``,
it must also carry ``mind-cluster/group-name`` and ``jobID``.

**Why.** ascend-operator refuses the job without a group name or a job ID
(condition ``Failed``, reason ``InvalidScalingConfig``).


**How to fix.** Add both labels, or remove ``mind-cluster/scaling-rule``.

Failing::

    metadata:
      labels:
        framework: pytorch
        mind-cluster/scaling-rule: scaling-rule

Passing::

    metadata:
      labels:
        framework: pytorch
        mind-cluster/scaling-rule: scaling-rule
        mind-cluster/group-name: group0
        jobID: job-0001
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


SCALING_RULE = "mind-cluster/scaling-rule"
REQUIRED = (("mind-cluster/group-name", "group name"), ("jobID", "jobID"))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    labels = obj.labels
    if SCALING_RULE not in labels:
        return
    for label, what in REQUIRED:
        if not labels.get(label):
            yield Problem(("metadata", "labels", SCALING_RULE),
                          f"job {obj.name} has label {SCALING_RULE} but no {what}: "
                          f"the operator requires label {label}", key=True,
                          hint=f"add label {label}=<value>")
