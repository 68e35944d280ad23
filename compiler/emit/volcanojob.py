"""Volcano Job (``batch.volcano.sh/v1alpha1``) with a file-based ranktable.

One task of identical NPU pods.  The ``ring-controller.atlas`` label on the
job makes ascend-operator write the ranktable into ``rings-config-<job>``,
which every pod mounts at the path the training scripts read.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ..spec import Spec
from . import common

API_VERSION = "batch.volcano.sh/v1alpha1"
KIND = "Job"
TASK_NAME = "worker"
JOB_NAME_LABEL = "volcano.sh/job-name"  # set on pods by Volcano
#: the framework env value the upstream start scripts compare against
FRAMEWORK_ENV = {"pytorch": "PyTorch", "mindspore": "MindSpore", "tensorflow": "Tensorflow"}
DEFAULT_MAX_RETRY = 3
DEFAULT_FAULT_SCHEDULING = "force"


def _env(spec: Spec) -> List[Dict[str, Any]]:
    env = [
        common.field_env(spec.name, "metadata.name"),  # legacy: scripts read the job name from it
        common.field_env("XDL_IP", "status.hostIP"),
        common.field_env("POD_UID", "metadata.uid"),
        {"name": "framework", "value": FRAMEWORK_ENV[spec.framework]},
    ]
    if spec.host_network:
        env.append(common.field_env("HCCL_IF_IP", "status.hostIP"))
    env.append(common.visible_devices_env(spec.profile.resource))
    return env + common.user_env(spec)


def volcano_job(spec: Spec) -> Dict[str, Any]:
    container = common.container(spec, _env(spec), spec.npus_per_pod, ports=False,
                                 extra_mounts=[common.ranktable_mount(spec)])
    pod = common.pod_spec(spec, [container], common.anti_affinity(JOB_NAME_LABEL, spec.name),
                          restart_policy="OnFailure")
    pod_labels = {"app": spec.framework, common.RING_LABEL: spec.profile.ring_controller}
    defaults = {"fault-scheduling": DEFAULT_FAULT_SCHEDULING}
    return {
        "apiVersion": API_VERSION,
        "kind": KIND,
        "metadata": common.metadata(spec.name, spec.namespace, common.job_labels(spec, defaults),
                                    common.job_annotations(spec)),
        "spec": {
            "minAvailable": spec.pods,
            "schedulerName": "volcano",
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
