"""An AscendJob's ``schedulingPolicy.minAvailable`` is larger than its total replicas.

**What.** ``spec.runPolicy.schedulingPolicy.minAvailable`` must not exceed the
sum of the replica types' ``replicas`` (a replica type without ``replicas``
counts 1, the operator's default).

**Why.** The operator copies ``minAvailable`` into the job's PodGroup as
``minMember`` unchecked. Volcano's gang scheduling then waits for more pods than
the job will ever create, so the job stays Pending forever; Volcano says "pod
group is not ready, N Pending, M minAvailable" and the operator nothing.

**How to fix.** Set ``minAvailable`` to the number of pods (or leave it out:
the operator then uses the total replicas).

Failing::

    spec:
      runPolicy:
        schedulingPolicy: {minAvailable: 3, queue: default}
      replicaSpecs:
        Master: {replicas: 1, ...}
        Worker: {replicas: 1, ...}

Passing::

    spec:
      runPolicy:
        schedulingPolicy: {minAvailable: 2, queue: default}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, OP
from ...manifest.values import as_dict, as_int
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("newPodGroupSpec", OP + "job.go", MC)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    policy = as_dict(as_dict(obj.spec.get("runPolicy")).get("schedulingPolicy"))
    value = as_int(policy.get("minAvailable"))
    if value is None or not obj.pod_sets():
        return
    total = sum(max(pod_set.replicas, 0) for pod_set in obj.pod_sets())
    if value > total:
        yield Problem(("spec", "runPolicy", "schedulingPolicy", "minAvailable"),
                      f"minAvailable {value} is greater than the job's {total} pods: the PodGroup waits for pods "
                      "that are never created, so the job stays Pending")
