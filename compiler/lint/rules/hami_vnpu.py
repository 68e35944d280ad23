"""A pod's NPU request that HAMi's Ascend device plugin, or Volcano's deviceshare in HAMi mode, cannot serve as asked.

Judged only when the run's device stack is ``hami`` or ``volcano-vnpu:hami``
(``cluster.deviceStack``, ``--device-stack``, or a cluster snapshot whose nodes
offer HAMi's resources): there the chip-model resources
(``huawei.com/Ascend910B3``) and their ``-memory`` and ``-core`` companions
are what the nodes offer, and AC316 says nothing of them.

**What.** A container that asks for several NPUs with a ``-memory`` below a
whole card's; a ``-memory`` above a whole card's; a ``-core`` companion
where the stack does not read it (Volcano 1.15 in HAMi mode reads no
``-core``, and HAMi's default device config names it only for the 910B3 and
910C); the pod annotation ``huawei.com/vnpu-mode`` with a value HAMi does not
know, or ``hami-core`` where it is not read (Volcano 1.15) or, with a cluster
inventory, where no node the pod may use slices softly (every such node
annotated ``hami-vnpu-core: "false"``); a resource
that is not among HAMi's default chips; and, as a note, a ``-memory`` that is
not one of the chip's template sizes (it is rounded up to the next template).

**Why.** Several vNPUs in one container must each be a whole card: HAMi's
admission webhook refuses the pod, and Volcano refuses it on every node, so it
never runs. A memory request above the card's: HAMi's webhook refuses it;
Volcano 1.15 reads it as no memory at all and gives the pod the chip's
smallest template. A ``-core`` request that the scheduler does not take as
its own is left to the node's resources, and the device plugin registers
only the chip's resource with the kubelet: no node offers it, the pods never
fit. Soft slicing (``hami-core``) needs Volcano 1.16: on 1.15 the pod
gets a template vNPU instead. HAMi's scheduler places a ``hami-core`` pod only
on a node that slices softly (HAMi's Ascend device plugin annotates every node
it registers with ``hami-vnpu-core``, "true" or "false"; a node without the
annotation follows the scheduler's device config, which a snapshot does not
read, so such a node is taken to slice softly): with none, the pod never
runs. A pod without the annotation fits either kind of node, so nothing is
said of it.

**How to fix.** Ask for one vNPU per container, or whole cards (no
``-memory``); keep ``-memory`` within the card; leave ``-core`` out where the
stack does not read it; set ``huawei.com/vnpu-mode: hami-core`` only where soft
slicing runs, and turn soft slicing on for the nodes that should serve it
(HAMi's per-node device config, or its ``vnpus.hamiVnpuCore``).

Failing::

    # device stack: volcano-vnpu:hami
    limits:
      huawei.com/Ascend910B3: 2
      huawei.com/Ascend910B3-memory: 16384

Passing::

    limits:
      huawei.com/Ascend910B3: 1
      huawei.com/Ascend910B3-memory: 16384
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import HAMI, HAMI_210, HAMI_PLUGIN, HAMI_PLUGIN_NODES, VC115, Citation, Place
from ...findings import INFO, WARNING, Path
from ...manifest.values import as_dict, npu_count
from ...releases import DEVICESHARE_VOLCANO, HAMI_STACKS, VOLCANO_HAMI_STACK
from ...vocabulary import HAMI_CORE_MODE, HAMI_NODE_CORE_ANNOTATION, HAMI_POD_ANNOTATION, HAMI_RESOURCE_PREFIX
from ..rule import Problem
from ._stacks import CORE_SUFFIX, HAMI_CHIPS, MEMORY_SUFFIX, Chip, offered

if TYPE_CHECKING:
    from ...manifest.pods import Container, PodSet
    from ..context import ObjectContext, RunContext


_HAMI_VC = "pkg/scheduler/api/devices/ascend/hami/device_info.go"
STACKS = HAMI_STACKS
CITATION = Citation("verifyReq", _HAMI_VC, VC115,
                    "vNPU does not support partial memory allocation when requesting multiple devices",
                    also=(Place("trimMemory", _HAMI_VC, VC115), Place("ResourceReqs", _HAMI_VC, VC115),
                          Place("GetResourceNames", _HAMI_VC, VC115), Place("GetIgnoredDevices", _HAMI_VC, VC115),
                          Place("", "pkg/scheduler/api/devices/config/vnpu.go (no core resource name)", VC115),
                          Place("MutateAdmission", "pkg/device/ascend/device.go", HAMI),
                          Place("GenerateResourceRequests", "pkg/device/ascend/device.go", HAMI),
                          Place("", "ascend-device-configmap.yaml (the chips, memory and templates)", HAMI_PLUGIN),
                          Place("registerKubelet", "internal/server/register.go", HAMI_PLUGIN),
                          Place("", "docs/volcano.md (hami-core needs Volcano 1.16)", HAMI_PLUGIN),
                          Place("Fit", "pkg/device/ascend/device.go (ModeNotFit: a hami-core pod on a node that does not "
                                "slice softly)", HAMI_210),
                          Place("registerHAMi", "internal/server/register.go (the hami-vnpu-core node annotation)",
                                HAMI_PLUGIN_NODES)))


def _amount(container: Container, name: str) -> Optional[Any]:
    """The container's limit for ``name``, else its request (as HAMi and Volcano read a companion); None: neither."""
    for section in ("limits", "requests"):
        amounts = container.npu_amounts(section)
        if name in amounts:
            return amounts[name]
    return None


