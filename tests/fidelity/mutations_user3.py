"""Round three of the single-field mistakes of hand-written YAML: Volcano Job task wiring and plugins,
fault-tolerance labels, the ranktable mount, scaling and switch-affinity labels.

Registered into :data:`tests.fidelity.mutations.MUTATIONS` (imported from there), after
:mod:`tests.fidelity.mutations_user2`.  Each says what it changes, not what upstream makes of it.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.fidelity import shapes as s
from tests.fidelity.mutations import Context, Objects, mutation
from tests.fidelity.mutations_job import _first_npu_container, _vcjob

#: the path the ranktable is mounted at by upstream's samples, and a plausible wrong one
RANKTABLE_PATH = "/user/serverid/devindex/config"
OTHER_PATH = "/etc/hccl"


def _tasks(objs: Objects) -> List[Dict[str, Any]]:
    return [t for t in _vcjob(objs).get("tasks") or [] if isinstance(t, dict)]


# --------------------------------------------------------------------------- Volcano Job tasks and plugins


@mutation("depends-on-unknown-task", "the Volcano Job's last task dependsOn a task named launcher, which it lacks")
def _depends_unknown(objs: Objects, ctx: Context) -> bool:
    tasks = _tasks(objs)
    if not tasks or any(t.get("name") == "launcher" for t in tasks):
        return False
    tasks[-1]["dependsOn"] = {"name": ["launcher"]}
    return True


@mutation("plugin-mpi", "the Volcano Job also enables the mpi job plugin (no task is named master)")
def _plugin_mpi(objs: Objects, ctx: Context) -> bool:
    spec = _vcjob(objs)
    if not spec:
        return False
    plugins = spec.get("plugins")
    if not isinstance(plugins, dict):
        plugins = spec["plugins"] = {}
    plugins["mpi"] = []
    return True


@mutation("task-policy-bad-action", "the Volcano Job's last task gets a policy PodFailed -> Restart (no such action)")
def _task_policy(objs: Objects, ctx: Context) -> bool:
    tasks = _tasks(objs)
    if not tasks:
        return False
    tasks[-1].setdefault("policies", []).append({"event": "PodFailed", "action": "Restart"})
    return True


@mutation("ttl-negative", "the job's ttlSecondsAfterFinished is -1 (runPolicy for an AscendJob)")
def _ttl_negative(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    spec = job.setdefault("spec", {})
    holder = spec.setdefault("runPolicy", {}) if s.is_ascend_job(job) else spec
    holder["ttlSecondsAfterFinished"] = -1
    return True


@mutation("image-missing", "the first NPU container has no image")
def _image_missing(objs: Objects, ctx: Context) -> bool:
    container = _first_npu_container(objs)
    return bool(container) and container.pop("image", None) is not None


@mutation("replica-type-lowercase", "the AscendJob's Worker replica type is written worker")
def _replica_lower(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    specs = (job.get("spec") or {}).get("replicaSpecs") or {}
    if not s.is_ascend_job(job) or "Worker" not in specs:
        return False
    specs["worker"] = specs.pop("Worker")
    return True


# --------------------------------------------------------------------------- labels and annotations


@mutation("scaleout-type-lowercase", "the AscendJob is labelled scaleout-type: roce (lower case)")
def _scaleout_lower(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    if not s.is_ascend_job(job):
        return False
    s.labels(job)["scaleout-type"] = "roce"
    return True


@mutation("pod-rescheduling-true", "the job is labelled pod-rescheduling: \"true\" (for on)")
def _pod_rescheduling(objs: Objects, ctx: Context) -> bool:
    s.labels(s.job_of(objs))["pod-rescheduling"] = "true"
    return True


@mutation("tor-affinity-annotation", "the job gives tor-affinity: normal-schema as an annotation, not a label")
def _tor_annotation(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    s.labels(job).pop("tor-affinity", None)
    s.annotations(job)["tor-affinity"] = "normal-schema"
    return True


# --------------------------------------------------------------------------- the ranktable mount


@mutation("ranktable-mount-path-other", f"the NPU containers mount the ranktable volume at {OTHER_PATH}")
def _rt_mount_path(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for mount in container.get("volumeMounts") or []:
            if mount.get("mountPath") == RANKTABLE_PATH:
                mount["mountPath"] = OTHER_PATH
                changed = True
    return changed


@mutation("ranktable-data-key-typo", "the rings-config-<job> ConfigMap's data key hccl.json is written hccl-json")
def _rt_data_key(objs: Objects, ctx: Context) -> bool:
    found = s.ranktable_configmaps(objs)
    data = (found[0].get("data") or {}) if found else {}
    if "hccl.json" not in data:
        return False
    data["hccl-json"] = data.pop("hccl.json")
    return True
