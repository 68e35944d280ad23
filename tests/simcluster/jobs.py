"""Helpers for tests that drive jobs on the simulated cluster: read pods, wait, end pods, clean up."""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, TypeVar

import yaml

from tests.simcluster.cluster import VOLCANO_NAMESPACE, SimCluster
from tests.simcluster.stages import EXIT_LABEL

T = TypeVar("T")

#: device annotations the Ascend plugin writes on a pod it placed
DEVICE_ANNOTATION = "huawei.com/Ascend910"
REAL_ANNOTATION = "huawei.com/AscendReal"
CONFIG_ANNOTATION = "ascend.kubectl.kubernetes.io/ascend-910-configuration"


#: where the Ascend plugin keeps each job's remaining fault-retry-times (in VOLCANO_NAMESPACE), which the operator reads
RETRY_CM, RETRY_CM_KEY = "vcjob-fault-npu-cm", "remain-retry-times"


class WaitTimeout(AssertionError):
    pass



def write_spec(folder: Path, name: str, namespace: str, **fields: Any) -> Path:
    """A small card-910b-2 PyTorch TrainingJob spec (4 NPUs) in ``folder``, with ``fields`` over its spec."""
    spec = {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"framework": "pytorch", "profile": "card-910b-2", "npus": 4, "image": "pytorch-train:latest",
                     "command": ["/bin/bash", "-c", "bash /job/code/train_start.sh"], **fields}}
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


def npus_never_placed(sim: SimCluster) -> int:
    """NPUs of a card-910b-2 job (2 NPUs a node, so a pod a node) with two pods more than the cluster has
    card-910b-2 nodes: its gang never gets room, however many nodes the session's cluster has."""
    return 2 * (sim.nodes_per_profile + 2)


def operator_env_job(name: str, namespace: str) -> List[Dict[str, Any]]:
    """The compiled PyTorch AscendJob of two 8-NPU pods (module-910b-8) and its companions; its templates leave
    ASCEND_VISIBLE_DEVICES to the operator, so that a test sees what the operator sets."""
    from ascend_compile import compile_spec

    objects = compile_spec({"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
                            "metadata": {"name": name, "namespace": namespace},
                            "spec": {"framework": "pytorch", "profile": "module-910b-8", "npus": 16,
                                     "image": "pytorch-train:latest"}})
    for replica in ascend_job(objects)["spec"]["replicaSpecs"].values():
        for container in replica["template"]["spec"]["containers"]:
            container["env"] = [e for e in container.get("env", []) if e["name"] != "ASCEND_VISIBLE_DEVICES"]
    return objects


def ascend_job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if o["kind"] == "AscendJob")


def ascend_env(pod: Dict[str, Any]) -> Dict[str, Any]:
    """The env of a pod's ``ascend`` container: name -> value (or valueFrom)."""
    container = next(c for c in pod["spec"]["containers"] if c["name"] == "ascend")
    return {e["name"]: e.get("value", e.get("valueFrom")) for e in container.get("env", [])}


def wait_for(check: Callable[[], Optional[T]], *, timeout: float, what: str, sim: Optional[SimCluster] = None,
             interval: float = 1.0, last: Optional[Callable[[], str]] = None) -> T:
    """Call ``check`` until it returns something truthy; on timeout fail with the component logs."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            detail = last() if last else ""
            logs = sim.logs_for_failure() if sim is not None else ""
            raise WaitTimeout(f"timed out after {timeout:.0f}s waiting for {what}\n{detail}\n{logs}")
        if sim is not None and sim.dead_processes():
            raise WaitTimeout(f"{', '.join(sim.dead_processes())} exited while waiting for {what}\n"
                              f"{sim.logs_for_failure()}")
        time.sleep(interval)


def get_json(sim: SimCluster, *args: str) -> Dict[str, Any]:
    return json.loads(sim.kubectl("get", *args, "-o", "json").stdout)



def podgroup_unschedulable(sim: SimCluster, namespace: str, job: str) -> Optional[str]:
    """The Unschedulable condition's message (or reason) of the PodGroup of ``job``, once the scheduler has given
    one; None before."""
    for group in get_json(sim, "podgroups.scheduling.volcano.sh", "-n", namespace)["items"]:
        if not any(owner.get("name") == job for owner in group["metadata"].get("ownerReferences", [])):
            continue
        for condition in group.get("status", {}).get("conditions") or []:
            if condition.get("type") == "Unschedulable" and condition.get("status") == "True":
                return condition.get("message") or condition.get("reason")
    return None


def pods_of(sim: SimCluster, namespace: str, kind: str, name: str) -> List[Dict[str, Any]]:
    """The job's pods (AscendJob: label job-name; Volcano Job: label volcano.sh/job-name)."""
    key = "job-name" if kind == "AscendJob" else "volcano.sh/job-name"
    # through the Python client, not a kubectl process: the tests' waits ask this every second
    listed = sim.core_api().list_namespaced_pod(namespace, label_selector=f"{key}={name}", _preload_content=False)
    return list(json.loads(listed.data)["items"])


def phases(pods: List[Dict[str, Any]]) -> List[str]:
    return sorted((p.get("status") or {}).get("phase", "") for p in pods)


def label_pods(sim: SimCluster, namespace: str, pods: List[Dict[str, Any]], exit_code: int) -> None:
    """Make the pods end (kwok stage ``sim-pod-exit``): 0 succeeds, anything else fails with that code."""
    names = [p["metadata"]["name"] for p in pods]
    sim.kubectl("label", "pods", "-n", namespace, "--overwrite", *names, f"{EXIT_LABEL}={exit_code}")


