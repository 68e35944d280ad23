"""A job that gets a file ranktable has no ``rings-config-<job>`` ConfigMap in the same lint run.

**What.** A Volcano Job labelled ``ring-controller.atlas`` with several NPU
pods, and any job that mounts a ``rings-config-*`` ConfigMap, needs the ConfigMap
``rings-config-<job name>`` in the same namespace, among the files linted
together (a Volcano Job in one file and its ConfigMap in another are matched;
an unset namespace matches any) or in a YAML file beside the job's file (so a
pre-commit run over the changed files only still finds it). A single-pod job
that mounts no ranktable needs none, whatever its label (the label also tells
the scheduler the chip family of a dynamic vNPU job: keep it).

**Why.** ascend-operator writes the ranktable (``hccl.json``) for such jobs into
the ConfigMap of exactly that name, and only if it exists (it checks that the
ConfigMap exists and silently skips the write otherwise; the job is not failed),
so the pods never get a ranktable. A pod whose ConfigMap volume names a missing
ConfigMap is never started by a real kubelet. The ConfigMap may be created
outside the linted files, which lint cannot see, so this is |severity|. With
``--cluster`` or ``--cluster-snapshot`` the cluster answers: nothing is said when
the job's namespace has the ConfigMap, and a mounted one that is nowhere is
AC915's error.

**How to fix.** Add the ConfigMap (``ascend-compile compile`` emits it), and lint
it together with the job. If it lives elsewhere, suppress with a reason.

Failing::

    kind: Job                      # batch.volcano.sh/v1alpha1, alone in the run
    metadata:
      name: resnet
      labels: {ring-controller.atlas: ascend-910b}

Passing::

    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: rings-config-resnet
      labels: {ring-controller.atlas: ascend-910b}
    data:
      hccl.json: '{"status":"initializing"}'
    ---
    kind: Job
    metadata:
      name: resnet
      labels: {ring-controller.atlas: ascend-910b}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Tuple

from ...catalogue.citations import Citation, MC, OP, Place
from ...manifest.values import as_dict
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import CONFIG_MAP, RANKTABLE_CONFIGMAP_PREFIX, RING_LABEL
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef
    from ...findings import Path

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("saveRankTableConfigmap", OP + "pod.go", MC,
                    also=(Place("configmapExist", OP + "pod.go", MC),
                          Place("", OP + "consts.go (configmapPrefix)", MC)))


def _configmap_volumes(obj: ObjectContext) -> Iterator[Tuple[Path, str]]:
    for pod_set, i, volume in obj.ranktable_volumes():
        name = as_dict(volume.get("configMap")).get("name")
        if isinstance(name, str):
            yield pod_set.spec_path + ("volumes", i, "configMap", "name"), name


def facts(obj: ObjectContext) -> Any:
    """The job needs its ConfigMap: (the path to report, at its key?), else None.

    A job whose pods read no ranktable (one pod, no ranktable volume) needs none, whatever its
    ring-controller.atlas label says: the label is also what the scheduler reads to pick the chip
    family of a dynamic vNPU (npu-core) request.
    """
    if not obj.name or not (obj.ranktable_volumes() or obj.uses_file_ranktable()):
        return None
    mounted = list(_configmap_volumes(obj))
    if not (obj.uses_file_ranktable() or mounted):
        return None
    path = mounted[0][0] if mounted else ("metadata", "labels", RING_LABEL)
    return path, not mounted


def judge(job: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    path, key = fact
    wanted = RANKTABLE_CONFIGMAP_PREFIX + job.name
    if run.find(CONFIG_MAP, wanted, job.namespace, near=job) or run.exists_beside(CONFIG_MAP, wanted, job.namespace, job):
        return
    there = _in_cluster(job, wanted, run)
    if there or (there is False and not key):
        return  # the cluster has it; or the pods mount it and it is nowhere: AC915's error
    where = f" in namespace {job.namespace}" if job.namespace else ""
    yield Problem(path, f"no ConfigMap {wanted}{where} among the linted files or beside the job's file: ascend-operator writes the "
                        "ranktable only into an existing ConfigMap, so the pods never get it",
                  key=key)


def _in_cluster(job: ObjectRef, name: str, run: CrossRun) -> Optional[bool]:
    """Whether the job's namespace of the cluster (``--cluster``/``--cluster-snapshot``) has the ConfigMap; None
    without an inventory or when it does not know that namespace's ConfigMaps."""
    from ._cluster import inventory  # here: asked only when the files lack it, so a clean lint loads no cluster code

    inv = inventory(run)
    home = inv.namespace_of(job.namespace) if inv is not None else None
    return None if inv is None or home is None else inv.has_config_map(home, name)
