"""A Volcano Job's ``maxRetry`` (or ``ttlSecondsAfterFinished``) is negative.

**What.** ``spec.maxRetry`` must be ≥ 0 (the default is 3), and so must
``spec.ttlSecondsAfterFinished`` where set.

**Why.** Volcano's admission webhook rejects a job with a negative ``maxRetry``
or ``ttlSecondsAfterFinished``.

**How to fix.** Use ``maxRetry: 3`` (the samples' value) or another non-negative number; leave
``ttlSecondsAfterFinished`` out to keep a finished job.

Failing::

    spec:
      maxRetry: -1

Passing::

    spec:
      maxRetry: 3
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...manifest.values import as_int
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for key in ("maxRetry", "ttlSecondsAfterFinished"):
        value = as_int(obj.spec.get(key))
        if value is not None and value < 0:
            yield Problem(("spec", key), f"{key} cannot be less than zero (got {value}): Volcano rejects the job")
