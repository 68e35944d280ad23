"""The ``scaleout-type`` label of an AscendJob is neither ROCE nor UBOE.

**What.** If the label ``scaleout-type`` is set (non-empty), its upper-cased
value must be ``ROCE`` or ``UBOE``.

**Why.** From MindCluster v26.0.1 ascend-operator refuses any value but ``ROCE``
or ``UBOE`` (reason ``InvalidScaleOutConfig``), and marks the job Failed (reason
``JobValidFailed``); up to v7.3.2 it does not read the label. With no release
named, the finding names the releases it holds for; on a named older release it
is not reported.

**How to fix.** Use ``ROCE`` or ``UBOE``, or remove the label.

Failing::

    metadata:
      labels:
        scaleout-type: infiniband

Passing::

    metadata:
      labels:
        scaleout-type: roce
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import AT, Citation, MC, Place, REFUSED, VAL
from ..rule import Problem
from ._release import on_releases, operator_refusal, where_fact

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("CheckAcJobScaleOutTypeLabel", "component/ascend-operator/pkg/utils/job_v2.go", MC,
                    "the value of label scaleout-type is invalid, which should be ROCE or UBOE",
                    also=(*REFUSED, Place("CheckAcJobScaleOutTypeLabel", "component/ascend-operator/pkg/utils/job_v2.go", AT["v26.0.1"]), Place("", VAL + " (no scaleout-type check)", AT["v7.3.2"]),))

ALLOWED = ("ROCE", "UBOE")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    value = obj.labels.get("scaleout-type")
    if value in (None, ""):
        return
    where = where_fact("operator-checks-scaleout-type")
    said = on_releases(run, where)
    if said is not None and (not isinstance(value, str) or value.upper() not in ALLOWED):
        severity, before, after = said
        yield Problem(("metadata", "labels", "scaleout-type"),
                      f"{before}label scaleout-type is {value!r}, not ROCE or UBOE: {operator_refusal(run, where)}"
                      f"{after}", severity=severity)
