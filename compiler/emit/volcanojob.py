"""Volcano Job (``batch.volcano.sh/v1alpha1``) with a file-based ranktable.

One task of identical NPU pods.  The ``ring-controller.atlas`` label on the
job makes ascend-operator write the ranktable into ``rings-config-<job>``,
which every pod mounts at the path the training scripts read.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ..jobspec import Spec
from ..vocabulary import (HOST_IP_FIELD, POD_UID_FIELD, FAULT_SCHEDULING_LABEL, FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, HCCL_IF_IP_ENV, POD_UID_ENV,
                          RING_LABEL, SCHEDULER_NAME, VOLCANO_JOB_API_VERSION, VOLCANO_JOB_KIND,
                          VOLCANO_JOB_NAME_LABEL, XDL_IP_ENV)
from . import common

TASK_NAME = "worker"
DEFAULT_MAX_RETRY = 3
DEFAULT_FAULT_SCHEDULING = "force"


def _env(spec: Spec) -> List[Dict[str, Any]]:
    env = [
        common.field_env(spec.name, "metadata.name"),  # legacy: scripts read the job name from it
        common.field_env(XDL_IP_ENV, HOST_IP_FIELD),
        common.field_env(POD_UID_ENV, POD_UID_FIELD),
        {"name": FRAMEWORK_ENV, "value": FRAMEWORK_ENV_VALUES[spec.framework]},
    ]
    if spec.host_network:
        env.append(common.field_env(HCCL_IF_IP_ENV, HOST_IP_FIELD))
    env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.user_env(spec)


def volcano_job(spec: Spec) -> Dict[str, Any]:
    container = common.container(spec, _env(spec), spec.npus_per_pod, ports=False,
                                 extra_mounts=[common.ranktable_mount(spec)])
    pod = common.pod_spec(spec, [container], common.anti_affinity(VOLCANO_JOB_NAME_LABEL, spec.name),
                          restart_policy="OnFailure")
    pod_labels = {"app": spec.framework, RING_LABEL: spec.profile.ring_controller}
    defaults = {FAULT_SCHEDULING_LABEL: DEFAULT_FAULT_SCHEDULING}
    return {
        "apiVersion": VOLCANO_JOB_API_VERSION,
        "kind": VOLCANO_JOB_KIND,
        "metadata": common.metadata(spec.name, spec.namespace, common.job_labels(spec, defaults),
                                    common.job_annotations(spec)),
        "spec": {
            "minAvailable": spec.pods,
            "schedulerName": SCHEDULER_NAME,
            "policies": [{"event": "PodEvicted", "action": "RestartJob"}],
            "plugins": {"ssh": [], "env": [], "svc": []},
            "maxRetry": spec.retries if spec.retries is not None else DEFAULT_MAX_RETRY,
            "queue": spec.queue,
            "tasks": [{
                "name": TASK_NAME,
                "replicas": spec.pods,
                "template": common.pod_template(spec, pod, pod_labels),
            }],
        },
    }
