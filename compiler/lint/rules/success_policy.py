"""An AscendJob's ``spec.successPolicy`` is neither empty nor ``AllWorkers``.

**What.** ``spec.successPolicy`` may be left out, empty, or ``AllWorkers``.

**Why.** ascend-operator refuses any other value (reason
``InvalidSuccessPolicy``). The CRD has no enum, so the API server accepts the
typo and the job fails later.

**How to fix.** Use ``successPolicy: AllWorkers`` or remove the field.

Failing::

    spec:
      successPolicy: AllWorker

Passing::

    spec:
      successPolicy: AllWorkers
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, Place, VAL
from ...vocabulary import SUCCESS_POLICY_ALL_WORKERS
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateBasicInfo", VAL, MC, "job success policy is invalid, it must be one of <\"\", AllWorkers>",
                    also=(Place("", "component/ascend-operator/pkg/api/v1/common.go", MC),))

ALLOWED = ("", SUCCESS_POLICY_ALL_WORKERS)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if "successPolicy" not in obj.spec:
        return
    value = obj.spec.get("successPolicy")
    if value is not None and value not in ALLOWED:
        yield Problem(("spec", "successPolicy"),
                      f"successPolicy {value!r} is not accepted by the operator; it must be \"\" or AllWorkers")
