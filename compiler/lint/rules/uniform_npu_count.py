"""Replicas or tasks of one job request different NPU counts per pod, or an AscendJob pod's NPUs are not all on ``ascend``.

**What.** Every NPU-requesting replica type (AscendJob) or task (Volcano Job)
of a job should request the same number of NPUs per pod. Pods without NPUs
(a MindSpore Scheduler) are not counted. In an AscendJob, all of a pod's NPUs
should be requested by its ``ascend`` container.

**Why.** ascend-operator computes ``WORLD_SIZE``/``LOCAL_WORLD_SIZE`` (and the
MindSpore/TensorFlow equivalents) from the Worker's request for *all* pods, and
the ranktable assumes equal devices per server; unequal counts give wrong ranks
and hang collective communication. The plugin accepts and places such a job (it
checks each task on its own), so |severity|.

The operator takes that count from the ``ascend`` container's requests only (the
Worker's; any replica's, picked at random, once a non-Worker ``ascend``
container asks for NPUs), while the scheduler places the pod's total. A pod with
4 NPUs on ``ascend`` and 4 on a second container gets the 8 devices of a node
(its device annotation, which the operator passes to ``ascend`` as
``ASCEND_VISIBLE_DEVICES``, lists 8), but ``LOCAL_WORLD_SIZE=4``,
``WORLD_SIZE=4`` x pods and ``LOCAL_RANK=0,1,2,3`` (``MS_LOCAL_WORKER``/
``MS_WORKER_NUM``, ``CM_LOCAL_WORKER``/``CM_WORKER_SIZE`` alike); with none on
the ``ascend`` container it reads, it sets no rank env at all. When a Master's
(or Chief's, Scheduler's) NPUs are all off its ``ascend`` container and no
non-Worker ``ascend`` container asks for any, the operator sizes and ranks the
job by the Workers alone: ``WORLD_SIZE`` leaves the Master out and the Master
and Worker 0 both get ``RANK=0`` (``MS_NODE_RANK``, ``CM_RANK``); the simulated
cluster shows ``RANK=0`` and ``WORLD_SIZE=8`` on both pods of such a job of one
Master and one Worker of 8 NPUs. The simulated cluster runs such jobs with that
env: a warning. Not reported where the operator derives no env from the count
(soft-share and ``huawei.com/npu-core`` jobs, a MindSpore job with Worker
replicas only).

An AscendJob is judged on every device stack: ascend-operator sizes its env
wherever it runs. A Volcano Job only where MindCluster's device plugin runs
(``mindcluster``, ``volcano-vnpu:mindcluster``): on a HAMi stack no ranktable
or rank env is made from its counts, and its tasks may well ask for different
vNPUs.

**How to fix.** Give the leader and the Workers the same NPU count, and put an
AscendJob pod's NPUs on its ``ascend`` container.

Failing::

    Master: {... requests: {huawei.com/Ascend910: 4}}
    Worker: {... requests: {huawei.com/Ascend910: 8}}

Passing::

    Master: {... requests: {huawei.com/Ascend910: 8}}
    Worker: {... requests: {huawei.com/Ascend910: 8}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, List

from ...catalogue.citations import Citation, MC, OP, PL, Place
from ...vocabulary import (ASCEND_JOB, CONTAINER_NAME, MINDSPORE, NPU_CORE_RESOURCE, PYTORCH,
                           SOFT_SHARE_AICORE_LABEL, SOFT_SHARE_HBM_LABEL, SOFT_SHARE_POLICY_LABEL, TENSORFLOW, WORKER)
from ...manifest.values import npu_count
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ..rule import Problem
from ._util import ascend_container, npu_request_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import PodSet

CITATION = Citation("getNpuReqInfoPerPod", OP + "utils.go", MC,
                    also=(Place("getTotalNpuReplicas", OP + "utils.go", MC),
                          Place("getNpuWorkerSpec", OP + "utils.go", MC),
                          Place("checkNonWorkerRplMountChips", OP + "utils.go", MC),
                          Place("createPodSpec", OP + "pod.go", MC),
                          Place("setPytorchEnv", OP + "env.go", MC),
                          Place("setMindSporeEnv", OP + "env.go", MC),
                          Place("setTensorflowEnv", OP + "env.go", MC),
                          Place("ValidNPUJob", PL + "internal/npu/base/frame.go", MC)))

#: the per-pod and job-wide NPU counts ascend-operator writes into the ascend container, by framework
SIZE_ENV = {PYTORCH: "LOCAL_WORLD_SIZE and WORLD_SIZE", MINDSPORE: "MS_LOCAL_WORKER and MS_WORKER_NUM",
            TENSORFLOW: "CM_LOCAL_WORKER and CM_WORKER_SIZE"}
#: the job-wide count and the pod's rank ascend-operator writes, by framework
WORLD_ENV = {PYTORCH: ("WORLD_SIZE", "RANK"), MINDSPORE: ("MS_WORKER_NUM", "MS_NODE_RANK"),
             TENSORFLOW: ("CM_WORKER_SIZE", "CM_RANK")}
#: a job with all three labels is soft-share: the operator counts 1 NPU per pod whatever the request
SOFT_SHARE_LABELS = (SOFT_SHARE_AICORE_LABEL, SOFT_SHARE_HBM_LABEL, SOFT_SHARE_POLICY_LABEL)
NPU_CORE = NPU_CORE_RESOURCE  # a dynamic vNPU request: the operator writes no count env


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.kind != ASCEND_JOB and run.target.stack not in MINDCLUSTER_DEVICE_STACKS:
        return
    npu_sets = obj.npu_pod_sets()
    if obj.kind == ASCEND_JOB:
        for pod_set in npu_sets:
            if len(pod_set.containers()) > 1:  # the rare case first: most pods have one container
                yield from _off_ascend(obj, npu_sets)
                break
    if len(npu_sets) < 2:
        return
    reference = next((p for p in npu_sets if p.role == WORKER), npu_sets[0])
    for pod_set in npu_sets:
        if pod_set is not reference and pod_set.npus() != reference.npus():
            yield Problem(npu_request_path(pod_set),
                          f"{pod_set.role} pods request {pod_set.npus()} NPUs but {reference.role} pods "
                          f"{reference.npus()}; the operator sizes WORLD_SIZE from one count for all pods")


def _off_ascend(obj: ObjectContext, npu_sets: List[PodSet]) -> Iterator[Problem]:
    """NPUs of an AscendJob pod asked by containers other than ``ascend``: the operator does not count them."""
    fw = obj.framework()
    if fw is None or all(key in obj.labels for key in SOFT_SHARE_LABELS) or obj.npu_resource() == NPU_CORE:
        return
    if fw == MINDSPORE and [p.role for p in obj.pod_sets()] == [WORKER]:
        return  # the operator sets no env in a MindSpore job of Workers only
    for pod_set in npu_sets:
        ascend = ascend_container(pod_set)
        if ascend is None or (ascend.npu_amounts("limits") and not ascend.npu_amounts("requests")):
            continue  # AC210 (no ascend container) and AC701 (limits only) say what the operator does then
        others = [c for c in pod_set.containers() if c is not ascend and c.npu_request()[1] > 0]
        if not others:
            continue
        counted = next((npu_count(v) for v in ascend.npu_amounts("requests").values()), 0)
        names = ", ".join(repr(c.name) for c in others)
        hint = f"request all {pod_set.npus()} NPUs in the {CONTAINER_NAME} container and none in {names}"
        if counted == 0 and pod_set.role != WORKER and _sized_by_workers(npu_sets):
            world, rank = WORLD_ENV[fw]
            yield Problem(npu_request_path(pod_set, others[0]),
                          f"{pod_set.role} pods ask for {pod_set.npus()} NPUs, all in {names}: ascend-operator counts "
                          f"a pod's NPUs from its {CONTAINER_NAME} container only (0 here), and as no "
                          f"{CONTAINER_NAME} container outside the {WORKER} pods asks for NPUs it sizes the job by the "
                          f"{WORKER} pods alone: {world} leaves the {pod_set.role} pods out, and {pod_set.role} 0 and "
                          f"{WORKER} 0 both get {rank}=0", hint=hint)
            continue
        yield Problem(npu_request_path(pod_set, others[0]),
                      f"{pod_set.role} pods ask for {pod_set.npus()} NPUs, {pod_set.npus() - counted} of them in "
                      f"{names}: ascend-operator counts a pod's NPUs from its {CONTAINER_NAME} container only "
                      f"({counted} here), so {SIZE_ENV[fw]} leave those out", hint=hint)


def _asks_on_ascend(pod_set: PodSet) -> bool:
    ascend = ascend_container(pod_set)
    return ascend is not None and any(npu_count(v) > 0 for v in ascend.npu_amounts("requests").values())


def _sized_by_workers(npu_sets: List[PodSet]) -> bool:
    """Whether the operator sizes and ranks the job by its Workers alone: no other replica's ``ascend`` container
    asks for NPUs while a Worker's does (the operator then ranks Workers from 0, like the other replicas)."""
    return not any(_asks_on_ascend(p) for p in npu_sets if p.role != WORKER) \
        and any(_asks_on_ascend(p) for p in npu_sets if p.role == WORKER)
