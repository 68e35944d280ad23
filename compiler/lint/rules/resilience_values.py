"""A fault-tolerance label or annotation has a value upstream does not read.

**What.** Where set: ``fault-scheduling`` is ``grace``, ``force`` or ``off``;
``fault-retry-times`` a whole number, 0 or more; ``pod-rescheduling`` and
``process-recover-enable`` are ``on`` (or ``off``; ``process-recover-enable``
also ``pause``); ``subHealthyStrategy`` is ``ignore``, ``graceExit``,
``forceExit`` or ``hotSwitch``; each entry of the ``recover-strategy``
annotation is ``retry``, ``recover``, ``recover-in-place``,
``elastic-training``, ``dump`` or ``exit``; ``wait-reschedule-timeout`` an
integer from 30 to 270. The labels are labels: given as annotations of the job
(and not as labels), upstream never sees them.

**Why.** Upstream quietly treats other values as "off": the plugin takes a
``fault-retry-times`` it cannot parse as 0, any ``pod-rescheduling`` but ``on``
as off and an unknown ``subHealthyStrategy`` as ``ignore``; the operator skips
unknown recovery strategies, and never retries a job whose ``fault-retry-times``
is negative. (Upstream's API table gives 0-100 for ``fault-retry-times`` while
its inference docs use 10000; the code takes any int32, so only what it cannot
use is reported.) (``external-force``/``external-grace`` are for inference
workloads, not jobs.) The plugin and the operator read these keys from the job's
(and its pods') labels only, never from annotations. The job runs without the
fault tolerance its author meant (|severity|). One case is worse, an error in every
release: an AscendJob whose own ``fault-retry-times`` label is not an integer and
that sets no ``runPolicy.backoffLimit``. ascend-operator reads the label as the
job's backoff limit when the job is created, and when it cannot, it ignores the
creation: the job gets no pods, no status and no refusal, until something updates
the object.

**How to fix.** Use one of the listed values.

Failing::

    metadata:
      labels: {fault-scheduling: "true", pod-rescheduling: "true"}

Passing::

    metadata:
      labels: {fault-scheduling: grace, pod-rescheduling: "on"}
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterator

from ...catalogue.citations import AT, Citation, MC, OP, PL, Place
from ...findings import ERROR
from ...manifest.values import as_dict
from ...releases import PLUGIN_STACKS
from ...vocabulary import (ASCEND_JOB, FAULT_RETRY_TIMES_LABEL, FAULT_SCHEDULING_LABEL, FAULT_SCHEDULING_OFF,
                           FAULT_SCHEDULING_ON, POD_RESCHEDULING_LABEL, PROCESS_RECOVER_LABEL, RECOVER_STRATEGIES,
                           RECOVER_STRATEGY_ANNOTATION, SUB_HEALTHY_LABEL, SUB_HEALTHY_STRATEGIES,
                           WAIT_RESCHEDULE_TIMEOUT_ANNOTATION)
from ..rule import Problem
from ._resilience import annotated_only, job_label

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("setFaultRetryTimeOfJob", PL + "internal/rescheduling/job.go", MC,
                    also=(Place("setFaultRetryTimesToBackoffLimits", OP + "ascendjob_controller.go", AT["v6.0.0"]), Place("onOwnerCreateFunc", OP + "ascendjob_controller.go", AT["v26.1.0"]), Place("setFaultRetryTimesToBackoffLimits", OP + "ascendjob_controller.go", AT["v26.1.0"]), Place("setJobSubHealthyStrategy", PL + "plugin/job.go", MC),
                          Place("addEnvByStrategy", OP + "env.go", MC),
                          Place("getJobLabelFromVcJob", PL + "plugin/job.go", MC),
                          Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (value ranges)", MC)))

INT32_MAX = 2147483647
LABELS = (
    (FAULT_SCHEDULING_LABEL, FAULT_SCHEDULING_ON + (FAULT_SCHEDULING_OFF,)),
    (POD_RESCHEDULING_LABEL, ("on", "off")),
    (PROCESS_RECOVER_LABEL, ("on", "off", "pause")),
    (SUB_HEALTHY_LABEL, SUB_HEALTHY_STRATEGIES),
)


def _integer_in(value: Any, low: int, high: int) -> bool:
    try:
        number = int(str(value))
    except ValueError:
        return False
    return low <= number <= high


#: what Go's strconv.Atoi takes: an optional sign and decimal digits (in range)
_GO_INT = re.compile(r"[+-]?[0-9]+")
INT64_MAX = 2 ** 63 - 1


def _dropped_by_operator(obj: ObjectContext) -> bool:
    """Whether ascend-operator drops the AscendJob's creation event: a non-empty fault-retry-times on the job's own
    labels that Go's Atoi cannot read, and no runPolicy.backoffLimit (which it would read instead)."""
    value = obj.labels.get(FAULT_RETRY_TIMES_LABEL)
    if obj.kind != ASCEND_JOB or value in (None, "") or as_dict(obj.spec.get("runPolicy")).get("backoffLimit") is not None:
        return False
    text = str(value)
    return not (_GO_INT.fullmatch(text) and -INT64_MAX - 1 <= int(text) <= INT64_MAX)


#: the labels above and fault-retry-times: labels upstream reads, never annotations
LABEL_KEYS = tuple(key for key, _ in LABELS) + (FAULT_RETRY_TIMES_LABEL,)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for key in annotated_only(obj, LABEL_KEYS):
        yield Problem(("metadata", "annotations", key), f"{key} is given as an annotation: upstream reads it from the "
                                                        "job's labels only, so it is off", key=True)
    for key, allowed in LABELS:
        value, where = job_label(obj, key)
        if value is not None and value not in allowed:
            yield Problem(where, f"{key} {value!r} is not one of {', '.join(allowed)}: upstream takes it as off")
    value, where = job_label(obj, FAULT_RETRY_TIMES_LABEL)
    if _dropped_by_operator(obj):
        yield Problem(where, f"{FAULT_RETRY_TIMES_LABEL} {value!r} is not an integer and the job sets no "
                             "runPolicy.backoffLimit: ascend-operator cannot take it as the job's backoff limit and "
                             "ignores the job's creation, so the job gets no pods (until something updates it)",
                      severity=ERROR)
    elif value is not None and not _integer_in(value, 0, INT32_MAX):
        yield Problem(where, f"{FAULT_RETRY_TIMES_LABEL} {value!r} is not a whole number of 0 or more: the "
                             "scheduler makes no retries")
    strategies = obj.annotations.get(RECOVER_STRATEGY_ANNOTATION)
    if isinstance(strategies, str):
        unknown = [s for s in strategies.split(",") if s not in RECOVER_STRATEGIES]
        if unknown:
            yield Problem(("metadata", "annotations", RECOVER_STRATEGY_ANNOTATION),
                          f"recover-strategy {', '.join(repr(s) for s in unknown)} unknown: the operator skips it "
                          f"(known: {', '.join(RECOVER_STRATEGIES)}, comma separated, no spaces)")
    timeout = obj.annotations.get(WAIT_RESCHEDULE_TIMEOUT_ANNOTATION)
    if timeout is not None and not _integer_in(timeout, 30, 270):
        yield Problem(("metadata", "annotations", WAIT_RESCHEDULE_TIMEOUT_ANNOTATION),
                      f"{WAIT_RESCHEDULE_TIMEOUT_ANNOTATION} {timeout!r} is not an integer from 30 to 270 seconds")
