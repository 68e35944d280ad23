"""A PyTorch or TensorFlow AscendJob has no leader (Master / Chief).

**What.** A ``framework: pytorch`` job needs a ``Master`` replica, a
``framework: tensorflow`` job a ``Chief`` (exactly one pod, see AC209).

**Why.** ascend-operator refuses a job without its framework's leader type
(reason ``InvalidReplicaType``). The leader's Service gives MASTER_ADDR /
CM_CHIEF_IP to the workers.

**How to fix.** Add a ``Master`` (PyTorch) or ``Chief`` (TensorFlow) replica
with ``replicas: 1``, and reduce the Worker count by one.

Failing::

    metadata:
      labels: {framework: pytorch}
    spec:
      replicaSpecs:
        Worker: {replicas: 2, ...}

Passing::

    metadata:
      labels: {framework: pytorch}
    spec:
      replicaSpecs:
        Master: {replicas: 1, ...}
        Worker: {replicas: 1, ...}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, VAL
from ...vocabulary import PYTORCH, TENSORFLOW, LEADERS
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("checkReplicaSpecs", VAL, MC, "replicaType is not valid: there need 1 leader replicaType")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    fw = obj.framework()
    if fw not in (PYTORCH, TENSORFLOW):
        return
    specs = obj.spec.get("replicaSpecs")
    if not isinstance(specs, dict) or not specs:
        return  # AC203
    leader = LEADERS[fw]
    if leader not in specs:
        yield Problem(("spec", "replicaSpecs"), f"a {fw} job needs a {leader} replica; there is none",
                      key=True)
