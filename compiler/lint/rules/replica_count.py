"""An AscendJob replica has a negative ``replicas`` or more than 20000.

**What.** ``replicas`` of every replica type must be between 0 and 20000.

**Why.** ascend-operator refuses a replica count below 0 or above its maximum
(20000) (reason ``InvalidReplicaSpec``).

**How to fix.** Use a replica count from 0 to 20000.

Failing::

    Worker:
      replicas: -1

Passing::

    Worker:
      replicas: 3
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...hardware import arithmetic
from ...manifest.values import as_dict, as_int
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

MAX_REPLICAS = arithmetic.MAX_PODS


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for rtype, rspec in as_dict(obj.spec.get("replicaSpecs")).items():
        replicas = as_int(as_dict(rspec).get("replicas"))
        if replicas is None:
            continue
        path = ("spec", "replicaSpecs", rtype, "replicas")
        if replicas < 0:
            yield Problem(path, f"{rtype} replicas can not be negative, but got {replicas}")
        elif replicas > MAX_REPLICAS:
            yield Problem(path, f"{rtype} replicas can not be larger than {MAX_REPLICAS}, but got {replicas}")
