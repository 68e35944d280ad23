"""Replicas or tasks of one job request different NPU counts per pod.

**What.** Every NPU-requesting replica type (AscendJob) or task (Volcano Job)
of a job should request the same number of NPUs per pod. Pods without NPUs
(a MindSpore Scheduler) are not counted.

**Why.** ascend-operator computes ``WORLD_SIZE``/``LOCAL_WORLD_SIZE`` (and the
MindSpore/TensorFlow equivalents) from the Worker's request for *all* pods,
and the ranktable assumes equal devices per server; unequal counts give wrong
ranks and hang collective communication. The plugin accepts and places such a
job (``ValidNPUJob`` checks each task on its own), so a warning. Source:
``MC: component/ascend-operator/pkg/controllers/v1/utils.go``
(getNpuReqInfoPerPod, getTotalNpuReplicas) ("Implied by env computation").

**How to fix.** Give the leader and the Workers the same NPU count.

Failing::

    Master: {... requests: {huawei.com/Ascend910: 4}}
    Worker: {... requests: {huawei.com/Ascend910: 8}}

Passing::

    Master: {... requests: {huawei.com/Ascend910: 8}}
    Worker: {... requests: {huawei.com/Ascend910: 8}}
"""
from ...vocabulary import WORKER
from ..rule import Problem
from ._util import npu_request_path


def check(obj, run):
    npu_sets = obj.npu_pod_sets()
    if len(npu_sets) < 2:
        return
    reference = next((p for p in npu_sets if p.role == WORKER), npu_sets[0])
    for pod_set in npu_sets:
        if pod_set is not reference and pod_set.npus() != reference.npus():
            yield Problem(npu_request_path(pod_set),
                          f"{pod_set.role} pods request {pod_set.npus()} NPUs but {reference.role} pods "
                          f"{reference.npus()}; the operator sizes WORLD_SIZE from one count for all pods")
