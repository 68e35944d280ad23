"""More single-field mistakes of hand-written YAML: scheduling labels, pod-spec rules, replica counts.

Registered into :data:`tests.fidelity.mutations.MUTATIONS` (imported from there), after
:mod:`tests.fidelity.mutations_user`.  Each says what it changes, not what upstream makes of it.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.fidelity import shapes as s
from tests.fidelity.mutations import Context, Objects, mutation
from tests.fidelity.mutations_job import _first_npu_container, _vcjob

#: a host port the parents never use
HOST_PORT = 18080


def _first_npu_template(objs: Objects) -> Dict[str, Any]:
    for template in s.pod_templates(s.job_of(objs)):
        if any(s.npu_of(c) for c in (template.get("spec") or {}).get("containers") or []):
            return template
    return {}


# --------------------------------------------------------------------------- pod-spec rules


@mutation("init-container-npu", "the first NPU pod gets an init container asking for its NPU container's NPUs")
def _init_npu(objs: Objects, ctx: Context) -> bool:
    template, container = _first_npu_template(objs), _first_npu_container(objs)
    if not template or not container:
        return False
    resource, count = s.npu_of(container) or ("", 0)
    npus = {resource: count}
    init = {"name": "warmup", "image": container.get("image", "busybox"), "command": ["true"],
            "resources": {"limits": dict(npus), "requests": dict(npus)}}
    template.setdefault("spec", {}).setdefault("initContainers", []).append(init)
    return True


@mutation("host-port-conflict",
          "the first NPU pod's NPU container and a new sidecar both ask for host port 18080")
def _host_port_conflict(objs: Objects, ctx: Context) -> bool:
    template, container = _first_npu_template(objs), _first_npu_container(objs)
    if not template or not container:
        return False
    container.setdefault("ports", []).append({"name": "metrics", "containerPort": HOST_PORT, "hostPort": HOST_PORT})
    sidecar = {"name": "exporter", "image": container.get("image", "busybox"), "command": ["sleep", "infinity"],
               "ports": [{"name": "exporter", "containerPort": HOST_PORT, "hostPort": HOST_PORT}]}
    template["spec"]["containers"].append(sidecar)
    return True


@mutation("toleration-operator-lowercase", "every pod template tolerates a taint with operator exists (lower case)")
def _toleration_lower(objs: Objects, ctx: Context) -> bool:
    templates = s.pod_templates(s.job_of(objs))
    for template in templates:
        template.setdefault("spec", {}).setdefault("tolerations", []).append(
            {"key": "node.kubernetes.io/unreachable", "operator": "exists", "effect": "NoExecute"})
    return bool(templates)


@mutation("host-arch-key-typo", "the pod templates' nodeSelector key host-arch is written host_arch")
def _arch_key_typo(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        selector = (template.get("spec") or {}).get("nodeSelector") or {}
        if "host-arch" in selector:
            selector["host_arch"] = selector.pop("host-arch")
            changed = True
    return changed


# --------------------------------------------------------------------------- replica counts and NPUs


@mutation("task-min-available-zero", "the Volcano Job's last task has minAvailable 0")
def _task_min_zero(objs: Objects, ctx: Context) -> bool:
    tasks: List[Dict[str, Any]] = _vcjob(objs).get("tasks") or []
    if not tasks:
        return False
    tasks[-1]["minAvailable"] = 0
    return True


def _last_worker(job: Dict[str, Any]) -> Dict[str, Any]:
    """The last non-leader replica of an AscendJob with a leader and workers ({} otherwise)."""
    found = [r for k, r in s.replicas(job) if k not in ("Master", "Scheduler", "Chief")]
    if not s.is_ascend_job(job) or len(s.replicas(job)) < 2 or not found:
        return {}
    return found[-1]


@mutation("replica-zero", "the AscendJob's last non-leader replica has replicas: 0 (minAvailable lowered to match)")
def _replica_zero(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    worker = _last_worker(job)
    if not worker:
        return False
    worker["replicas"] = 0
    holder, key = s.min_available(job)
    if key in holder:
        holder[key] = min(int(holder[key]), s.total_pods(job))
    return True


@mutation("worker-no-npu", "the AscendJob's last non-leader replica asks for no NPUs (the leader keeps its own)")
def _worker_no_npu(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in (_last_worker(s.job_of(objs)).get("template", {}).get("spec") or {}).get("containers") or []:
        for part in ("limits", "requests"):
            values = (container.get("resources") or {}).get(part) or {}
            for name in [n for n in values if str(n).startswith(s.NPU_PREFIX)]:
                del values[name]
                changed = True
    return changed


# --------------------------------------------------------------------------- scheduling labels and annotations


def _on_profile(ctx: Context, *names: str) -> bool:
    return bool(ctx.profile) and ctx.profile.name in names  # type: ignore[union-attr]


@mutation("npu-310-strategy-typo", "a 310 / 310P job is labelled npu-310-strategy: cards (for card)")
def _strategy_typo(objs: Objects, ctx: Context) -> bool:
    if not _on_profile(ctx, "310", "310p"):
        return False
    s.labels(s.job_of(objs))["npu-310-strategy"] = "cards"
    return True


@mutation("duo-label-missing", "a 310P job loses its duo: \"true\" label (the job's and its pods')")
def _duo_missing(objs: Objects, ctx: Context) -> bool:
    if not _on_profile(ctx, "310p"):
        return False
    job = s.job_of(objs)
    changed = False
    for held in [s.labels(job)] + [s.labels(t) for t in s.pod_templates(job)]:
        changed |= held.pop("duo", None) is not None
    return changed


@mutation("sp-block-not-multiple", "a super-pod job's sp-block is one and a half nodes' NPUs")
def _sp_not_multiple(objs: Objects, ctx: Context) -> bool:
    if not ctx.profile or not ctx.profile.super_pod:
        return False
    s.annotations(s.job_of(objs))["sp-block"] = str(ctx.profile.npus_per_node * 3 // 2)
    return True


@mutation("fault-scheduling-capitalised", "the job is labelled fault-scheduling: Grace (capitalised)")
def _fault_capital(objs: Objects, ctx: Context) -> bool:
    s.labels(s.job_of(objs))["fault-scheduling"] = "Grace"
    return True


@mutation("fault-scheduling-key-typo", "the job is labelled fault-schedule: grace (for fault-scheduling)")
def _fault_key_typo(objs: Objects, ctx: Context) -> bool:
    held = s.labels(s.job_of(objs))
    held.pop("fault-scheduling", None)
    held["fault-schedule"] = "grace"
    return True

