"""The ``scaleout-type`` label of an AscendJob is neither ROCE nor UBOE.

**What.** If the label ``scaleout-type`` is set (non-empty), its upper-cased
value must be ``ROCE`` or ``UBOE``.

**Why.** ascend-operator refuses any value but ``ROCE`` or ``UBOE`` (reason
``InvalidScaleOutConfig``).

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

from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

ALLOWED = ("ROCE", "UBOE")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    value = obj.labels.get("scaleout-type")
    if value in (None, ""):
        return
    if not isinstance(value, str) or value.upper() not in ALLOWED:
        yield Problem(("metadata", "labels", "scaleout-type"),
                      f"label scaleout-type is {value!r}; the operator accepts only ROCE or UBOE")
