"""Volcano Job (``batch.volcano.sh/v1alpha1``): one task of identical NPU pods.

With a file ranktable (the default) the ``ring-controller.atlas`` label on the job makes ascend-operator
write the ranktable into ``rings-config-<job>``, which every pod mounts at the path the training scripts
read; with ``ranktable: none`` (inference) there is neither, and no job plugins unless the spec names them
(:mod:`ascend_compile.jobspec.volcano`: Volcano's ``svc`` plugin would fence the service off its clients).

Failed pods: by default Volcano restarts the whole job when a pod is evicted and the kubelet restarts
failed containers in place (``OnFailure``), as upstream's samples.  With ``fault-retry-times`` the pods
must fail instead (``Never``) and the job gets no policies, as with Pod-level rescheduling: the Ascend
plugin retries a failed pod by deleting the job's pods, and Volcano, with no policy for the deletions,
makes new ones (shown on the simulated cluster); a ``RestartJob`` policy on ``PodEvicted`` or
``PodFailed`` would make each failure a Volcano restart too, counted against ``maxRetry`` (lint AC408).
Upstream's YAML reference (``MC: docs/zh/scheduling/06_api/15_yaml_configuration.md``, row
``spec.policies``) asks for ``{event: PodFailed, action: Ignore}`` instead, which is no Volcano action:
Volcano's admission webhook refuses the job, and MindCluster's own Volcano v1.12 and v1.15 builds (no
webhook) treat it as no policy, because the ``build.sh`` edit that would teach the job controller
``Ignore`` matches only Volcano v1.9's ``running.go``.  Only there does ``Ignore`` do more: Volcano then
leaves a job whose pods all failed at once to the plugin instead of marking it Failed (elsewhere such a
job is Failed and not retried); add it with ``jobPatch`` on such a cluster.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ..jobspec.model import Spec
from ..vocabulary import (APP_LABEL, HOST_IP_FIELD, POD_UID_FIELD, FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, HCCL_IF_IP_ENV,
                          POD_UID_ENV, RING_LABEL, SCHEDULER_NAME, VOLCANO_JOB_API_VERSION, VOLCANO_JOB_KIND,
                          VOLCANO_JOB_NAME_LABEL, WORKER, XDL_IP_ENV)
from . import common

DEFAULT_MAX_RETRY = 3
DEFAULT_RESTART_POLICY = "OnFailure"
FAULT_RETRY_RESTART_POLICY = "Never"
DEFAULT_POLICIES = ({"event": "PodEvicted", "action": "RestartJob"},)


def _env(spec: Spec) -> List[Dict[str, Any]]:
    env: List[Dict[str, Any]] = []
    if spec.ranktable != "none":
        env += [
            common.field_env(spec.name, "metadata.name"),  # legacy: scripts read the job name from it
            common.field_env(XDL_IP_ENV, HOST_IP_FIELD),
            common.field_env(POD_UID_ENV, POD_UID_FIELD),
            {"name": FRAMEWORK_ENV, "value": FRAMEWORK_ENV_VALUES[spec.framework]},
        ]
    if spec.host_network:
        env.append(common.field_env(HCCL_IF_IP_ENV, HOST_IP_FIELD))
    env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.resilience_env(spec)


def _policies(spec: Spec) -> List[Dict[str, str]]:
    """None when the Ascend plugin handles failed pods (fault-retry-times) or faulty pods (pod-rescheduling)."""
    if spec.resilience.fault_retry_times or spec.resilience.pod_rescheduling:
        return []
    return [dict(p) for p in DEFAULT_POLICIES]


def _restart_policy(spec: Spec) -> str:
    chosen = spec.replica(WORKER).restart_policy or spec.restart_policy
    if chosen:
        return chosen
    return FAULT_RETRY_RESTART_POLICY if spec.resilience.fault_retry_times else DEFAULT_RESTART_POLICY


def volcano_job(spec: Spec) -> Dict[str, Any]:
    container = common.container(spec, WORKER, _env(spec), spec.npus_per_pod, leader_port=False)
    pod = common.pod_spec(spec, WORKER, [container], common.anti_affinity(VOLCANO_JOB_NAME_LABEL, spec.name),
                          spec.npus_per_pod, restart_policy=_restart_policy(spec))
    pod_labels = {APP_LABEL: spec.framework, RING_LABEL: spec.profile.ring_controller}
    job_spec: Dict[str, Any] = {"minAvailable": spec.pods, "schedulerName": SCHEDULER_NAME}
    policies = _policies(spec)
    if policies:
        job_spec["policies"] = policies
    if spec.plugins:
        job_spec["plugins"] = {name: list(args) for name, args in spec.plugins.items()}
    job_spec.update({
        "maxRetry": spec.retries if spec.retries is not None else DEFAULT_MAX_RETRY,
        "queue": spec.queue,
        "tasks": [{
            "name": spec.task_name,
            "replicas": spec.pods,
            "template": common.pod_template(spec, pod, pod_labels),
        }],
    })
    return {
        "apiVersion": VOLCANO_JOB_API_VERSION,
        "kind": VOLCANO_JOB_KIND,
        # fault-scheduling first, where upstream's samples (and earlier versions of this compiler) put it
        "metadata": common.metadata(spec.name, spec.namespace,
                                    common.job_labels(spec, common.resilience_labels(spec)),
                                    common.job_annotations(spec)),
        "spec": job_spec,
    }
