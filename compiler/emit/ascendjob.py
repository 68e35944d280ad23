"""AscendJob (``mindxdl.gitee.com/v1``) for ascend-operator.

Replica types follow the framework: PyTorch Master + Workers, TensorFlow
Chief + Workers (the leader is itself an NPU pod), MindSpore Scheduler (no
NPUs) + Workers; a MindSpore job with a single NPU runs as one Worker, since
the operator only accepts a Scheduler-less MindSpore job of one NPU.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..jobspec import Spec
from ..vocabulary import (SUCCESS_POLICY_ALL_WORKERS, HOST_IP_FIELD, POD_UID_FIELD, ASCEND_JOB, ASCEND_JOB_API_VERSION, ASCEND_JOB_NAME_LABEL, FRAMEWORK_LABEL, HCCL_IF_IP_ENV, LEADERS,
                          MINDSPORE, POD_UID_ENV, PYTORCH, REPLICA_TYPE_LABEL, RING_LABEL, SCHEDULER_NAME, WORKER,
                          XDL_IP_ENV)
from . import common

#: frameworks whose leader is itself an NPU pod (a MindSpore Scheduler requests no NPUs)
LEADER_HOLDS_NPUS = frozenset(framework for framework in LEADERS if framework != MINDSPORE)


def replica_layout(spec: Spec) -> List[Tuple[str, int, int]]:
    """(replica type, replicas, NPUs per pod) in emission order."""
    leader = LEADERS[spec.framework]
    if spec.framework in LEADER_HOLDS_NPUS:
        layout = [(leader, 1, spec.npus_per_pod)]
        if spec.pods > 1:
            layout.append((WORKER, spec.pods - 1, spec.npus_per_pod))
        return layout
    if spec.total_npus <= 1:
        return [(WORKER, spec.pods, spec.npus_per_pod)]
    return [(leader, 1, 0), (WORKER, spec.pods, spec.npus_per_pod)]


def _env(spec: Spec, npus: int) -> List[Dict[str, Any]]:
    env: List[Dict[str, Any]] = []
    if spec.framework == PYTORCH or common.has_ranktable_volume(spec):
        env.append(common.field_env(XDL_IP_ENV, HOST_IP_FIELD))
    if common.has_ranktable_volume(spec):  # scripts match it against server_id in hccl.json
        env.append(common.field_env(POD_UID_ENV, POD_UID_FIELD))
    if spec.host_network:
        env.append(common.field_env(HCCL_IF_IP_ENV, HOST_IP_FIELD))
    if npus:
        env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.user_env(spec)


def _affinity(spec: Spec, rtype: str) -> Optional[Dict[str, Any]]:
    """One NPU pod per node, as upstream samples do: PyTorch and TensorFlow spread every replica; MindSpore
    spreads its Workers only, since the NPU-less Scheduler may share a node with one.  A single NPU pod
    needs no spreading."""
    if spec.pods < 2:
        return None
    if spec.framework in LEADER_HOLDS_NPUS:
        return common.anti_affinity(ASCEND_JOB_NAME_LABEL, spec.name)
    if rtype == WORKER:
        return common.anti_affinity(ASCEND_JOB_NAME_LABEL, spec.name, {REPLICA_TYPE_LABEL: WORKER.lower()})
    return None


def _replica(spec: Spec, rtype: str, replicas: int, npus: int) -> Dict[str, Any]:
    mounts = [common.ranktable_mount(spec)] if common.has_ranktable_volume(spec) else []
    container = common.container(spec, _env(spec, npus), npus, ports=True, extra_mounts=mounts)
    pod = common.pod_spec(spec, [container], _affinity(spec, rtype))
    labels = {RING_LABEL: spec.profile.ring_controller}
    return {"replicas": replicas, "restartPolicy": "Never", "template": common.pod_template(spec, pod, labels)}


def ascend_job(spec: Spec) -> Dict[str, Any]:
    layout = replica_layout(spec)
    replica_specs = {rtype: _replica(spec, rtype, replicas, npus) for rtype, replicas, npus in layout}
    run_policy: Dict[str, Any] = {}
    if spec.retries is not None:
        run_policy["backoffLimit"] = spec.retries
    run_policy["schedulingPolicy"] = {"minAvailable": sum(r for _, r, _ in layout), "queue": spec.queue}
    labels = common.job_labels(spec, {FRAMEWORK_LABEL: spec.framework})
    return {
        "apiVersion": ASCEND_JOB_API_VERSION,
        "kind": ASCEND_JOB,
        "metadata": common.metadata(spec.name, spec.namespace, labels, common.job_annotations(spec)),
        "spec": {
            "schedulerName": SCHEDULER_NAME,
            "runPolicy": run_policy,
            "successPolicy": SUCCESS_POLICY_ALL_WORKERS,
            "replicaSpecs": replica_specs,
        },
    }
