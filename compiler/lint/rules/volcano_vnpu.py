"""A dynamic vNPU pod that Volcano's deviceshare in MindCluster vNPU mode does not cut as asked.

Judged only when the run's device stack is ``volcano-vnpu:mindcluster``
(``cluster.deviceStack``, ``--device-stack``): Volcano's own scheduler (1.15)
with its deviceshare plugin cutting Atlas 300I Duo (310P) chips into vNPUs
for pods that ask for ``huawei.com/npu-core``, with no MindCluster scheduler
plugin.

**What.** A pod asking for ``huawei.com/npu-core`` without the pod label
``ring-controller.atlas: ascend-310P``; a ``vnpu-dvpp`` pod label other than
``yes``, ``no`` or ``null``; an AI-core count with no template (the templates
take 1, 2 or 4 cores; a multiple of a chip's 8 cores takes whole chips);
and, as notes, a ``vnpu-level`` other than ``low`` or ``high`` (read as
``low``) or a ``vnpu-dvpp`` on a request of other than 4 cores (not read).

**Why.** Without the label, deviceshare does not take the pod as a vNPU
request: it is placed by its ``huawei.com/npu-core`` count alone and no vNPU
is cut or assigned to it (the simulated cluster places it with no vNPU
annotation). An unknown ``vnpu-dvpp`` value, or a core count with no
template, makes every node refuse the pod: it never runs (the simulated
cluster shows both).

**How to fix.** Label the pod template ``ring-controller.atlas:
ascend-310P``; ask for 1, 2 or 4 cores (or whole chips); use the label values
the mode reads.

Failing::

    # device stack: volcano-vnpu:mindcluster
    metadata:
      labels: {ring-controller.atlas: ascend-310P, vnpu-dvpp: "on"}
    ...
      limits: {huawei.com/npu-core: 4}

Passing::

    metadata:
      labels: {ring-controller.atlas: ascend-310P, vnpu-dvpp: "yes"}
    ...
      limits: {huawei.com/npu-core: 4}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Tuple

from ...catalogue.citations import VC115, Citation, Place
from ...findings import INFO, WARNING, Path
from ...manifest.values import npu_count
from ...releases import DEVICESHARE_VOLCANO, VOLCANO_MINDCLUSTER_STACK
from ...vocabulary import (NPU_CORE_RESOURCE, RING_LABEL, VNPU_310P_RING_VALUE, VNPU_DVPP_LABEL, VNPU_DVPP_VALUES,
                           VNPU_LEVEL_LABEL, VNPU_LEVELS)
from ..rule import Problem

if TYPE_CHECKING:
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

#: the AI cores of the vNPU templates, and of one whole 310P chip
TEMPLATE_CORES, CHIP_CORES = (1, 2, 4), 8
#: the core count whose template reads vnpu-dvpp
DVPP_CORES = 4


_VNPU_VC = "pkg/scheduler/api/devices/ascend/mindcluster/ascend310p/vnpu/"
STACKS = (VOLCANO_MINDCLUSTER_STACK,)
CITATION = Citation("GetVTaskDVPP", _VNPU_VC + "device_manage.go", VC115, "err dvpp value:%s",
                    also=(Place("checkVNPUResourcesInPod", _VNPU_VC + "utils.go", VC115),
                          Place("getResTemplateFromTaskSetting", _VNPU_VC + "utils.go", VC115),
                          Place("GetVTaskLevel", _VNPU_VC + "device_manage.go", VC115),
                          Place("IsResourceWholeCard", _VNPU_VC + "device_manage.go", VC115),
                          Place("HasDeviceRequest", _VNPU_VC + "device_info.go", VC115)))


def _cores(pod_set: PodSet) -> Optional[Tuple[Path, int]]:
    """Where the first container that limits ``huawei.com/npu-core`` says so, and the cores it requests (its request,
    else its limit); None when no container limits it (the mode takes only a limit for a vNPU request)."""
    for container in pod_set.containers():
        limits = container.npu_amounts("limits")
        if NPU_CORE_RESOURCE in limits:
            requested = container.npu_amounts("requests").get(NPU_CORE_RESOURCE, limits[NPU_CORE_RESOURCE])
            return container.path + ("resources", "limits", NPU_CORE_RESOURCE), npu_count(requested)
    return None


def _labels_path(pod_set: PodSet, key: str) -> Path:
    return pod_set.spec_path[:-1] + ("metadata", "labels", key)


def _label_problems(pod_set: PodSet, cores: int) -> Iterator[Problem]:
    whole = cores > 0 and cores % CHIP_CORES == 0
    dvpp, level = pod_set.labels.get(VNPU_DVPP_LABEL), pod_set.labels.get(VNPU_LEVEL_LABEL)
    if dvpp is not None and dvpp not in VNPU_DVPP_VALUES and not whole:
        yield Problem(_labels_path(pod_set, VNPU_DVPP_LABEL), f"{pod_set.role}: {VNPU_DVPP_LABEL}: {dvpp!r} is none "
                      f"of {', '.join(VNPU_DVPP_VALUES)}: every node refuses the pod, it never runs",
                      hint=f"set {VNPU_DVPP_LABEL} to {' or '.join(VNPU_DVPP_VALUES)}, or leave it out")
    elif dvpp is not None and cores != DVPP_CORES and not whole:
        yield Problem(_labels_path(pod_set, VNPU_DVPP_LABEL), f"{pod_set.role}: {VNPU_DVPP_LABEL} is read only for a "
                      f"{DVPP_CORES}-core vNPU; this pod asks for {cores}", hint=f"leave {VNPU_DVPP_LABEL} out",
                      severity=INFO)
    if level is not None and level not in VNPU_LEVELS and not whole:
        yield Problem(_labels_path(pod_set, VNPU_LEVEL_LABEL), f"{pod_set.role}: {VNPU_LEVEL_LABEL}: {level!r} is "
                      f"neither {' nor '.join(VNPU_LEVELS)}: it is read as {VNPU_LEVELS[0]}",
                      hint=f"set {VNPU_LEVEL_LABEL} to {' or '.join(VNPU_LEVELS)}", severity=INFO)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        found = _cores(pod_set) if pod_set.replicas > 0 else None
        if found is None:
            continue
        at, cores = found
        if pod_set.labels.get(RING_LABEL) != VNPU_310P_RING_VALUE:
            yield Problem(at, f"{pod_set.role}: the pods ask for {NPU_CORE_RESOURCE} without the label {RING_LABEL}: "
                          f"{VNPU_310P_RING_VALUE}; Volcano {DEVICESHARE_VOLCANO}'s deviceshare takes them for no vNPU "
                          "request: they are placed by the core count alone and no vNPU is cut for them",
                          hint=f"label the pod template {RING_LABEL}: {VNPU_310P_RING_VALUE}", severity=WARNING)
            continue
        if cores not in TEMPLATE_CORES and cores % CHIP_CORES:
            yield Problem(at, f"{pod_set.role}: no vNPU template has {cores} AI cores (they have "
                          f"{', '.join(map(str, TEMPLATE_CORES))}; a multiple of {CHIP_CORES} takes whole chips): every "
                          "node refuses the pods, they never run", hint="ask for 1, 2 or 4 cores, or whole chips")
        yield from _label_problems(pod_set, cores)
