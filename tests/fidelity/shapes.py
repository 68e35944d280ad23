"""Where things are in an AscendJob or a Volcano Job: pod templates, NPU containers, replica counts."""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, Tuple

from tests.simcluster.oracle import JOB_KINDS

NPU_PREFIX = "huawei.com/"
RING_LABEL = "ring-controller.atlas"
ACCEL_LABEL = "accelerator-type"
POLICY_ANNOTATION = "huawei.com/schedule_policy"


def job_of(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if (o.get("apiVersion"), o.get("kind")) in JOB_KINDS)


def is_ascend_job(job: Dict[str, Any]) -> bool:
    return job.get("kind") == "AscendJob"


def replicas(job: Dict[str, Any]) -> List[Tuple[str, Dict[str, Any]]]:
    """(replica type or task name, its spec) in order."""
    spec = job.get("spec") or {}
    if is_ascend_job(job):
        return [(str(k), v) for k, v in (spec.get("replicaSpecs") or {}).items() if isinstance(v, dict)]
    return [(str(t.get("name")), t) for t in spec.get("tasks") or [] if isinstance(t, dict)]


def pod_templates(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [r.setdefault("template", {}) for _, r in replicas(job)]


def containers(job: Dict[str, Any]) -> Iterator[Dict[str, Any]]:
    for template in pod_templates(job):
        yield from (template.get("spec") or {}).get("containers") or []


def npu_of(container: Dict[str, Any]) -> Optional[Tuple[str, int]]:
    """(resource, count) of the container's NPU limit (or request)."""
    res = container.get("resources") or {}
    for part in ("limits", "requests"):
        for name, value in (res.get(part) or {}).items():
            if str(name).startswith(NPU_PREFIX):
                return str(name), count_of(value)
    return None


def count_of(value: Any) -> int:
    """An NPU count as Kubernetes reads the quantity (8, "8", 8.0, "8000m"; a fraction rounds up)."""
    text = str(value).strip()
    if text.endswith("m") and text[:-1].isdigit():
        return -(-int(text[:-1]) // 1000)
    return int(float(text))


def npu_containers(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [c for c in containers(job) if npu_of(c)]


def npu_resource(job: Dict[str, Any]) -> str:
    found = [npu_of(c) for c in npu_containers(job)]
    return found[0][0] if found and found[0] else ""


def set_npus(container: Dict[str, Any], count: int, *, parts: Tuple[str, ...] = ("limits", "requests")) -> None:
    found = npu_of(container)
    if not found:
        return
    for part in parts:
        container.setdefault("resources", {}).setdefault(part, {})[found[0]] = count


def total_pods(job: Dict[str, Any]) -> int:
    return sum(int(r.get("replicas", 1) or 0) for _, r in replicas(job))


def labels(obj: Dict[str, Any]) -> Dict[str, Any]:
    return obj.setdefault("metadata", {}).setdefault("labels", {}) or {}


def annotations(obj: Dict[str, Any]) -> Dict[str, Any]:
    meta = obj.setdefault("metadata", {})
    if not isinstance(meta.get("annotations"), dict):
        meta["annotations"] = {}
    return meta["annotations"]


def min_available(job: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    """The mapping holding the job's minAvailable, and the key."""
    spec = job.setdefault("spec", {})
    if is_ascend_job(job):
        return spec.setdefault("runPolicy", {}).setdefault("schedulingPolicy", {}), "minAvailable"
    return spec, "minAvailable"


def ranktable_configmaps(objects: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    return [o for o in objects if o.get("kind") == "ConfigMap"
            and str((o.get("metadata") or {}).get("name", "")).startswith("rings-config-")]


def configmap_volumes(job: Dict[str, Any], name: str) -> List[Tuple[Dict[str, Any], Dict[str, Any]]]:
    """(pod spec, volume) for every volume of the job that mounts the ConfigMap ``name``."""
    out = []
    for template in pod_templates(job):
        spec = template.get("spec") or {}
        for volume in spec.get("volumes") or []:
            if (volume.get("configMap") or {}).get("name") == name:
                out.append((spec, volume))
    return out


def leader_type(framework: str) -> str:
    return {"pytorch": "Master", "mindspore": "Scheduler", "tensorflow": "Chief"}.get(framework, "Master")


def set_restart_policy(job: Dict[str, Any], value: str) -> bool:
    """Every replica's restartPolicy (AscendJob), or every task pod's (Volcano Job)."""
    for _name, replica in replicas(job):
        holder = replica if is_ascend_job(job) else replica.setdefault("template", {}).setdefault("spec", {})
        holder["restartPolicy"] = value
    return bool(replicas(job))
