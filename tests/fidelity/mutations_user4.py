"""Round four of the single-field mistakes of hand-written YAML: NPUs spread over several containers or
written as quantities, scheduler names on the pod templates, node-selector value case, a missing replica count.

Registered into :data:`tests.fidelity.mutations.MUTATIONS` (imported from there), after
:mod:`tests.fidelity.mutations_user3`.  Each says what it changes, not what upstream makes of it.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.fidelity import shapes as s
from tests.fidelity.mutations import Context, Objects, mutation
from tests.fidelity.mutations_job import _first_npu_container
from tests.fidelity.mutations_user2 import _first_npu_template, _init_npu


def _npu_values(objs: Objects) -> List[Dict[str, Any]]:
    """The limits / requests mappings of every NPU container that hold an NPU count."""
    out = []
    for container in s.npu_containers(s.job_of(objs)):
        for part in ("limits", "requests"):
            values = (container.get("resources") or {}).get(part) or {}
            if any(str(n).startswith(s.NPU_PREFIX) for n in values):
                out.append(values)
    return out


def _rewrite_npus(objs: Objects, new: Any) -> bool:
    """Every NPU count of every NPU container replaced by ``new(count)``."""
    found = _npu_values(objs)
    for values in found:
        for name in [n for n in values if str(n).startswith(s.NPU_PREFIX)]:
            values[name] = new(s.count_of(values[name]))
    return bool(found)


# --------------------------------------------------------------------------- NPUs over several containers


@mutation("npu-split-containers",
          "the first NPU pod's NPU count is split in halves between its NPU container and a second container")
def _npu_split(objs: Objects, ctx: Context) -> bool:
    template, container = _first_npu_template(objs), _first_npu_container(objs)
    resource, count = (s.npu_of(container) if container else None) or ("", 0)
    if not template or count < 2 or count % 2:
        return False
    s.set_npus(container, count // 2)
    half = {resource: count // 2}
    second = {"name": "ascend-2", "image": container.get("image", "busybox"), "command": ["sleep", "infinity"],
              "resources": {"limits": dict(half), "requests": dict(half)}}
    template["spec"]["containers"].append(second)
    return True


@mutation("sidecar-npu", "every NPU pod template gets a sidecar container asking for 1 NPU as well")
def _sidecar_npu(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        containers = (template.get("spec") or {}).get("containers") or []
        found = [s.npu_of(c) for c in containers if s.npu_of(c)]
        if not found:
            continue
        one = {found[0][0]: 1}  # type: ignore[index]
        containers.append({"name": "monitor", "image": containers[0].get("image", "busybox"),
                           "command": ["sleep", "infinity"],
                           "resources": {"limits": dict(one), "requests": dict(one)}})
        changed = True
    return changed


@mutation("npu-init-only", "the first NPU pod's NPUs are asked by an init container only, not by its NPU container")
def _npu_init_only(objs: Objects, ctx: Context) -> bool:
    container = _first_npu_container(objs)
    if not container or not _init_npu(objs, ctx):  # the init container asks for the container's NPUs
        return False
    resource = (s.npu_of(container) or ("", 0))[0]
    for part in ("limits", "requests"):
        (container["resources"].get(part) or {}).pop(resource, None)
    return True


# --------------------------------------------------------------------------- NPU counts as quantities


@mutation("npu-decimal", "NPU containers give their NPU count as a YAML float (8.0) in limits and requests")
def _npu_decimal(objs: Objects, ctx: Context) -> bool:
    return _rewrite_npus(objs, float)


@mutation("npu-milli", "NPU containers give their NPU count in thousandths (\"8000m\" for 8)")
def _npu_milli(objs: Objects, ctx: Context) -> bool:
    return _rewrite_npus(objs, lambda n: f"{n * 1000}m")


@mutation("npu-half", "NPU containers ask for half an NPU (\"500m\") in limits and requests")
def _npu_half(objs: Objects, ctx: Context) -> bool:
    return _rewrite_npus(objs, lambda n: "500m")


# --------------------------------------------------------------------------- scheduler names on the templates


@mutation("template-scheduler-first-only",
          "only the first pod template names schedulerName: volcano; the others leave it out")
def _scheduler_first_only(objs: Objects, ctx: Context) -> bool:
    templates = s.pod_templates(s.job_of(objs))
    if len(templates) < 2:
        return False
    for i, template in enumerate(templates):
        spec = template.setdefault("spec", {})
        if i == 0:
            spec["schedulerName"] = "volcano"
        else:
            spec.pop("schedulerName", None)
    return True


@mutation("template-scheduler-capitalised", "the last pod template names schedulerName: Volcano (capitalised)")
def _scheduler_capitalised(objs: Objects, ctx: Context) -> bool:
    templates = s.pod_templates(s.job_of(objs))
    if not templates:
        return False
    templates[-1].setdefault("spec", {})["schedulerName"] = "Volcano"
    return True


# --------------------------------------------------------------------------- node selectors and replica counts


@mutation("host-arch-uppercase", "the pod templates select host-arch in upper case (HUAWEI-ARM, HUAWEI-X86)")
def _host_arch_upper(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        selector = (template.get("spec") or {}).get("nodeSelector") or {}
        if isinstance(selector.get("host-arch"), str):
            selector["host-arch"] = selector["host-arch"].upper()
            changed = True
    return changed


@mutation("accel-capitalised", "the pod templates select accelerator-type capitalised (Module-910b-8)")
def _accel_capitalised(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        selector = (template.get("spec") or {}).get("nodeSelector") or {}
        value = selector.get(s.ACCEL_LABEL)
        if isinstance(value, str) and value != value.capitalize():
            selector[s.ACCEL_LABEL] = value.capitalize()
            changed = True
    return changed


@mutation("replicas-missing", "the last replica / task gives no replicas (minAvailable unchanged)")
def _replicas_missing(objs: Objects, ctx: Context) -> bool:
    found = s.replicas(s.job_of(objs))
    return bool(found) and found[-1][1].pop("replicas", None) is not None
