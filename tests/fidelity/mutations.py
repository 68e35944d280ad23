"""Single-field mutations: the rejections issue 14 lists and the mistakes users make.

Each mutation changes one thing of a parent's objects in place and returns
True, or returns False when it does not apply to that parent (nothing to
change).  It says what it does, not what upstream will make of it: the oracle
decides that.  Registered in :data:`MUTATIONS` by name, in a fixed order.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional

from tests.fidelity import shapes as s
from tests.simcluster.nodes import HardwareProfile

Objects = List[Dict[str, Any]]


@dataclass(frozen=True)
class Context:
    profile: Optional[HardwareProfile]  # the parent's profile, when known
    profiles: Dict[str, HardwareProfile]

    def others(self) -> List[HardwareProfile]:
        """Other simulated profiles with the same NPU resource (a plausible wrong choice)."""
        mine = self.profile
        return [p for p in self.profiles.values() if mine and p.name != mine.name and p.simulated
                and p.resource == mine.resource and p.accelerator_type
                and p.accelerator_type != mine.accelerator_type]


Mutation = Callable[[Objects, Context], bool]
MUTATIONS: Dict[str, Mutation] = {}
DESCRIPTIONS: Dict[str, str] = {}


def mutation(name: str, description: str) -> Callable[[Mutation], Mutation]:
    def register(fn: Mutation) -> Mutation:
        MUTATIONS[name] = fn
        DESCRIPTIONS[name] = description
        return fn
    return register


def _allowed(ctx: Context, pods: int) -> List[int]:
    if not ctx.profile:
        return []
    per_pod = ctx.profile.raw["spec"].get("npusPerPod") or {}
    return [int(n) for n in per_pod.get("singlePod" if pods == 1 else "multiPod") or []]


def _set_all_npus(objs: Objects, count: int) -> bool:
    found = s.npu_containers(s.job_of(objs))
    for container in found:
        s.set_npus(container, count)
    return bool(found)


# --------------------------------------------------------------------------- NPU counts and resources


@mutation("npu-over-node", "every NPU container asks for twice the NPUs of one node")
def _npu_over_node(objs: Objects, ctx: Context) -> bool:
    return bool(ctx.profile) and _set_all_npus(objs, 2 * ctx.profile.npus_per_node)  # type: ignore[union-attr]


@mutation("npu-not-allowed", "every NPU container asks for a count (within one node) the profile does not allow")
def _npu_not_allowed(objs: Objects, ctx: Context) -> bool:
    allowed = _allowed(ctx, s.total_pods(s.job_of(objs)))
    bad = [n for n in range(1, (ctx.profile.npus_per_node if ctx.profile else 0) + 1) if n not in allowed]
    return bool(allowed and bad) and _set_all_npus(objs, bad[0])


@mutation("npu-one-per-pod", "a distributed job asks for 1 NPU per pod")
def _npu_one(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    if s.total_pods(job) < 2 or all(s.npu_of(c) == (s.npu_resource(job), 1) for c in s.npu_containers(job)):
        return False
    return _set_all_npus(objs, 1)


@mutation("npu-zero", "every NPU container asks for 0 NPUs")
def _npu_zero(objs: Objects, ctx: Context) -> bool:
    return _set_all_npus(objs, 0)


@mutation("npu-requests-differ", "the first NPU container requests one NPU fewer than its limit")
def _npu_requests_differ(objs: Objects, ctx: Context) -> bool:
    found = s.npu_containers(s.job_of(objs))
    if not found or (s.npu_of(found[0]) or ("", 0))[1] < 2:
        return False
    resource, count = s.npu_of(found[0]) or ("", 0)
    found[0]["resources"].setdefault("requests", {})[resource] = count - 1
    found[0]["resources"].setdefault("limits", {})[resource] = count
    return True


@mutation("npu-limits-only", "NPU containers give the NPU count in limits only (requests default to limits)")
def _npu_limits_only(objs: Objects, ctx: Context) -> bool:
    return npu_in_one_part(objs, "limits", "requests")


def npu_in_one_part(objs: Objects, keep: str, drop: str) -> bool:
    """Every NPU container's NPU count in resources ``keep`` only, none in ``drop``."""
    found = s.npu_containers(s.job_of(objs))
    for container in found:
        resource, count = s.npu_of(container) or ("", 0)
        container["resources"].setdefault(keep, {})[resource] = count
        container["resources"].get(drop, {}).pop(resource, None)
        if not container["resources"].get(drop):
            container["resources"].pop(drop, None)
    return bool(found)


