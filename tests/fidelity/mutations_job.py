"""Single-field mutations of the job itself: gang size, replicas, labels, env, ranktable, policies, mounts.

Registered into :data:`tests.fidelity.mutations.MUTATIONS` (imported from there).
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.fidelity import shapes as s
from tests.fidelity.mutations import Context, Objects, mutation

#: a queue no cluster of the run has (the runner creates every other queue the jobs name)
UNKNOWN_QUEUE = "no-such-queue"


# --------------------------------------------------------------------------- gang size and replicas


@mutation("min-available-over", "minAvailable is one more than the job's pods")
def _min_over(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    holder, key = s.min_available(job)
    holder[key] = s.total_pods(job) + 1
    return True


@mutation("min-available-one", "a distributed job sets minAvailable 1")
def _min_one(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    holder, key = s.min_available(job)
    if s.total_pods(job) < 2 or holder.get(key) == 1:
        return False
    holder[key] = 1
    return True


@mutation("min-available-missing", "the job gives no minAvailable")
def _min_missing(objs: Objects, ctx: Context) -> bool:
    holder, key = s.min_available(s.job_of(objs))
    return holder.pop(key, None) is not None


@mutation("leader-type-wrong", "the AscendJob's leader replica has the leader type of another framework")
def _leader_wrong(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    specs = (job.get("spec") or {}).get("replicaSpecs") or {}
    leader = next((k for k in ("Master", "Scheduler", "Chief") if k in specs), None)
    if not s.is_ascend_job(job) or leader is None:
        return False
    other = {"Master": "Chief", "Scheduler": "Master", "Chief": "Master"}[leader]
    job["spec"]["replicaSpecs"] = {(other if k == leader else k): v for k, v in specs.items()}
    return True


@mutation("leader-two", "the AscendJob's leader replica has replicas: 2")
def _leader_two(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    specs = (job.get("spec") or {}).get("replicaSpecs") or {}
    leader = next((k for k in ("Master", "Scheduler", "Chief") if k in specs), None)
    if not s.is_ascend_job(job) or leader is None:
        return False
    specs[leader]["replicas"] = 2
    return True


@mutation("workers-plus-one", "the last replica / task gets one more pod (minAvailable unchanged)")
def _workers_plus(objs: Objects, ctx: Context) -> bool:
    found = s.replicas(s.job_of(objs))
    if not found or s.total_pods(s.job_of(objs)) >= 4:  # stay within the simulated cluster's 4 nodes per profile
        return False
    found[-1][1]["replicas"] = int(found[-1][1].get("replicas", 1)) + 1
    return True


@mutation("replicas-negative", "the last replica / task has replicas: -1")
def _replicas_negative(objs: Objects, ctx: Context) -> bool:
    found = s.replicas(s.job_of(objs))
    if not found:
        return False
    found[-1][1]["replicas"] = -1
    return True


@mutation("framework-label-capitalised", "the AscendJob's framework label is capitalised (PyTorch)")
def _framework_caps(objs: Objects, ctx: Context) -> bool:
    held = s.labels(s.job_of(objs))
    if not s.is_ascend_job(s.job_of(objs)) or "framework" not in held:
        return False
    held["framework"] = str(held["framework"]).capitalize()
    return True


@mutation("framework-label-missing", "the job has no framework label")
def _framework_missing(objs: Objects, ctx: Context) -> bool:
    return s.labels(s.job_of(objs)).pop("framework", None) is not None


# --------------------------------------------------------------------------- containers, env, mounts


def _first_npu_container(objs: Objects) -> Dict[str, Any]:
    found = s.npu_containers(s.job_of(objs))
    return found[0] if found else {}


@mutation("container-renamed", "every NPU container is named main instead of ascend")
def _container_renamed(objs: Objects, ctx: Context) -> bool:
    found = s.npu_containers(s.job_of(objs))
    for container in found:
        container["name"] = "main"
    return bool(found)


@mutation("visible-devices-wrong", "ASCEND_VISIBLE_DEVICES reads the annotation of another NPU resource")
def _visible_wrong(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for env in container.get("env") or []:
            ref = ((env.get("valueFrom") or {}).get("fieldRef") or {})
            if env.get("name") == "ASCEND_VISIBLE_DEVICES" and ref.get("fieldPath"):
                ref["fieldPath"] = "metadata.annotations['huawei.com/Ascend310P']" \
                    if "Ascend310P" not in ref["fieldPath"] else "metadata.annotations['huawei.com/Ascend910']"
                changed = True
    return changed


@mutation("env-xdl-ip-missing", "the NPU containers have no XDL_IP env")
def _xdl_missing(objs: Objects, ctx: Context) -> bool:
    return _drop_env(objs, "XDL_IP")


@mutation("env-framework-lowercase", "the env framework of the NPU containers is lower case (pytorch)")
def _env_framework(objs: Objects, ctx: Context) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        for env in container.get("env") or []:
            value = env.get("value")
            if env.get("name") == "framework" and isinstance(value, str) and value != value.lower():
                env["value"] = env["value"].lower()
                changed = True
    return changed


def _drop_env(objs: Objects, name: str) -> bool:
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        before = container.get("env") or []
        container["env"] = [e for e in before if e.get("name") != name]
        changed |= len(container["env"]) != len(before)
    return changed


@mutation("mount-no-volume", "the first NPU container mounts a volume its pod does not define")
def _mount_no_volume(objs: Objects, ctx: Context) -> bool:
    container = _first_npu_container(objs)
    if not container:
        return False
    container.setdefault("volumeMounts", []).append({"name": "checkpoints", "mountPath": "/job/ckpt"})
    return True


@mutation("volume-duplicate", "every pod defines its first volume twice")
def _volume_duplicate(objs: Objects, ctx: Context) -> bool:
    changed = False
    for template in s.pod_templates(s.job_of(objs)):
        volumes = (template.get("spec") or {}).get("volumes") or []
        if volumes:
            volumes.append(dict(volumes[0]))
            changed = True
    return changed


# --------------------------------------------------------------------------- the ranktable ConfigMap


def _ranktable(objs: Objects) -> List[Dict[str, Any]]:
    return s.ranktable_configmaps(objs)


@mutation("ranktable-configmap-missing", "the rings-config-<job> ConfigMap is left out")
def _rt_missing(objs: Objects, ctx: Context) -> bool:
    found = _ranktable(objs)
    for cm in found:
        objs.remove(cm)
    return bool(found)


@mutation("ranktable-volume-other-name", "the ranktable volume names a ConfigMap the file defines under another name")
def _rt_other_name(objs: Objects, ctx: Context) -> bool:
    found = _ranktable(objs)
    if not found:
        return False
    name = found[0]["metadata"]["name"]
    volumes = s.configmap_volumes(s.job_of(objs), name)
    for _spec, volume in volumes:
        volume["configMap"]["name"] = name.replace("rings-config-", "rings-config-x")
    return bool(volumes)


@mutation("ranktable-mount-missing", "the NPU containers do not mount the ranktable volume")
def _rt_mount_missing(objs: Objects, ctx: Context) -> bool:
    found = _ranktable(objs)
    if not found:
        return False
    names = {v["name"] for _spec, v in s.configmap_volumes(s.job_of(objs), found[0]["metadata"]["name"])}
    changed = False
    for container in s.npu_containers(s.job_of(objs)):
        before = container.get("volumeMounts") or []
        container["volumeMounts"] = [m for m in before if m.get("name") not in names]
        changed |= len(before) != len(container["volumeMounts"])
    return changed


@mutation("ranktable-label-missing", "the rings-config-<job> ConfigMap has no ring-controller.atlas label")
def _rt_label(objs: Objects, ctx: Context) -> bool:
    found = _ranktable(objs)
    return bool(found) and s.labels(found[0]).pop(s.RING_LABEL, None) is not None


# --------------------------------------------------------------------------- Volcano Job fields


def _vcjob(objs: Objects) -> Dict[str, Any]:
    job = s.job_of(objs)
    return {} if s.is_ascend_job(job) else job.setdefault("spec", {})


def _set_vcjob(objs: Objects, key: str, value: Any) -> bool:
    """Set a field of a Volcano Job's spec; False for an AscendJob."""
    spec = _vcjob(objs)
    if spec:
        spec[key] = value
    return bool(spec)


