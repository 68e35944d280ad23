"""A MindSpore AscendJob with more than one NPU has no Scheduler.

**What.** Without a ``Scheduler`` replica, the Workers of a ``framework:
mindspore`` job may request at most one NPU in total (Σ NPUs per Worker pod ×
Worker replicas ≤ 1). The operator counts the ``resources.requests`` of the
``ascend`` container as written in the AscendJob: an NPU given in ``limits``
alone is not counted (the API server defaults requests from limits in the pods
only, after this check).

**Why.** ascend-operator refuses a MindSpore job without a Scheduler that asks
for more than one NPU in all (reason ``InvalidReplicaSpec``); MindSpore's
distributed start-up needs the Scheduler, even on one node (the upstream docs
say: for 1×8 use the multi-node YAML with Worker replicas 1).

**How to fix.** Add a ``Scheduler`` replica (``replicas: 1``, no NPU request)
and set ``schedulingPolicy.minAvailable`` to include it.

Failing::

    metadata:
      labels: {framework: mindspore}
    spec:
      replicaSpecs:
        Worker:
          replicas: 1
          template: {spec: {containers: [{name: ascend, image: ms:2.3,
            resources: {requests: {huawei.com/Ascend910: 8}, limits: {huawei.com/Ascend910: 8}}}]}}

Passing::

    spec:
      replicaSpecs:
        Scheduler:
          replicas: 1
          template: {spec: {containers: [{name: ascend, image: ms:2.3}]}}
        Worker: {...}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, OP, Place, VAL
from ...manifest.values import as_dict, as_int
from ...vocabulary import MINDSPORE, SCHEDULER, WORKER
from ..rule import Problem
from ._util import ascend_container, npu_request_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import PodSet

CITATION = Citation("jobTotalRequest", VAL, MC, "replicaSpec is not valid: when scheduler not found, the req num must be 1",
                    also=(Place("getReplicaSpecRequestRes", VAL, MC),
                          Place("getContainerResourceReq", OP + "utils.go", MC)))


def _requested(pod_set: PodSet) -> int:
    """NPUs the operator counts for one pod: the first huawei.com/* request of the ascend container."""
    container = ascend_container(pod_set)
    if container is None:
        return 0
    for value in container.npu_amounts("requests").values():
        return as_int(value) or 0
    return 0


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.framework() != MINDSPORE:
        return
    specs = as_dict(obj.spec.get("replicaSpecs"))
    if not specs or SCHEDULER in specs:
        return
    total = sum(_requested(p) * max(p.replicas, 0) for p in obj.pod_sets() if p.role == WORKER)
    if total > 1:
        worker = next(p for p in obj.pod_sets() if p.role == WORKER)
        yield Problem(npu_request_path(worker),
                      f"a MindSpore job without a Scheduler may request only 1 NPU, but its Workers request {total}")
