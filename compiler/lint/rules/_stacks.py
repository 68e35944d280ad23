"""What the device stacks other than MindCluster's offer and read (shared by the rules that judge NPU requests; no
rule lives here).

A run's target names its device stack (:data:`ascend_compile.releases.DEVICE_STACKS`).  HAMi's scheduler and
Volcano's deviceshare plugin in HAMi mode both place pods on nodes that run HAMi's Ascend device plugin: it offers
each chip model as its own resource (``huawei.com/Ascend910B3``), cut into vNPUs by the ``-memory`` companion (MiB,
rounded up to a template of the chip) and, for some chips, by the ``-core`` companion (a share of the AI cores, in
soft-slicing mode only).  :data:`HAMI_CHIPS` is HAMi's default device config (the ConfigMap its Ascend device plugin
ships, which Volcano's deviceshare plugin is pointed at in HAMi mode); the citations of the rules name the files.
"""
from __future__ import annotations

from typing import Dict, FrozenSet, Optional, Tuple

from ...manifest.pods import PodSet
from ...records import NamedTuple
from ...releases import DEVICE_STACKS, HAMI_STACK, HAMI_STACKS, VOLCANO_HAMI_STACK
from ...vocabulary import HAMI_ANNOTATION_PREFIX, HAMI_ONLY_RESOURCES, HAMI_POD_ANNOTATION
from ..context import RunContext

#: how a finding tells the user to name the stack the manifest was written for
SET_STACK = (f"set cluster.deviceStack in .ascend-compile.yaml or --device-stack ({HAMI_STACK} or "
             f"{VOLCANO_HAMI_STACK}) to judge it for the stack it was written for")


class Chip(NamedTuple):
    """One chip of HAMi's device config: its memory a whole card gives (``memoryAllocatable``) and the most a
    request may name (``memoryCapacity``), MiB; whether it has a ``-core`` resource; its templates (name, MiB),
    smallest first."""

    allocatable: int
    capacity: int
    core: bool
    templates: Tuple[Tuple[str, int], ...]


#: resource -> its chip, as HAMi's default device config says (Volcano's built-in default holds the Ascend310P entry
#: only: a cluster that runs Volcano in HAMi mode points it at HAMi's)
HAMI_CHIPS: Dict[str, Chip] = {
    "huawei.com/Ascend910A": Chip(32768, 32768, False,
                                  (("vir02", 2184), ("vir04", 4369), ("vir08", 8738), ("vir16", 17476))),
    "huawei.com/Ascend910B2": Chip(65536, 65536, False,
                                   (("vir03_1c_8g", 8192), ("vir06_1c_16g", 16384), ("vir12_3c_32g", 32768))),
    "huawei.com/Ascend910B3": Chip(65536, 65536, True, (("vir05_1c_16g", 16384), ("vir10_3c_32g", 32768))),
    "huawei.com/Ascend910B4-1": Chip(65536, 65536, False, (("vir05_1c_16g", 16384), ("vir10_3c_32g", 32768))),
    "huawei.com/Ascend910B4": Chip(32768, 32768, False, (("vir05_1c_8g", 8192), ("vir10_3c_16g", 16384))),
    "huawei.com/Ascend310P": Chip(21527, 24576, False, (("vir01", 3072), ("vir02", 6144), ("vir04", 12288))),
    "huawei.com/Ascend910C": Chip(65536, 65536, True, (("vir05_1c_16g", 16384), ("vir10_3c_32g", 32768))),
}
MEMORY_SUFFIX, CORE_SUFFIX = "-memory", "-core"


def stack_name(stack: str) -> str:
    return DEVICE_STACKS[stack]


def on_hami(run: RunContext) -> bool:
    """Whether the run judges for a stack whose nodes run HAMi's Ascend device plugin."""
    return run.target is not None and run.target.stack in HAMI_STACKS


def offered(run: RunContext) -> Optional[FrozenSet[str]]:
    """The NPU resources the nodes of the run's inventory offer (once per run); None without nodes read."""
    inventory = run.inventory
    if inventory is None or inventory.nodes is None:
        return None
    key = ("stacks.offered",)
    if key not in run.cluster_memo:
        run.cluster_memo[key] = inventory.offered()
    found: FrozenSet[str] = run.cluster_memo[key]
    return found


def hami_annotation(pod_set: PodSet) -> Optional[str]:
    """The first annotation of ``pod_set``'s pods that only HAMi reads (``huawei.com/vnpu-mode``, ``hami.io/...``),
    or None."""
    annotations = pod_set.metadata.get("annotations")
    if not isinstance(annotations, dict):
        return None
    return next((key for key in annotations if isinstance(key, str) and (
        key == HAMI_POD_ANNOTATION or key.startswith(HAMI_ANNOTATION_PREFIX))), None)


def hami_evidence(pod_set: PodSet, resource: str) -> str:
    """What says ``pod_set`` was written for HAMi's device plugin: its HAMi annotation, a ``-memory``/``-core``
    companion, or a resource only HAMi offers; "" when nothing does."""
    marker = hami_annotation(pod_set)
    if marker:
        return f"the pod's annotation {marker} is HAMi's"
    for container in pod_set.containers():
        companion = container.hami_companion()
        if companion:
            return f"{companion[-1]} is a HAMi vNPU companion resource"
    if resource in HAMI_ONLY_RESOURCES:
        return f"{resource} is a resource of HAMi's Ascend device plugin"
    return ""