@mutation("policies-duplicate-event", "two job policies name the same event")
def _policies_dup(objs: Objects, ctx: Context) -> bool:
    return _set_vcjob(objs, "policies", [{"event": "PodEvicted", "action": "RestartJob"},
                                         {"event": "PodEvicted", "action": "AbortJob"}])


@mutation("policies-bad-action", "a job policy has an action Volcano does not know (Restart)")
def _policies_action(objs: Objects, ctx: Context) -> bool:
    return _set_vcjob(objs, "policies", [{"event": "PodEvicted", "action": "Restart"}])


@mutation("policies-bad-event", "a job policy has an event Volcano does not know (PodCrashed)")
def _policies_event(objs: Objects, ctx: Context) -> bool:
    return _set_vcjob(objs, "policies", [{"event": "PodCrashed", "action": "RestartJob"}])


@mutation("max-retry-negative", "the Volcano Job has maxRetry: -1")
def _max_retry(objs: Objects, ctx: Context) -> bool:
    return _set_vcjob(objs, "maxRetry", -1)


@mutation("task-name-duplicate", "the Volcano Job's tasks all get the same name")
def _task_dup(objs: Objects, ctx: Context) -> bool:
    tasks = _vcjob(objs).get("tasks") or []
    if len(tasks) < 2:
        tasks.append(dict(tasks[0])) if tasks else None
    for task in tasks:
        task["name"] = "worker"
    return len(tasks) >= 2


