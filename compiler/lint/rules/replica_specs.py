"""An AscendJob has no ``spec.replicaSpecs``, or a replica spec is empty.

**What.** ``spec.replicaSpecs`` must be set and non-empty, and every replica
type in it must have a value (not ``null``).

**Why.** ascend-operator refuses a job without replica specs (reason
``InvalidSpecs``) and one whose replica spec is empty (``InvalidReplicaSpec``).

**How to fix.** Give every replica type a spec with ``replicas`` and a ``template``.

Failing::

    spec:
      replicaSpecs:
        Master:

Passing::

    spec:
      replicaSpecs:
        Master:
          replicas: 1
          template:
            spec:
              containers: [{name: ascend, image: my/train:1.0}]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, Place, REFUSED, VAL
from ..rule import Problem
from ._release import operator_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("checkReplicaSpecs", VAL, MC, "%s replicaSpec is not set, please modify your job",
                    also=(*REFUSED, Place("validateBasicInfo", VAL, MC),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    spec = obj.data.get("spec")
    if not isinstance(spec, dict):
        return  # the schema reports a missing or mistyped spec
    specs = spec.get("replicaSpecs")
    if specs is None:
        yield Problem(("spec", "replicaSpecs"), f"replicaSpecs is not set: {operator_refusal(run)}")
        return
    if isinstance(specs, dict):
        if not specs:
            yield Problem(("spec", "replicaSpecs"), "replicaSpecs is empty: the job has no pods")
        for rtype, value in specs.items():
            if value is None:
                yield Problem(("spec", "replicaSpecs", rtype), f"{rtype} replicaSpec is not set", key=True)
