"""AscendJob (``mindxdl.gitee.com/v1``) for ascend-operator.

Replica types follow the framework (:func:`ascend_compile.jobspec.replicas.replica_layout`): PyTorch
Master + Workers, TensorFlow Chief + Workers (the leader is itself an NPU pod), MindSpore Scheduler (no
NPUs, unless ``schedulerHoldsNpus``) + Workers; a MindSpore job with a single NPU runs as one Worker.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..jobspec.model import Spec
from ..jobspec.replicas import replica_layout as _layout
from ..vocabulary import (SUCCESS_POLICY_ALL_WORKERS, HOST_IP_FIELD, POD_UID_FIELD, ASCEND_JOB, ASCEND_JOB_API_VERSION,
                          ASCEND_JOB_NAME_LABEL, FRAMEWORK_LABEL, HCCL_IF_IP_ENV, POD_UID_ENV, PYTORCH,
                          REPLICA_TYPE_LABEL, RING_LABEL, SCHEDULER_NAME, WORKER, XDL_IP_ENV)
from . import common

#: the operator's default replica restartPolicy, and what fault-retry-times needs
DEFAULT_RESTART_POLICY = "Never"


def replica_layout(spec: Spec) -> List[Tuple[str, int, int]]:
    """(replica type, replicas, NPUs per pod) in emission order."""
    return _layout(spec.framework, spec.target, spec.pods, spec.npus_per_pod, spec.scheduler_holds_npus)


def _env(spec: Spec, npus: int) -> List[Dict[str, Any]]:
    env: List[Dict[str, Any]] = []
    ranktable = npus and common.has_ranktable_volume(spec)
    if spec.framework == PYTORCH or ranktable:
        env.append(common.field_env(XDL_IP_ENV, HOST_IP_FIELD))
    if ranktable:  # scripts match it against server_id in hccl.json
        env.append(common.field_env(POD_UID_ENV, POD_UID_FIELD))
    if spec.host_network:
        env.append(common.field_env(HCCL_IF_IP_ENV, HOST_IP_FIELD))
    if npus:
        env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.resilience_env(spec)


def _affinity(spec: Spec, rtype: str) -> Optional[Dict[str, Any]]:
    """One NPU pod per node, as upstream samples do: when every pod holds NPUs every replica is spread; a
    MindSpore job spreads its Workers only, since the NPU-less Scheduler may share a node with one.  A single
    NPU pod needs no spreading."""
    if spec.pods < 2:
        return None
    if all(npus for _, _, npus in replica_layout(spec)):
        return common.anti_affinity(ASCEND_JOB_NAME_LABEL, spec.name)
    if rtype == WORKER:
        return common.anti_affinity(ASCEND_JOB_NAME_LABEL, spec.name, {REPLICA_TYPE_LABEL: WORKER.lower()})
    return None


def _replica(spec: Spec, rtype: str, replicas: int, npus: int) -> Dict[str, Any]:
    container = common.container(spec, rtype, _env(spec, npus), npus, leader_port=True)
    pod = common.pod_spec(spec, rtype, [container], _affinity(spec, rtype), npus)
    labels = {RING_LABEL: spec.profile.ring_controller}
    policy = spec.replica(rtype).restart_policy or spec.restart_policy or DEFAULT_RESTART_POLICY
    return {"replicas": replicas, "restartPolicy": policy, "template": common.pod_template(spec, pod, labels)}


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