# --------------------------------------------------------------------------- scheduling fields


@mutation("scheduler-default", "schedulerName is default-scheduler")
def _scheduler_default(objs: Objects, ctx: Context) -> bool:
    s.job_of(objs).setdefault("spec", {})["schedulerName"] = "default-scheduler"
    return True


@mutation("scheduler-missing", "the job gives no schedulerName")
def _scheduler_missing(objs: Objects, ctx: Context) -> bool:
    return s.job_of(objs).setdefault("spec", {}).pop("schedulerName", None) is not None


@mutation("queue-unknown", "the job names a queue that does not exist")
def _queue_unknown(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    holder = s.min_available(job)[0] if s.is_ascend_job(job) else job.setdefault("spec", {})
    holder["queue"] = UNKNOWN_QUEUE
    return True


@mutation("queue-missing", "the job names no queue")
def _queue_missing(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    holder = s.min_available(job)[0] if s.is_ascend_job(job) else job.setdefault("spec", {})
    return holder.pop("queue", None) is not None


@mutation("restart-policy-bogus", "the replicas / tasks' pods have restartPolicy Sometimes")
def _restart_bogus(objs: Objects, ctx: Context) -> bool:
    return s.set_restart_policy(s.job_of(objs), "Sometimes")


@mutation("name-uppercase", "the job's name has upper-case letters")
def _name_upper(objs: Objects, ctx: Context) -> bool:
    return _rename(objs, "Train-" + str(s.job_of(objs)["metadata"]["name"]))


@mutation("name-long", "the job's name is 60 characters long (pod names pass 63)")
def _name_long(objs: Objects, ctx: Context) -> bool:
    return _rename(objs, (str(s.job_of(objs)["metadata"]["name"]) + "-" + "x" * 60)[:60])


def _rename(objs: Objects, new: str) -> bool:
    """The job renamed everywhere its name appears (its ConfigMaps, selectors, env), as a user would."""
    import json

    old = str(s.job_of(objs)["metadata"]["name"])
    objs[:] = json.loads(json.dumps(objs).replace(old, new))
    return True


@mutation("fault-retry-on-failure", "fault-retry-times: 3 with restartPolicy OnFailure on every replica / task")
def _fault_retry(objs: Objects, ctx: Context) -> bool:
    job = s.job_of(objs)
    s.labels(job)["fault-retry-times"] = "3"
    return s.set_restart_policy(job, "OnFailure")


@mutation("fault-scheduling-grace", "the job is labelled fault-scheduling: grace")
def _fault_grace(objs: Objects, ctx: Context) -> bool:
    held = s.labels(s.job_of(objs))
    if held.get("fault-scheduling") == "grace":
        return False
    held["fault-scheduling"] = "grace"
    return True
