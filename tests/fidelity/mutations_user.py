"""Single-field mutations of what users write by hand: YAML types, typos, Kubernetes pod rules.

Registered into :data:`tests.fidelity.mutations.MUTATIONS` (imported from there), after the
job-level ones.  Like the others, each says what it changes, not what upstream makes of it.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.fidelity import shapes as s
from tests.fidelity.mutations import Context, Objects, mutation, npu_in_one_part, rename_resource
from tests.fidelity.mutations_job import _first_npu_container, _vcjob

# --------------------------------------------------------------------------- YAML types


@mutation("replicas-string", "the last replica / task gives its replicas as a string (\"2\")")
def _replicas_string(objs: Objects, ctx: Context) -> bool:
    found = s.replicas(s.job_of(objs))
    if not found:
        return False
    found[-1][1]["replicas"] = str(found[-1][1].get("replicas", 1))
    return True


@mutation("npu-string", "NPU containers give their NPU count as a string (\"8\") in limits and requests")
def _npu_string(objs: Objects, ctx: Context) -> bool:
    found = s.npu_containers(s.job_of(objs))
    for container in found:
        for part in ("limits", "requests"):
            values = (container.get("resources") or {}).get(part) or {}
            for name in [n for n in values if str(n).startswith(s.NPU_PREFIX)]:
                values[name] = str(values[name])
    return bool(found)


@mutation("env-value-integer", "the NPU containers get an env whose value is a YAML integer (value: 1)")
def _env_integer(objs: Objects, ctx: Context) -> bool:
    found = s.npu_containers(s.job_of(objs))
    for container in found:
        container.setdefault("env", []).append({"name": "HCCL_CONNECT_TIMEOUT", "value": 1800})
    return bool(found)


@mutation("fault-retry-integer", "the job's fault-retry-times label is a YAML integer (3, not \"3\")")
def _fault_retry_integer(objs: Objects, ctx: Context) -> bool:
    s.labels(s.job_of(objs))["fault-retry-times"] = 3
    return True


# --------------------------------------------------------------------------- typos


@mutation("resource-910b", "the NPU resource is named after the chip model (huawei.com/Ascend910B)")
def _resource_910b(objs: Objects, ctx: Context) -> bool:
    return rename_resource(objs, lambda name: "huawei.com/Ascend910B" if name == "huawei.com/Ascend910" else name)


@mutation("memory-unit-gb", "the first NPU container's memory limit is written 32GB (not 32Gi)")
def _memory_gb(objs: Objects, ctx: Context) -> bool:
    container = _first_npu_container(objs)
    if not container:
        return False
    container.setdefault("resources", {}).setdefault("limits", {})["memory"] = "32GB"
    return True


@mutation("fieldref-path-typo", "an env of the NPU containers reads metadata.annotation[...] (no s)")
def _fieldref_typo(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for env in container.get("env") or []:
            ref = (env.get("valueFrom") or {}).get("fieldRef") or {}
            path = str(ref.get("fieldPath", ""))
            if path.startswith("metadata.annotations["):
                ref["fieldPath"] = path.replace("metadata.annotations[", "metadata.annotation[", 1)
                changed = True
    return changed


@mutation("plugin-service", "the Volcano Job enables a job plugin named service (for svc)")
def _plugin_service(objs: Objects, ctx: Context) -> bool:
    spec = _vcjob(objs)
    if not spec:
        return False
    plugins: Dict[str, Any] = spec.get("plugins") or {}
    plugins.pop("svc", None)
    plugins["service"] = []
    spec["plugins"] = plugins
    return True


@mutation("success-policy-typo", "the AscendJob's successPolicy is AllWorker (no s)")
def _success_typo(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    if not s.is_ascend_job(job):
        return False
    job.setdefault("spec", {})["successPolicy"] = "AllWorker"
    return True


# --------------------------------------------------------------------------- pod rules and gang sizes


@mutation("cpu-request-over-limit", "the first NPU container requests more CPU than its CPU limit")
def _cpu_over(objs: Objects, ctx: Context) -> bool:
    container = _first_npu_container(objs)
    if not container:
        return False
    resources = container.setdefault("resources", {})
    resources.setdefault("requests", {})["cpu"] = "16"
    resources.setdefault("limits", {})["cpu"] = "8"
    return True


@mutation("npu-requests-only", "NPU containers give the NPU count in requests only, no limits")
def _npu_requests_only(objs: Objects, ctx: Context) -> bool:
    return npu_in_one_part(objs, "requests", "limits")


@mutation("task-min-available-over", "the Volcano Job's last task has a minAvailable one above its replicas")
def _task_min_over(objs: Objects, ctx: Context) -> bool:
    tasks: List[Dict[str, Any]] = _vcjob(objs).get("tasks") or []
    if not tasks:
        return False
    tasks[-1]["minAvailable"] = int(tasks[-1].get("replicas", 1)) + 1
    return True


@mutation("restart-policy-always", "the replicas / tasks' pods have restartPolicy Always")
def _restart_always(objs: Objects, ctx: Context) -> bool:
    return s.set_restart_policy(s.job_of(objs), "Always")


@mutation("host-network", "every pod template sets hostNetwork: true")
def _host_network(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        spec = template.setdefault("spec", {})
        changed |= spec.get("hostNetwork") is not True
        spec["hostNetwork"] = True
    return changed


@mutation("port-name-missing", "the NPU containers' ports have no name (no ascendjob-port)")
def _port_name(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for port in container.get("ports") or []:
            changed |= port.pop("name", None) is not None
    return changed
