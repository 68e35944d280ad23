"""A fault-tolerance setting without what makes it work.

**What.** Four checks on a job's fault-tolerance labels and annotations:

1. ``fault-retry-times`` (more than 0), ``pod-rescheduling: "on"``, a
   ``recover-strategy`` annotation or a ``subHealthyStrategy`` other than
   ``ignore`` need the label ``fault-scheduling: grace`` (or ``force``);
2. a ``recover-strategy`` (process-level recovery) needs ``fault-retry-times``;
3. ``recover-strategy`` needs an AscendJob;
4. ``subHealthyStrategy: hotSwitch`` needs an AscendJob.

**Why.** (1) The Ascend plugin handles a job's faults only when its
``fault-scheduling`` label is grace or force; otherwise its rescheduling is off
for the job and the retries, Pod-level rescheduling and sub-health handling
never happen; ascend-operator then fails an AscendJob at its first failed pod.
(2) Process-level recovery raises business-plane faults, which are handled only
with ``fault-retry-times``: upstream's YAML reference says it must be set.
(3, 4) The operator turns ``recover-strategy`` and ``hotSwitch`` into the
``process-recover-enable`` PodGroup label and the recovery env; a Volcano Job
gets neither. Each job runs, but without the fault tolerance it asks for.

**How to fix.** Add ``fault-scheduling: grace`` (or ``force``), add
``fault-retry-times``, and use an AscendJob for process-level recovery.

Failing::

    metadata:
      labels: {fault-retry-times: "3"}

Passing::

    metadata:
      labels: {fault-scheduling: force, fault-retry-times: "3"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Tuple

from ...catalogue.citations import Citation, MC, OP, PL, Place
from ...releases import PLUGIN_STACKS
from ...vocabulary import (ASCEND_JOB, ENABLED, FAULT_SCHEDULING_LABEL, POD_RESCHEDULING_LABEL,
                           RECOVER_STRATEGY_ANNOTATION, SUB_HEALTHY_HOT_SWITCH, SUB_HEALTHY_LABEL)
from ..rule import Problem
from ._resilience import job_label, rescheduling_on, retry_times

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

STACKS = PLUGIN_STACKS
CITATION = Citation("updateNewFaultJobAttr", PL + "internal/rescheduling/reschedule.go", MC,
                    "rescheduleLabel off, skip rescheduling",
                    also=(Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (fault-retry-times)", MC),
                          Place("addPgProcessRecoverLabel", OP + "job.go", MC),
                          Place("addProcessRecoverEnv", OP + "env.go", MC),
                          Place("addSubHealthyEnv", OP + "env.go", MC),
                          Place("setFaultRetryTimeOfJob", PL + "internal/rescheduling/job.go", MC)))


def _features(obj: ObjectContext, retry: int, sub_healthy: Tuple[Optional[str], Path]) -> Iterator[Tuple[str, Path]]:
    """(name, where) of each setting the job turns on that needs the plugin's rescheduling (``retry``: its
    fault-retry-times; ``sub_healthy``: its subHealthyStrategy label as :func:`job_label` reads it)."""
    if retry > 0:
        yield "fault-retry-times", ("metadata", "labels", "fault-retry-times")
    rescheduling, where = job_label(obj, POD_RESCHEDULING_LABEL)
    if rescheduling == ENABLED:
        yield "pod-rescheduling", where
    if obj.annotations.get(RECOVER_STRATEGY_ANNOTATION):
        yield "recover-strategy", ("metadata", "annotations", RECOVER_STRATEGY_ANNOTATION)
    value, where = sub_healthy
    if value not in (None, "ignore"):
        yield f"subHealthyStrategy {value}", where


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    retry, sub_healthy = retry_times(obj), job_label(obj, SUB_HEALTHY_LABEL)
    features = list(_features(obj, retry, sub_healthy))
    if features and not rescheduling_on(obj):
        value, where = job_label(obj, FAULT_SCHEDULING_LABEL)
        state = f"fault-scheduling is {value!r}" if value is not None else "there is no fault-scheduling label"
        yield Problem(where, f"{state}, so the scheduler's rescheduling is off for the job and "
                             f"{', '.join(name for name, _ in features)} does nothing", key=value is None)
    if obj.annotations.get(RECOVER_STRATEGY_ANNOTATION):
        where = ("metadata", "annotations", RECOVER_STRATEGY_ANNOTATION)
        if retry <= 0:
            yield Problem(where, "process-level recovery raises business-plane faults, which the scheduler handles "
                                 "only with fault-retry-times: add the label")
        if obj.kind != ASCEND_JOB:
            yield Problem(where, "recover-strategy is ascend-operator's: a Volcano Job gets neither the "
                                 "process-recover-enable label nor the recovery env")
    value, where = sub_healthy
    if value == SUB_HEALTHY_HOT_SWITCH and obj.kind != ASCEND_JOB:
        yield Problem(where, "subHealthyStrategy hotSwitch needs ascend-operator's env: use an AscendJob")
