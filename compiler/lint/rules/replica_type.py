"""An AscendJob uses a replica type its framework does not have.

**What.** The keys of ``spec.replicaSpecs`` must be, per framework:
pytorch ``Master``/``Worker``, mindspore ``Scheduler``/``Worker``,
tensorflow ``Chief``/``Worker`` — spelled exactly so.

**Why.** ascend-operator validates the types before it normalises their case and
refuses any other type (reason ``InvalidReplicaType``).

**How to fix.** Rename the replica type, e.g. ``Chief`` to ``Master`` for PyTorch.

Failing::

    metadata:
      labels: {framework: pytorch}
    spec:
      replicaSpecs:
        Chief: {...}

Passing::

    metadata:
      labels: {framework: pytorch}
    spec:
      replicaSpecs:
        Master: {...}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, Place, VAL
from ...manifest.values import as_dict
from ...vocabulary import REPLICA_TYPES
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("getValidReplicaType", VAL, MC, "replicaType is %v but must be one of %v",
                    also=(Place("", "component/ascend-operator/pkg/api/v1/common.go", MC),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    fw = obj.framework()
    if fw is None:
        return  # AC206 reports the label
    allowed = REPLICA_TYPES[fw]
    for rtype in as_dict(obj.spec.get("replicaSpecs")):
        if rtype in allowed:
            continue
        match = next((a for a in allowed if a.lower() == str(rtype).lower()), None)
        hint = f"spell it {match}: the operator checks the type before it normalises the case" if match else None
        yield Problem(("spec", "replicaSpecs", rtype),
                      f"replica type {rtype!r} is not valid for {fw}; it must be one of {', '.join(allowed)}",
                      hint=hint, key=True)