def _path(container: Container, name: str) -> Path:
    section = "limits" if name in container.npu_amounts("limits") else "requests"
    return container.path + ("resources", section, name)


def _template(chip: Chip, memory: int) -> str:
    """What HAMi rounds ``memory`` MiB up to: a template, or a whole card."""
    for name, size in chip.templates:
        if memory <= size:
            return f"the template {name} ({size} MiB)"
    return f"a whole card ({chip.allocatable} MiB)"


def _memory(role: str, container: Container, resource: str, chip: Chip, volcano: bool) -> Iterator[Problem]:
    name = resource + MEMORY_SUFFIX
    value = _amount(container, name)
    if value is None:
        return
    memory, count, at = npu_count(value), npu_count(_amount(container, resource)), _path(container, name)
    if memory > chip.capacity:
        if volcano:
            yield Problem(at, f"{role}: {name} {memory} is more than a card holds ({chip.capacity} MiB); Volcano "
                          f"{DEVICESHARE_VOLCANO} reads it as no memory request and gives the pod "
                          f"{_template(chip, 0)}", hint=f"ask for at most {chip.capacity}, or leave {name} out for a "
                          "whole card", severity=WARNING)
        else:
            yield Problem(at, f"{role}: {name} {memory} is more than a card holds ({chip.capacity} MiB): HAMi's "
                          "admission webhook refuses the pod", hint=f"ask for at most {chip.capacity}, or leave "
                          f"{name} out for a whole card")
        return
    trimmed = next((size for _, size in chip.templates if memory <= size), chip.allocatable)
    if count > 1 and trimmed != chip.allocatable:
        refused = f"Volcano {DEVICESHARE_VOLCANO} refuses it on every node" if volcano else \
            "HAMi's admission webhook refuses the pod"
        yield Problem(at, f"{role}: {count} vNPUs of {name} {memory} in one container: several devices must each be "
                      f"a whole card, so {refused}", hint=f"ask for {resource}: 1 per container with {name}, or "
                      f"leave {name} out to take {count} whole cards")
    elif memory not in {size for _, size in chip.templates} and memory != chip.allocatable:
        yield Problem(at, f"{role}: {name} {memory} is no template size of the chip: the pod gets "
                      f"{_template(chip, memory)}", hint="ask for a template's size (" +
                      ", ".join(f"{n} {size}" for n, size in chip.templates) + ")", severity=INFO)


def _core(role: str, container: Container, resource: str, chip: Chip, volcano: bool) -> Iterator[Problem]:
    name = resource + CORE_SUFFIX
    if _amount(container, name) is None:
        return
    if volcano:
        yield Problem(_path(container, name), f"{role}: Volcano {DEVICESHARE_VOLCANO}'s deviceshare does not read "
                      f"{name} (soft slicing needs Volcano 1.16) and HAMi's device plugin registers only {resource} "
                      "with the kubelet: no node offers it, the pods never fit",
                      hint=f"leave {name} out (the -memory request picks the template)")
    elif not chip.core:
        yield Problem(_path(container, name), f"{role}: HAMi's default device config gives {resource} no {name}: "
                      "it is not read, and no node offers it unless your device config adds it",
                      hint=f"leave {name} out, or add it to your hami-scheduler-device ConfigMap", severity=WARNING)


