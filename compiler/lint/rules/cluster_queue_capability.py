"""The job's pod group needs more NPUs at once than its Volcano queue may ever hold (or keep).

**What.** With ``--cluster`` or ``--cluster-snapshot``: the NPUs of the pods the
job's pod group places together (its ``minAvailable`` pods, every pod unless the
job sets fewer; counted from its smallest pods, or an AscendJob's own
``schedulingPolicy.minResources``) are more than the queue's ``capability`` of
that resource: an error. More than the queue's ``deserved`` share (and within
its capability): a warning.

**Why.** Volcano lets a job into its queue (``Inqueue``) only when its pod
group's minimum resources, added to what the queue holds, stay within the
queue's capability (the proportion plugin of Volcano 1.9 and the capacity
plugin of 1.12 both compare them, resource by resource); a job larger than the
capability alone is never let in, however idle the cluster: it stays Pending, its pod group
marked unschedulable for the queue's quota. The Ascend plugin's own enqueue check
does not compare the queue, so the job may look accepted while later jobs of
the queue are refused. Beyond the deserved share, the capacity plugin lets
other queues reclaim the job's pods when they need their share.

**How to fix.** Run fewer or smaller pods, use a queue whose capability holds
the job, or have the queue's capability raised.

Failing::

    spec:
      runPolicy:
        schedulingPolicy: {queue: small}    # capability huawei.com/Ascend910: "8"
      replicaSpecs: {Master: {replicas: 2, ...8 NPUs each}}

Passing::

    spec:
      runPolicy:
        schedulingPolicy: {queue: default}  # no capability
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Mapping, Optional

from ...catalogue.citations import MC, OP, VC, VC19, Citation, Place
from ...findings import WARNING
from ...manifest.quantity import parse
from ...manifest.values import as_dict
from ...vocabulary import ASCEND_JOB
from ..rule import Problem
from ._cluster import inventory, least_npus, where
from ._queues import queue_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


CITATION = Citation("jobEnqueueable", "pkg/scheduler/plugins/capacity/capacity.go", VC, "queue resource quota insufficient",
                    also=(Place("OnSessionOpen", "pkg/scheduler/plugins/proportion/proportion.go", VC19),
                          Place("newPodGroupSpec", OP + "job.go", MC),
                          Place("calcPGMinResources", "pkg/controllers/job/job_controller_actions.go", VC),
                          Place("OnSessionOpen", "pkg/scheduler/plugins/capacity/capacity.go", VC)))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.queues is None or obj.queue() not in inv.queues:
        return
    queue = inv.queues[obj.queue()]
    for resource in sorted({p.npu_resource() or "" for p in obj.pod_sets()} - {""}):
        need = _declared(obj, resource)
        need = least_npus(obj, resource) if need is None else need
        limit, deserved = _amount(queue.capability, resource), _amount(queue.deserved, resource)
        source = where(inv)
        if limit is not None and need > limit:
            yield Problem(queue_path(obj), f"the job's pod group needs {need} {resource} at once, more than queue "
                          f"{queue.name!r} may ever hold (its capability: {limit}, in {source}): Volcano never lets "
                          "the job into the queue, it stays Pending")
        elif deserved is not None and need > deserved:
            yield Problem(queue_path(obj), f"the job's pod group needs {need} {resource} at once, more than queue "
                          f"{queue.name!r} deserves ({deserved}, in {source}): when other queues claim their share, "
                          "Volcano's capacity plugin may reclaim the pods beyond it", severity=WARNING,
                          hint="run fewer or smaller pods, or use a queue whose deserved share holds the job")


def _declared(obj: ObjectContext, resource: str) -> Optional[int]:
    """An AscendJob's own ``schedulingPolicy.minResources`` of ``resource`` (what its pod group then asks for)."""
    if obj.kind != ASCEND_JOB:
        return None
    policy = as_dict(as_dict(obj.spec.get("runPolicy")).get("schedulingPolicy"))
    minimum = as_dict(policy.get("minResources"))
    return _amount(minimum, resource) if minimum else None


def _amount(table: Mapping[str, Any], resource: str) -> Optional[int]:
    """A whole quantity of ``resource`` in a resource list (None when it has none, or no whole number)."""
    value = parse(str(table[resource])) if resource in table else None
    return None if value is None else int(value)
