"""AscendJob (``mindxdl.gitee.com/v1``) for ascend-operator.

Replica types follow the framework: PyTorch Master + Workers, TensorFlow
Chief + Workers (the leader is itself an NPU pod), MindSpore Scheduler (no
NPUs) + Workers; a MindSpore job with a single NPU runs as one Worker, since
the operator only accepts a Scheduler-less MindSpore job of one NPU.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..spec import Spec
from . import common

API_VERSION = "mindxdl.gitee.com/v1"
KIND = "AscendJob"
JOB_NAME_LABEL = "job-name"  # set on pods by the operator
REPLICA_TYPE_LABEL = "replica-type"  # set on pods by the operator: the replica type in lower case

#: framework -> (leader replica type, leader requests NPUs)
LEADERS = {"pytorch": ("Master", True), "tensorflow": ("Chief", True), "mindspore": ("Scheduler", False)}


def replica_layout(spec: Spec) -> List[Tuple[str, int, int]]:
    """(replica type, replicas, NPUs per pod) in emission order."""
    leader, leader_has_npus = LEADERS[spec.framework]
    if leader_has_npus:
        layout = [(leader, 1, spec.npus_per_pod)]
        if spec.pods > 1:
            layout.append(("Worker", spec.pods - 1, spec.npus_per_pod))
        return layout
    if spec.total_npus <= 1:
        return [("Worker", spec.pods, spec.npus_per_pod)]
    return [(leader, 1, 0), ("Worker", spec.pods, spec.npus_per_pod)]


def _env(spec: Spec, npus: int) -> List[Dict[str, Any]]:
    env: List[Dict[str, Any]] = []
    if spec.framework == "pytorch" or common.has_ranktable_volume(spec):
        env.append(common.field_env("XDL_IP", "status.hostIP"))
    if common.has_ranktable_volume(spec):  # scripts match it against server_id in hccl.json
        env.append(common.field_env("POD_UID", "metadata.uid"))
    if spec.host_network:
        env.append(common.field_env("HCCL_IF_IP", "status.hostIP"))
    if npus:
        env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.user_env(spec)


def _affinity(spec: Spec, rtype: str) -> Optional[Dict[str, Any]]:
    """One NPU pod per node, as upstream samples do: PyTorch and TensorFlow spread every replica; MindSpore
    spreads its Workers only, since the NPU-less Scheduler may share a node with one.  A single NPU pod
    needs no spreading."""
    if spec.pods < 2:
        return None
    if LEADERS[spec.framework][1]:
        return common.anti_affinity(JOB_NAME_LABEL, spec.name)
    if rtype == "Worker":
        return common.anti_affinity(JOB_NAME_LABEL, spec.name, {REPLICA_TYPE_LABEL: "worker"})
    return None


def _replica(spec: Spec, rtype: str, replicas: int, npus: int) -> Dict[str, Any]:
    mounts = [common.ranktable_mount(spec)] if common.has_ranktable_volume(spec) else []
    container = common.container(spec, _env(spec, npus), npus, ports=True, extra_mounts=mounts)
    pod = common.pod_spec(spec, [container], _affinity(spec, rtype))
    labels = {common.RING_LABEL: spec.profile.ring_controller}
    return {"replicas": replicas, "restartPolicy": "Never", "template": common.pod_template(spec, pod, labels)}


def ascend_job(spec: Spec) -> Dict[str, Any]:
    layout = replica_layout(spec)
    replica_specs = {rtype: _replica(spec, rtype, replicas, npus) for rtype, replicas, npus in layout}
    run_policy: Dict[str, Any] = {}
    if spec.retries is not None:
        run_policy["backoffLimit"] = spec.retries
    run_policy["schedulingPolicy"] = {"minAvailable": sum(r for _, r, _ in layout), "queue": spec.queue}
    labels = common.job_labels(spec, {"framework": spec.framework})
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": common.metadata(spec.name, spec.namespace, labels, common.job_annotations(spec)),
        "spec": {
            "schedulerName": "volcano",
            "runPolicy": run_policy,
            "successPolicy": "AllWorkers",
            "replicaSpecs": replica_specs,
        },
    }
