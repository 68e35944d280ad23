"""An elastic (scaling) AscendJob lacks the group-name or jobID label the operator requires.

**What.** When an AscendJob carries the label ``mind-cluster/scaling-rule``,
it must also carry ``mind-cluster/group-name`` and ``jobID``.

**Why.** From MindCluster v7.3.2 ascend-operator refuses the job without a
group name or a job ID (reason ``InvalidScalingConfig``); v6.0.0 and v7.0.RC1
do not check. From v26.0.1 a refused job is marked Failed
(reason ``JobValidFailed``); up to v7.3.2 it gets only a Warning event and sits
with no pods and no status. Either way it never runs. With no release named, the finding names the releases
it holds for; on a named older release it is not reported.


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

from ...catalogue.citations import AT, Citation, MC, Place, REFUSED, VAL
from ..rule import Problem
from ._release import on_releases, operator_refusal, where_fact

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("ValidJob", "component/ascend-operator/pkg/controllers/scaling/controller.go", MC,
                    "job %s has no group name, please set label of mind-cluster/group-name=...",
                    also=(*REFUSED, Place("validateJob", VAL, AT["v7.3.2"]), Place("", VAL + " (no scaling check)", AT["v7.0.RC1"]),))


SCALING_RULE = "mind-cluster/scaling-rule"
REQUIRED = (("mind-cluster/group-name", "group name"), ("jobID", "jobID"))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    labels = obj.labels
    if SCALING_RULE not in labels:
        return
    where = where_fact("operator-checks-scaling-labels")
    said = on_releases(run, where)
    if said is None:
        return
    severity, before, after = said
    for label, what in REQUIRED:
        if not labels.get(label):
            yield Problem(("metadata", "labels", SCALING_RULE),
                          f"{before}job {obj.name} has label {SCALING_RULE} but no {what}: "
                          f"{operator_refusal(run, where)}{after}", key=True,
                          hint=f"add label {label}=<value>", severity=severity)