def _mode(pod_set: PodSet, volcano: bool, run: RunContext) -> Iterator[Problem]:
    mode = as_dict(pod_set.metadata.get("annotations")).get(HAMI_POD_ANNOTATION)
    if mode is None:
        return
    at = pod_set.spec_path[:-1] + ("metadata", "annotations", HAMI_POD_ANNOTATION)
    if mode != HAMI_CORE_MODE:
        yield Problem(at, f"{pod_set.role}: {HAMI_POD_ANNOTATION}: {mode!r} is no mode HAMi knows; it reads only "
                      f"{HAMI_CORE_MODE!r} (soft slicing), anything else cuts template vNPUs",
                      hint=f"set {HAMI_CORE_MODE}, or leave the annotation out", severity=WARNING)
    elif volcano:
        yield Problem(at, f"{pod_set.role}: Volcano {DEVICESHARE_VOLCANO}'s deviceshare does not read "
                      f"{HAMI_POD_ANNOTATION} (soft slicing needs Volcano 1.16): it places the pod for a template "
                      "vNPU, the size its -memory rounds up to", hint="leave the annotation out, or run Volcano 1.16 "
                      "or later", severity=WARNING)
    else:
        yield from _hard_nodes(pod_set, at, run)


def _hard_nodes(pod_set: PodSet, at: Path, run: RunContext) -> Iterator[Problem]:
    """A ``hami-core`` pod on HAMi, against the run's inventory: an error when every node the pods may use that offers
    their resource is annotated as not slicing softly."""
    inventory = run.inventory
    if inventory is None or inventory.nodes is None:
        return
    from ._cluster import usable, where  # only with an inventory: a plain lint does not load the cluster model

    resources = sorted({c.npu_request()[0] or "" for c in pod_set.containers()} - {""})
    nodes = [n for n in usable(run, pod_set) if any(n.allocatable.get(r, 0) > 0 for r in resources)]
    if not nodes or any(n.soft_slicing is not False for n in nodes):
        return
    yield Problem(at, f"{pod_set.role}: the pods ask for soft slicing ({HAMI_POD_ANNOTATION}: {HAMI_CORE_MODE}) but "
                  f"none of the {len(nodes)} node(s) of {where(inventory)} they may use that offer "
                  f"{', '.join(resources)} slices softly (each is annotated {HAMI_NODE_CORE_ANNOTATION}: \"false\"): "
                  "HAMi's scheduler refuses the pods on every node, they never run",
                  hint="leave the annotation out for template vNPUs, or turn soft slicing on for those nodes (HAMi's "
                  "per-node device config, or vnpus.hamiVnpuCore)")


def _unknown(role: str, container: Container, resource: str) -> Problem:
    return Problem(_path(container, resource), f"{role}: {resource} is no chip of HAMi's default device config "
                   f"({', '.join(sorted(HAMI_CHIPS))}); no node offers it unless your device config adds it",
                   hint="request the resource of your chip model (kubectl describe node shows them)", severity=WARNING)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    volcano = run.target.stack == VOLCANO_HAMI_STACK
    nodes_offer = offered(run)
    for pod_set in obj.pod_sets():
        if pod_set.replicas <= 0 or not pod_set.npu_resource():
            continue
        yield from _mode(pod_set, volcano, run)
        for container in pod_set.containers():
            resource = container.npu_request()[0]
            if not resource or not resource.startswith(HAMI_RESOURCE_PREFIX):
                continue
            chip = HAMI_CHIPS.get(resource)
            if chip is None:
                if nodes_offer is None or resource not in nodes_offer:
                    yield _unknown(pod_set.role, container, resource)
                continue
            yield from _memory(pod_set.role, container, resource, chip, volcano)
            yield from _core(pod_set.role, container, resource, chip, volcano)
