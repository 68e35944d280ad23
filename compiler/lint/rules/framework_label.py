"""An AscendJob's ``framework`` label is missing or not pytorch, mindspore or tensorflow.

**What.** ``metadata.labels.framework`` must be exactly ``pytorch``,
``mindspore`` or ``tensorflow`` (lower case).

**Why.** ascend-operator picks the replica types and the environment it injects
from this label, and refuses the job without it, or with a value other than
``pytorch``, ``mindspore`` or ``tensorflow`` (reason ``InvalidFramework``).

**How to fix.** Add ``framework: pytorch`` (or mindspore / tensorflow) to the job's labels.

Failing::

    metadata:
      name: resnet
      labels:
        framework: PyTorch

Passing::

    metadata:
      name: resnet
      labels:
        framework: pytorch
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, REFUSED
from ...vocabulary import FRAMEWORK_LABEL, FRAMEWORKS
from ..rule import Problem
from ._release import operator_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("GetJobFramework", "component/ascend-operator/pkg/api/v1/defaults.go", MC,
                    "framework label is not set, please set label framework as one of <pytorch,mindspore,tensorflow>",
                    also=(*REFUSED,))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    labels = obj.labels
    if FRAMEWORK_LABEL not in labels:
        path = ("metadata", "labels") if "labels" in obj.metadata else ("metadata",)
        yield Problem(path, f"the framework label is not set: {operator_refusal(run)}", key=True)
        return
    value = labels.get(FRAMEWORK_LABEL)
    if value not in FRAMEWORKS:
        lower = value.lower() if isinstance(value, str) else ""
        hint = f"write it in lower case: framework: {lower}" if lower in FRAMEWORKS else None
        yield Problem(("metadata", "labels", FRAMEWORK_LABEL),
                      f"framework label {value!r} is not one of {', '.join(FRAMEWORKS)}: {operator_refusal(run)}",
                      hint=hint)
