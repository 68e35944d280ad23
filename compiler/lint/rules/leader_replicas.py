"""An AscendJob leader (Master, Scheduler or Chief) has ``replicas`` other than 1.

**What.** Every replica type other than ``Worker`` must have ``replicas: 1``
(or leave it out: it defaults to 1).

**Why.** ascend-operator refuses the job: a leader replica must have exactly one
replica (reason ``InvalidReplicaSpec``).

**How to fix.** Set the leader's ``replicas`` to 1 and put the other pods under ``Worker``.

Failing::

    Master:
      replicas: 2

Passing::

    Master:
      replicas: 1
    Worker:
      replicas: 1
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, VAL
from ...manifest.values import as_dict, as_int
from ...vocabulary import WORKER
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateLeader", VAL, MC, "%s replicaSpec is not valid, the replicas must be only 1")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for rtype, rspec in as_dict(obj.spec.get("replicaSpecs")).items():
        if rtype == WORKER or not isinstance(rspec, dict) or "replicas" not in rspec:
            continue
        replicas = as_int(rspec.get("replicas"))
        if replicas is not None and replicas != 1 and replicas >= 0:
            yield Problem(("spec", "replicaSpecs", rtype, "replicas"),
                          f"{rtype} is a leader replica type: its replicas must be 1, not {replicas}")
