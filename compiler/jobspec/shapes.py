"""Job shapes beyond a training job with the framework's default wiring.

* ``ranktable: none``: a Volcano Job without the ranktable ConfigMap, its mount, the ranktable env and job
  plugins (:mod:`.volcano`), with the job's ``ring-controller.atlas`` label, as upstream's inference samples
  (``MD: samples/inference/volcano/infer-vcjob-910.yaml``);
* ``ranktableVolume``: the operator's shared ranktable directory reached over NFS or a PVC instead of the
  node path (the operator finds the job's directory by the volume *name* ``ranktable``,
  ``ascend-operator/pkg/ranktable/utils/util.go`` GenRankTableDir, so any volume source works);
* ``schedulerHoldsNpus``: a MindSpore Scheduler that is itself an NPU pod (the operator detects it,
  ``controllers/v1/utils.go`` checkNonWorkerRplMountChips);
* ``multiLevel``: the scheduler's multilevel handler (``ascend-for-volcano/internal/npu/policy/
  multilevelscheduling``), checked with the arithmetic lint uses (:func:`ascend_compile.hardware.arithmetic.check_multi_level`).
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

from ..hardware import arithmetic
from ..catalogue import MULTI_LEVEL, SPEC_INVALID
from ..hardware.profiles import Profile
from ..vocabulary import (ASCEND_910, ASCEND_JOB, MINDSPORE, RANKTABLE_HOSTPATH_VOLUME, RANKTABLE_MOUNT_PATH,
                          RANKTABLE_SHARED_DIR)
from .model import Volume
from .steps import Problems


def ranktable_volume(spec: Mapping[str, Any], ranktable: str, job: str, namespace: Optional[str],
                     problems: Problems) -> Optional[Volume]:
    """The ``ranktable`` volume when ``ranktableVolume`` names shared storage, else None (the node's path)."""
    raw = spec.get("ranktableVolume")
    if raw is None:
        return None
    if ranktable != "hostPath":
        problems.add(SPEC_INVALID, ("spec", "ranktableVolume"),
                     f"ranktableVolume is how pods reach the operator's shared directory "
                     f"({RANKTABLE_SHARED_DIR}); it needs ranktable: hostPath, not {ranktable}",
                     "set ranktable: hostPath, or remove ranktableVolume", key=True)
        return None
    if len(raw) != 1:
        problems.add(SPEC_INVALID, ("spec", "ranktableVolume"),
                     f"ranktableVolume needs exactly one of nfs or pvc, found {', '.join(raw) or 'none'}",
                     "give nfs: server:/export or pvc: <claim>", key=True)
        return None
    subdir = f"{namespace}.{job}"
    if "nfs" in raw:
        server, _, export = str(raw["nfs"]).partition(":")
        source: Dict[str, Any] = {"nfs": {"server": server, "path": export.rstrip("/") + "/" + subdir}}
        return Volume(RANKTABLE_HOSTPATH_VOLUME, RANKTABLE_MOUNT_PATH, source)
    source = {"persistentVolumeClaim": {"claimName": raw["pvc"]}}
    return Volume(RANKTABLE_HOSTPATH_VOLUME, RANKTABLE_MOUNT_PATH, source, sub_path=subdir)


def scheduler_holds_npus(spec: Mapping[str, Any], framework: str, target: str, pods: int,
                         problems: Problems) -> bool:
    holds = bool(spec.get("schedulerHoldsNpus", False))
    if not holds:
        return False
    if framework != MINDSPORE or target != ASCEND_JOB:
        problems.add(SPEC_INVALID, ("spec", "schedulerHoldsNpus"),
                     "schedulerHoldsNpus is for MindSpore AscendJobs (a PyTorch Master or TensorFlow Chief always "
                     "holds NPUs; a Volcano Job has no Scheduler)", "remove schedulerHoldsNpus")
        return False
    if pods < 2:
        problems.add(SPEC_INVALID, ("spec", "schedulerHoldsNpus"),
                     "schedulerHoldsNpus needs at least 2 NPU pods: the Scheduler and a Worker",
                     "use 2 or more pods, or remove schedulerHoldsNpus (a one-pod MindSpore job gets an NPU-less "
                     "Scheduler and one Worker)")
    return True


def multi_level(spec: Mapping[str, Any], prof: Profile, layout: Tuple[int, int], problems: Problems) -> Tuple[int, ...]:
    """The levels of ``multiLevel``, checked against the multilevel handler's rules."""
    levels = tuple(spec.get("multiLevel") or ())
    if not levels:
        return ()
    pods, npus_per_pod = layout
    if prof.resource != ASCEND_910:
        problems.add(MULTI_LEVEL, ("spec", "multiLevel"),
                     f"the multilevel handler schedules {ASCEND_910} only; profile {prof.name} requests "
                     f"{prof.resource}", "remove multiLevel", key=True)
        return levels
    if pods and npus_per_pod != prof.npus_per_node:
        problems.add(MULTI_LEVEL, ("spec", "multiLevel"),
                     f"multi-level scheduling places whole nodes: each pod must request the node's "
                     f"{prof.npus_per_node} NPUs, not {npus_per_pod}",
                     f"use npus as a multiple of {prof.npus_per_node}", key=True)
    for v in arithmetic.check_multi_level(levels, pods) if pods else ():
        problems.add(v.rule, ("spec", "multiLevel"), v.message, v.hint, key=True)
    return levels