@mutation("npu-uneven", "the first NPU pod template asks for a different (allowed) count than the others")
def _npu_uneven(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    found = s.npu_containers(job)
    if len(found) < 2:
        return False
    current = (s.npu_of(found[0]) or ("", 0))[1]
    other = [n for n in _allowed(ctx, s.total_pods(job)) if n != current]
    if not other:
        return False
    s.set_npus(found[0], other[0])
    return True


@mutation("resource-lowercase", "the NPU resource name is spelled in lower case (huawei.com/ascend910)")
def _resource_lower(objs: Objects, ctx: Context) -> bool:
    return rename_resource(objs, lambda name: name.lower())


@mutation("resource-other-chip", "the NPU resource names another chip (Ascend910 <-> Ascend310P)")
def _resource_other(objs: Objects, ctx: Context) -> bool:
    swap = {"huawei.com/Ascend910": "huawei.com/Ascend310P", "huawei.com/Ascend310P": "huawei.com/Ascend910",
            "huawei.com/Ascend310": "huawei.com/Ascend310P"}
    return rename_resource(objs, lambda name: swap.get(name, name))


def rename_resource(objs: Objects, rename: Callable[[str], str]) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for part in ("limits", "requests"):
            values = (container.get("resources") or {}).get(part) or {}
            for name in [n for n in values if str(n).startswith(s.NPU_PREFIX)]:
                if rename(name) != name:
                    values[rename(name)] = values.pop(name)
                    changed = True
    return changed


# --------------------------------------------------------------------------- node selection


def _set_selector(objs: Objects, key: str, value: Optional[str], *, first_only: bool = False) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        spec = template.setdefault("spec", {})
        selector = spec.get("nodeSelector") or {}
        if value is None:
            changed |= selector.pop(key, None) is not None
        elif selector.get(key) != value:
            selector[key] = value
            spec["nodeSelector"] = selector
            changed = True
        if first_only and changed:
            break
    return changed


@mutation("accel-missing", "no pod template has a nodeSelector accelerator-type")
def _accel_missing(objs: Objects, ctx: Context) -> bool:
    return _set_selector(objs, s.ACCEL_LABEL, None)


@mutation("accel-unknown", "every pod template selects an accelerator-type no node carries")
def _accel_unknown(objs: Objects, ctx: Context) -> bool:
    return _set_selector(objs, s.ACCEL_LABEL, "module-910b-9")


@mutation("accel-other-profile",
          "every pod template selects the accelerator-type of another profile with the same chip")
def _accel_other(objs: Objects, ctx: Context) -> bool:
    others = ctx.others()
    return bool(others) and _set_selector(objs, s.ACCEL_LABEL, str(others[0].accelerator_type))


@mutation("accel-one-replica", "only the first pod template selects another profile's accelerator-type")
def _accel_one(objs: Objects, ctx: Context) -> bool:
    others = ctx.others()
    if not others or len(s.pod_templates(s.job_of(objs))) < 2:
        return False
    return _set_selector(objs, s.ACCEL_LABEL, str(others[0].accelerator_type), first_only=True)


@mutation("accel-one-replica-no-card",
          "only the first pod template selects another profile's accelerator-type, neither containing card")
def _accel_one_no_card(objs: Objects, ctx: Context) -> bool:
    mine = ctx.profile.accelerator_type if ctx.profile else None
    others = [p for p in ctx.others() if "card" not in str(p.accelerator_type)]
    if not mine or "card" in mine or not others or len(s.pod_templates(s.job_of(objs))) < 2:
        return False
    return _set_selector(objs, s.ACCEL_LABEL, str(others[0].accelerator_type), first_only=True)


@mutation("host-arch-unknown", "every pod template selects a host-arch no node carries")
def _arch_unknown(objs: Objects, ctx: Context) -> bool:
    return _set_selector(objs, "host-arch", "huawei-riscv")


@mutation("host-arch-other", "every pod template selects the other host-arch (arm <-> x86)")
def _arch_other(objs: Objects, ctx: Context) -> bool:
    current = ctx.profile.host_arch if ctx.profile else "huawei-arm"
    return _set_selector(objs, "host-arch", "huawei-x86" if current == "huawei-arm" else "huawei-arm")


@mutation("policy-unknown", "the job's huawei.com/schedule_policy annotation names no known policy")
def _policy_unknown(objs: Objects, ctx: Context) -> bool:
    s.annotations(s.job_of(objs))[s.POLICY_ANNOTATION] = "chip8-node9"
    return True


@mutation("policy-own", "the job also names its profile's own schedule policy in huawei.com/schedule_policy")
def _policy_own(objs: Objects, ctx: Context) -> bool:
    policy = ctx.profile.raw["spec"].get("schedulePolicy") if ctx.profile else None
    notes = s.annotations(s.job_of(objs))
    if not policy or notes.get(s.POLICY_ANNOTATION) == policy:
        return False
    notes[s.POLICY_ANNOTATION] = str(policy)
    return True


@mutation("policy-other", "the job names another profile's schedule policy in huawei.com/schedule_policy")
def _policy_other(objs: Objects, ctx: Context) -> bool:
    mine = ctx.profile.raw["spec"].get("schedulePolicy") if ctx.profile else None
    others = sorted({str(p.raw["spec"]["schedulePolicy"]) for p in ctx.profiles.values()
                     if p.simulated and p.raw["spec"].get("schedulePolicy") not in (None, mine)})
    if not ctx.profile or not others:
        return False
    s.annotations(s.job_of(objs))[s.POLICY_ANNOTATION] = others[0]
    return True


@mutation("sp-block-non-super-pod", "a job for servers outside a super pod sets the sp-block annotation")
def _sp_block(objs: Objects, ctx: Context) -> bool:
    if not ctx.profile or ctx.profile.super_pod:
        return False
    s.annotations(s.job_of(objs))["sp-block"] = str(ctx.profile.npus_per_node)
    return True


@mutation("tor-affinity-bogus", "the job label tor-affinity has a value upstream does not know")
def _tor_bogus(objs: Objects, ctx: Context) -> bool:
    s.labels(s.job_of(objs))["tor-affinity"] = "big-model"
    return True


# --------------------------------------------------------------------------- the ring-controller label


@mutation("ring-job-missing", "the job has no ring-controller.atlas label")
def _ring_job_missing(objs: Objects, ctx: Context) -> bool:
    return s.labels(s.job_of(objs)).pop(s.RING_LABEL, None) is not None


@mutation("ring-pods-missing", "no pod template has the ring-controller.atlas label")
def _ring_pods_missing(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        changed |= s.labels(template).pop(s.RING_LABEL, None) is not None
    return changed


@mutation("ring-other-chip", "the job and its pods carry the ring-controller.atlas value of another chip")
def _ring_other(objs: Objects, ctx: Context) -> bool:
    return _set_ring(objs, {"ascend-910b": "ascend-910", "ascend-910": "ascend-910b"})


@mutation("ring-unknown", "the job and its pods carry a ring-controller.atlas value upstream does not know")
def _ring_unknown(objs: Objects, ctx: Context) -> bool:
    return _set_ring(objs, None)


def _set_ring(objs: Objects, swap: Optional[Dict[str, str]]) -> bool:
    job = s.job_of(objs)
    holders = [s.labels(job)] + [s.labels(t) for t in s.pod_templates(job)]
    changed = False
    for held in holders:
        value = held.get(s.RING_LABEL)
        if value is None:
            continue
        new = "ascend-9999" if swap is None else swap.get(str(value), value)
        changed |= new != value
        held[s.RING_LABEL] = new
    return changed


from tests.fidelity import mutations_job  # noqa: E402,F401  (registers the job-level mutations, in order)
from tests.fidelity import mutations_user  # noqa: E402,F401  (then the hand-written-YAML mistakes)
from tests.fidelity import mutations_user2  # noqa: E402,F401  (round two of those)
from tests.fidelity import mutations_user3  # noqa: E402,F401  (round three)
from tests.fidelity import mutations_user4  # noqa: E402,F401  (round four)
