"""What a manifest says, read as candidate values of spec fields (import tries each; compile decides)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..manifest.job import Manifest
from ..manifest.pods import PodSet
from ..manifest.values import as_dict, as_int, as_list
from ..hardware.arithmetic import parse_multi_level
from ..vocabulary import (ACCELERATOR_TYPE_LABEL, AFFINITY_CONFIG_ANNOTATION, ASCEND_JOB, FAULT_RETRY_TIMES_LABEL,
                          FAULT_SCHEDULING_LABEL, FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, FRAMEWORKS, HOST_ARCH_LABEL,
                          LEADERS, POD_RESCHEDULING_LABEL, RA_BLOCK_ANNOTATION, RANKTABLE_MOUNT_PATH,
                          RANKTABLE_SHARED_DIR, RECOVER_STRATEGY_ANNOTATION, SCHEDULE_POLICY_ANNOTATION, SHM_VOLUME,
                          SP_BLOCK_ANNOTATION, SUB_HEALTHY_LABEL, TOR_AFFINITY_LABEL, VOLCANO_JOB,
                          WAIT_RESCHEDULE_TIMEOUT_ANNOTATION)

Candidate = Tuple[str, Any]  # (spec field, value), or (TOGETHER, {field: value, ...})
TOGETHER = ""
_ENUMS = {"scheduling": ("nodeSelector", "schedulePolicy", "none"), "ranktable": ("env", "file", "hostPath", "none"),
          "hostArch": ("huawei-arm", "huawei-x86"), "resetConfig": ("hostPath", "configMap")}


def target_of(job: Manifest) -> str:
    return ASCEND_JOB if job.kind == ASCEND_JOB else VOLCANO_JOB


def named_framework(job: Manifest) -> Optional[str]:
    """The framework the manifest says: its framework label, the leader replica type of one (an AscendJob's
    Master, Scheduler or Chief), or the framework env of its pods (the ranktable start scripts read it)."""
    named = job.framework()
    if named:
        return named
    leaders = {leader: framework for framework, leader in LEADERS.items()}
    roles = {leaders[p.role] for p in job.pod_sets() if p.role in leaders} if job.kind == ASCEND_JOB else set()
    by_env = {value: framework for framework, value in FRAMEWORK_ENV_VALUES.items()}
    for pods in job.pod_sets():
        for container in pods.containers():
            found = container.env_named(FRAMEWORK_ENV)
            value = found[1].get("value") if found else None
            if isinstance(value, str) and value in by_env:
                roles.add(by_env[value])
    return roles.pop() if len(roles) == 1 else None


def frameworks(job: Manifest) -> Tuple[str, ...]:
    """The frameworks import tries: the one the manifest says, else each (the closest wins, and the spec says
    the manifest named none)."""
    named = named_framework(job)
    return (named,) if named else FRAMEWORKS


def main_pod_set(job: Manifest) -> Optional[PodSet]:
    npu = job.npu_pod_sets()
    return npu[-1] if npu else None


def main_container(job: Manifest) -> Dict[str, Any]:
    pod_set = main_pod_set(job)
    containers = pod_set.containers() if pod_set else []
    return containers[0].data if containers else {}


def npu_forms(job: Manifest) -> List[Dict[str, Any]]:
    """The ways a spec can ask for the job's NPUs: a total, or pods and NPUs per pod."""
    sets = job.npu_pod_sets()
    if not sets:
        return []
    per_pod = max(p.npus() for p in sets)
    pods = sum(max(p.replicas, 0) for p in sets)
    total = sum(max(p.replicas, 0) * p.npus() for p in sets)
    return [{"npus": total}, {"pods": pods, "npusPerPod": per_pod}]


def container_fields(container: Dict[str, Any]) -> List[Candidate]:
    out: List[Candidate] = []
    for key in ("command", "args"):
        value = container.get(key)
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            out.append((key, list(value)))
    for key in ("workingDir", "imagePullPolicy"):
        if isinstance(container.get(key), str):
            out.append((key, container[key]))
    return out