def remaining_retries(sim: SimCluster, namespace: str, name: str, kind: str = "AscendJob") -> Optional[int]:
    """The job's remaining fault retries as the Ascend plugin recorded them (for the operator), or None.

    The plugin writes them (``remain-retry-times`` in ``volcano-system/vcjob-fault-npu-cm``, keyed by the
    job's PodGroup, ``<namespace>/<name>-<uid>``) at the close of the first scheduling session that finds
    the job's PodGroup Running, about a second after its pods were bound.
    """
    uid = job_object(sim, namespace, kind, name)["metadata"]["uid"]
    out = sim.kubectl("get", "configmap", "-n", VOLCANO_NAMESPACE, RETRY_CM, "-o", "json", check=False)
    if out.returncode != 0:
        return None
    try:
        table = json.loads((json.loads(out.stdout).get("data") or {}).get(RETRY_CM_KEY) or "{}")
    except ValueError:
        return None
    entry = table.get(f"{namespace}/{name}-{uid}") if isinstance(table, dict) else None
    return entry.get("Times") if isinstance(entry, dict) else None


def fail_pods_under_retry(sim: SimCluster, namespace: str, name: str, pods: List[Dict[str, Any]],
                          exit_code: int = 1, timeout: float = 60, kind: str = "AscendJob") -> Dict[str, Any]:
    """Fail pods of a job with ``fault-retry-times`` in the order a real cluster sees it; the job's status.

    Two upstream components react to the failed pod.  The operator, within milliseconds of the pod update:
    it counts the pod as failed (only while it exists without a deletion timestamp), reads the job's
    remaining retries from the plugin's ConfigMap and writes the ``Restarting`` condition (``Failed`` if
    none are recorded).  The Ascend plugin, at its next scheduling session (within about a second): it
    force-deletes the job's pods, and the operator makes new ones.  If the plugin comes first, the job
    restarts without ever showing ``Restarting``; on a real cluster the operator wins by far, on the
    simulated cluster's two shared cores it sometimes did not (the flaky restart tests).  So, as on a real
    cluster: the failure comes after the plugin recorded the job's retries (a second after it ran; a real
    training pod fails minutes later), and the scheduler is held while the pod fails and the operator
    reacts, then let go to restart the job.  A Volcano Job (``kind`` ``Job``) has no operator: there the
    scheduler is held until Volcano's job controller has counted the failed pods or left the Running
    phase (as it does within milliseconds on a real cluster).
    """
    wait_for(lambda: remaining_retries(sim, namespace, name, kind) is not None, timeout=timeout, sim=sim,
             what=f"the Ascend plugin to record the remaining fault retries of {name} ({RETRY_CM})")

    def reacted() -> Optional[Dict[str, Any]]:
        status = job_object(sim, namespace, kind, name).get("status") or {}
        if kind != "AscendJob":
            phase = (status.get("state") or {}).get("phase")
            return status if (status.get("failed") or 0) >= len(pods) or phase not in ("Pending", "Running") else None
        types = {c.get("type") for c in status.get("conditions") or []}
        return status if types & {"Restarting", "Failed"} else None

    with sim.paused("vc-scheduler"):
        label_pods(sim, namespace, pods, exit_code)
        return wait_for(reacted, timeout=timeout, what=f"{name}'s controller to see the failed pods", sim=sim,
                        last=lambda: json.dumps(job_object(sim, namespace, kind, name).get("status"), indent=1))


def job_object(sim: SimCluster, namespace: str, kind: str, name: str) -> Dict[str, Any]:
    resource = "ascendjobs.mindxdl.gitee.com" if kind == "AscendJob" else "jobs.batch.volcano.sh"
    return get_json(sim, resource, name, "-n", namespace)


def clean_namespace(sim: SimCluster, namespace: str) -> None:
    """Delete every job, PodGroup and pod in the namespace (no garbage collector runs here)."""
    for resource in ("ascendjobs.mindxdl.gitee.com", "jobs.batch.volcano.sh"):
        sim.kubectl("delete", resource, "--all", "-n", namespace, "--wait=false", check=False)
    sim.kubectl("delete", "pods", "--all", "-n", namespace, "--wait=false", check=False)
    sim.kubectl("delete", "podgroups.scheduling.volcano.sh", "--all", "-n", namespace, "--wait=false", check=False)
    sim.kubectl("delete", "configmaps", "-n", namespace, "-l", "ring-controller.atlas", "--wait=false", check=False)


def create_namespace(sim: SimCluster, namespace: str) -> None:
    sim.kubectl("create", "namespace", namespace, check=False)
    sim.ensure_service_accounts([namespace])


def describe_namespace(sim: SimCluster, namespace: str, width: int = 500) -> str:
    """Pods, PodGroup conditions and Warning events of a namespace, short, for a failure message."""
    lines = [f"--- namespace {namespace} ---"]
    for pod in get_json(sim, "pods", "-n", namespace)["items"]:
        lines.append(f"pod {pod['metadata']['name']}: {(pod.get('status') or {}).get('phase')} "
                     f"on {pod['spec'].get('nodeName') or '-'}")
    for pg in get_json(sim, "podgroups.scheduling.volcano.sh", "-n", namespace)["items"]:
        status = pg.get("status") or {}
        lines.append(f"podgroup {pg['metadata']['name']}: {status.get('phase')}")
        for cond in status.get("conditions") or []:
            lines.append(f"  {cond.get('type')} ({cond.get('reason')}): {str(cond.get('message'))[:width]}")
    for event in get_json(sim, "events", "-n", namespace, "--field-selector=type=Warning")["items"]:
        obj = event.get("involvedObject", {})
        lines.append(f"event {obj.get('kind')}/{obj.get('name')}: {event.get('reason')}: "
                     f"{str(event.get('message'))[:width]}")
    return "\n".join(lines)
