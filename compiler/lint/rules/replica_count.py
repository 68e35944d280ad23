"""An AscendJob replica has a negative ``replicas`` or more than 20000.

**What.** ``replicas`` of every replica type must be between 0 and 20000.

**Why.** From MindCluster v7.3.2 ascend-operator refuses a replica count below 0
or above its maximum (20000) (reason ``InvalidReplicaSpec``); v6.0.0 and
v7.0.RC1 do not check the range. From v26.0.1 a refused job is marked Failed
(reason ``JobValidFailed``); up to v7.3.2 it gets only a Warning event and sits
with no pods and no status. Either way it never runs. With no release named, the finding
names the releases it holds for; on a named older release it is not reported.

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

from ...catalogue.citations import AT, Citation, MC, OP, Place, REFUSED, VAL
from ...hardware import arithmetic
from ...manifest.values import as_dict, as_int
from ..rule import Problem
from ._release import on_releases, operator_refusal, where_fact

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateReplicas", VAL, MC, "%s replicaSpec is not valid: replicas can not be negative num, but got %d",
                    also=(*REFUSED, Place("validateReplicas", VAL, AT["v7.3.2"]), Place("", VAL + " (no range check)", AT["v7.0.RC1"]), Place("", OP + "consts.go (maxReplicas)", MC),))

MAX_REPLICAS = arithmetic.MAX_PODS


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    where = where_fact("operator-checks-replica-range")
    said = on_releases(run, where)
    if said is None:
        return
    severity, before, after = said
    refused = operator_refusal(run, where)
    for rtype, rspec in as_dict(obj.spec.get("replicaSpecs")).items():
        replicas = as_int(as_dict(rspec).get("replicas"))
        if replicas is None:
            continue
        path = ("spec", "replicaSpecs", rtype, "replicas")
        if replicas < 0:
            yield Problem(path, f"{before}{rtype} replicas can not be negative, but got {replicas}: {refused}{after}",
                          severity=severity)
        elif replicas > MAX_REPLICAS:
            yield Problem(path, f"{before}{rtype} replicas can not be larger than {MAX_REPLICAS}, but got {replicas}: "
                                f"{refused}{after}", severity=severity)