def env_map(container: Dict[str, Any], generated: Any) -> Optional[Any]:
    """The container's env entries the compiler does not write itself, as the spec's env: a map of name to value
    when every one is a plain value, else the list of entries (a ``valueFrom`` keeps its own form)."""
    skip = {e.get("name") for e in as_list(generated) if isinstance(e, dict)}
    entries = [e for e in as_list(container.get("env")) if isinstance(e, dict) and isinstance(e.get("name"), str)
               and e["name"] not in skip and (set(e) == {"name", "value"} and isinstance(e["value"], str)
                                              or set(e) == {"name", "valueFrom"} and isinstance(e["valueFrom"], dict))]
    if not entries:
        return None
    if all("value" in e for e in entries):
        return {e["name"]: e["value"] for e in entries}
    return [dict(e) for e in entries]


def _volume(source: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    if isinstance(source.get("nfs"), dict):
        nfs = source["nfs"]
        if isinstance(nfs.get("server"), str) and isinstance(nfs.get("path"), str) and set(nfs) <= {"server", "path"}:
            return {"nfs": f"{nfs['server']}:{nfs['path']}"}
    host = as_dict(source.get("hostPath"))
    if isinstance(host.get("path"), str) and set(host) == {"path"}:
        return {"hostPath": host["path"]}
    claim = as_dict(source.get("persistentVolumeClaim"))
    if isinstance(claim.get("claimName"), str) and set(claim) == {"claimName"}:
        return {"pvc": claim["claimName"]}
    config = as_dict(source.get("configMap"))
    if isinstance(config.get("name"), str) and set(config) == {"name"}:
        return {"configMap": config["name"]}
    if isinstance(source.get("emptyDir"), dict):
        return {"emptyDir": dict(source["emptyDir"])}
    return None


def volumes(job: Manifest, generated_names: Any) -> Optional[List[Dict[str, Any]]]:
    """The main container's mounts of volumes the compiler does not write itself, in the spec's shorthand."""
    pod_set = main_pod_set(job)
    if pod_set is None:
        return None
    by_name = {v["name"]: v for _, v in pod_set.volumes() if isinstance(v, dict) and isinstance(v.get("name"), str)}
    out = []
    for mount in as_list(main_container(job).get("volumeMounts")):
        name = mount.get("name") if isinstance(mount, dict) else None
        source = by_name.get(name) if isinstance(name, str) else None
        if not isinstance(source, dict) or name in generated_names or not isinstance(mount.get("mountPath"), str):
            continue
        short = _volume({k: v for k, v in source.items() if k != "name"})
        if short is None:
            continue
        entry = {"name": name, **short, "mountPath": mount["mountPath"]}
        if mount.get("readOnly") is True:
            entry["readOnly"] = True
        if isinstance(mount.get("subPath"), str):
            entry["subPath"] = mount["subPath"]
        out.append(entry)
    return out or None


def job_fields(job: Manifest) -> List[Candidate]:
    """Settings of the job object: queue and retries."""
    spec = job.spec
    out: List[Candidate] = []
    if job.kind == ASCEND_JOB:
        run = as_dict(spec.get("runPolicy"))
        queue, retries = as_dict(run.get("schedulingPolicy")).get("queue"), run.get("backoffLimit")
    else:
        queue, retries = spec.get("queue"), spec.get("maxRetry")
    if isinstance(queue, str):
        out.append(("queue", queue))
    if isinstance(retries, int) and not isinstance(retries, bool):
        out.append(("retries", retries))
    return out


def owning_fields(job: Manifest) -> List[Candidate]:
    """The fields that write the labels and annotations the job has which the compiler generates: a spec sets
    them through these fields, never through jobPatch (import keeps each one that compiles)."""
    out: List[Candidate] = []
    labels, annotations = job.labels, job.annotations
    if isinstance(annotations.get(SCHEDULE_POLICY_ANNOTATION), str):
        out.append(("scheduling", "schedulePolicy"))
    if isinstance(labels.get(TOR_AFFINITY_LABEL), str):
        out.append(("torAffinity", labels[TOR_AFFINITY_LABEL]))
    if isinstance(labels.get(FAULT_SCHEDULING_LABEL), str):
        out.append(("faultScheduling", labels[FAULT_SCHEDULING_LABEL]))
    retry_times = as_int(labels.get(FAULT_RETRY_TIMES_LABEL))
    if retry_times is not None:
        out.append(("faultRetryTimes", retry_times))
    if isinstance(labels.get(SUB_HEALTHY_LABEL), str):
        out.append(("subHealthyStrategy", labels[SUB_HEALTHY_LABEL]))
        # the reset ConfigMap is written only for both together
        out.append((TOGETHER, {"subHealthyStrategy": labels[SUB_HEALTHY_LABEL], "resetConfig": "configMap"}))
    if labels.get(POD_RESCHEDULING_LABEL) == "on":
        out.append(("podRescheduling", True))
    blocks = {key: as_int(annotations.get(name)) for key, name in (("spBlock", SP_BLOCK_ANNOTATION),
                                                                    ("raBlock", RA_BLOCK_ANNOTATION))}
    if any(v is not None for v in blocks.values()):
        out.append(("superPod", {k: v for k, v in blocks.items() if v is not None}))
    return out + resilience_fields(job) + ranktable_fields(job)


def resilience_fields(job: Manifest) -> List[Candidate]:
    """``processRecovery`` from the recover-strategy (and wait-reschedule-timeout) annotations, ``multiLevel`` from
    the affinity-config annotation: the fields that write them (a patch may not)."""
    annotations = job.annotations
    out: List[Candidate] = []
    strategies = annotations.get(RECOVER_STRATEGY_ANNOTATION)
    if isinstance(strategies, str) and strategies:
        recovery: Dict[str, Any] = {"strategies": strategies.split(",")}
        timeout = as_int(annotations.get(WAIT_RESCHEDULE_TIMEOUT_ANNOTATION))
        if timeout is not None:
            recovery["waitRescheduleTimeout"] = timeout
        out.append(("processRecovery", recovery))
    config = annotations.get(AFFINITY_CONFIG_ANNOTATION)
    levels = parse_multi_level(config)[0] if isinstance(config, str) else None
    if levels:
        out.append(("multiLevel", levels))
        out.append((TOGETHER, {"multiLevel": levels, "scheduling": None}))
    return out


def ranktable_fields(job: Manifest) -> List[Candidate]:
    """``ranktable`` (and ``ranktableVolume``) from the volume the main container mounts at the ranktable path:
    a ConfigMap is ``file``, the operator's shared directory (a host path, an NFS export or a claim) ``hostPath``."""
    pod_set = main_pod_set(job)
    if pod_set is None:
        return []
    mounted = [m.get("name") for m in as_list(main_container(job).get("volumeMounts"))
               if isinstance(m, dict) and m.get("mountPath") == RANKTABLE_MOUNT_PATH]
    source = next((v for _, v in pod_set.volumes() if isinstance(v, dict) and v.get("name") in mounted
                   and isinstance(v.get("name"), str)), None)
    if source is None:
        return []
    if isinstance(source.get("configMap"), dict):
        return [("ranktable", "file")]
    nfs, claim = as_dict(source.get("nfs")), as_dict(source.get("persistentVolumeClaim"))
    if isinstance(nfs.get("server"), str) and isinstance(nfs.get("path"), str):
        export = nfs["path"].rsplit("/", 1)[0] if nfs["path"].rstrip("/").count("/") > 1 else nfs["path"]
        return [(TOGETHER, {"ranktable": "hostPath", "ranktableVolume": {"nfs": f"{nfs['server']}:{export}"}})]
    if isinstance(claim.get("claimName"), str):
        return [(TOGETHER, {"ranktable": "hostPath", "ranktableVolume": {"pvc": claim["claimName"]}})]
    path = as_dict(source.get("hostPath")).get("path")
    if isinstance(path, str) and path.startswith(RANKTABLE_SHARED_DIR):
        return [("ranktable", "hostPath")]
    return []


def pod_fields(job: Manifest) -> List[Candidate]:
    pod_set = main_pod_set(job)
    out: List[Candidate] = []
    if pod_set is not None and job.kind == VOLCANO_JOB:
        if isinstance(as_dict(as_list(job.spec.get("tasks"))[-1] if as_list(job.spec.get("tasks")) else {}).get(
                "name"), str):
            out.append(("taskName", pod_set.role))
        name = main_container(job).get("name")
        if isinstance(name, str):
            out.append(("containerName", name))
        if isinstance(name, str) and isinstance(pod_set.role, str):
            out.append((TOGETHER, {"taskName": pod_set.role, "containerName": name}))
    if pod_set is not None:
        if pod_set.spec.get("hostNetwork") is True:
            out.append(("hostNetwork", True))
        grace = pod_set.spec.get("terminationGracePeriodSeconds")
        if isinstance(grace, int) and not isinstance(grace, bool):
            out.append(("terminationGracePeriodSeconds", grace))
        policy = pod_set.spec.get("restartPolicy")
        if job.kind == ASCEND_JOB:
            policy = as_dict(as_dict(job.spec.get("replicaSpecs")).get(pod_set.role)).get("restartPolicy")
        if isinstance(policy, str):
            out.append(("restartPolicy", policy))
    selector = as_dict(pod_set.spec.get("nodeSelector")) if pod_set is not None else {}
    if isinstance(selector.get(HOST_ARCH_LABEL), str) and ACCELERATOR_TYPE_LABEL not in selector:
        out.append((TOGETHER, {"scheduling": "none", "hostArch": selector[HOST_ARCH_LABEL]}))
    out += [(field, value) for field, values in _ENUMS.items() for value in values]
    out.append(("schedulerHoldsNpus", True))
    return out


def metadata_fields(job: Manifest, generated: Manifest) -> List[Candidate]:
    """Labels and annotations of the job and of its main pods that the compiler does not write itself."""
    pods, gen_pods = main_pod_set(job), main_pod_set(generated)
    pairs = [("labels", job.labels, generated.labels), ("annotations", job.annotations, generated.annotations)]
    if pods is not None and gen_pods is not None:
        pairs += [("podLabels", pods.labels, gen_pods.labels),
                  ("podAnnotations", as_dict(pods.metadata.get("annotations")),
                   as_dict(gen_pods.metadata.get("annotations")))]
    out: List[Candidate] = []
    for field, mine, written in pairs:
        extra = {k: v for k, v in mine.items() if isinstance(k, str) and isinstance(v, str) and written.get(k) != v}
        if extra:
            out.append((field, extra))
    return out


def resources(job: Manifest) -> List[Candidate]:
    """CPU and memory of the main container (its requests, else its limits) and the size of its /dev/shm."""
    found = pod_resources(main_pod_set(job))
    return [("resources", found)] if found else []


def pod_resources(pods: Optional[PodSet]) -> Dict[str, Any]:
    """The spec's ``resources`` of a pod set: its first container's CPU and memory, its /dev/shm size."""
    containers = pods.containers() if pods is not None else []
    wanted = as_dict(containers[0].data.get("resources")) if containers else {}
    requests, limits = as_dict(wanted.get("requests")), as_dict(wanted.get("limits"))
    out: Dict[str, Any] = {}
    for key in ("cpu", "memory"):
        value = requests.get(key, limits.get(key))
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            out[key] = value
    for _, volume in pods.volumes() if pods is not None else ():
        size = as_dict(volume.get("emptyDir")).get("sizeLimit") if volume.get("name") == SHM_VOLUME else None
        if isinstance(size, (str, int)) and not isinstance(size, bool):
            out["shm"] = size
    return out
