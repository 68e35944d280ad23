"""The names ascend-operator, Volcano and its Ascend plugin agree on, declared once.

Emission writes these names, the lint rules look for them, the cluster code
asks for the objects they name and the commands print them: every layer
imports them from here and none spells them out again.  Where a name is an
upstream constant the comment says where upstream declares it
(``MC:`` mind-cluster, ``VC:`` volcano); ``FACTS.md`` in ``../shared/upstream``
has the details.

This module holds constants only (and three compiled patterns), so every
command can import it at no cost.
"""
from __future__ import annotations

import re
from types import MappingProxyType
from typing import Mapping, Tuple

# --------------------------------------------------------------------------- API groups and kinds

ASCEND_JOB_API_VERSION = "mindxdl.gitee.com/v1"
ASCEND_JOB_API_GROUP = "mindxdl.gitee.com"
ASCEND_JOB_PLURAL = "ascendjobs"
VOLCANO_JOB_API_VERSION = "batch.volcano.sh/v1alpha1"
VOLCANO_JOB_API_GROUP = "batch.volcano.sh"
VOLCANO_JOB_PLURAL = "jobs"
CORE_API_VERSION = "v1"

#: kinds as this tool names them (lint ``KINDS``, the spec's ``target``): a Volcano Job is "VolcanoJob",
#: since its API kind, "Job", is also batch/v1's
ASCEND_JOB = "AscendJob"
VOLCANO_JOB = "VolcanoJob"
#: the API kind of a Volcano Job
VOLCANO_JOB_KIND = "Job"
CONFIG_MAP = "ConfigMap"
NAMESPACE = "Namespace"
POD = "Pod"
#: kinds with pod templates (batch/v1 ``Job`` is "Job"; Volcano's is "VolcanoJob")
WORKLOADS: Tuple[str, ...] = (ASCEND_JOB, VOLCANO_JOB, "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet",
                              "Job", POD)
JOBS: Tuple[str, ...] = (ASCEND_JOB, VOLCANO_JOB)
#: the scheduler every Ascend job names (``spec.schedulerName``)
SCHEDULER_NAME = "volcano"
#: the AscendJob ``successPolicy`` the operator accepts besides "" (``MC: pkg/api/v1/common.go``)
SUCCESS_POLICY_ALL_WORKERS = "AllWorkers"

# --------------------------------------------------------------------------- job labels and annotations

#: job and pod-template label; makes ascend-operator write the ranktable (``MC: pkg/ranktable/plugins.go``)
RING_LABEL = "ring-controller.atlas"
#: the values of :data:`RING_LABEL` (``MC: docs/en/scheduling/api/k8s.md``)
RING_CONTROLLER_VALUES: Tuple[str, ...] = ("ascend-910", "ascend-910b", "ascend-310", "ascend-310P", "ascend-npu")
#: AscendJob label the operator reads the framework from (``MC: pkg/api/v1/defaults.go`` GetJobFramework)
FRAMEWORK_LABEL = "framework"
#: job annotation naming the scheduler handler (MindCluster 26.1+ dialect)
SCHEDULE_POLICY_ANNOTATION = "huawei.com/schedule_policy"
SP_BLOCK_ANNOTATION = "sp-block"
RA_BLOCK_ANNOTATION = "ra-block"
TOR_AFFINITY_LABEL = "tor-affinity"
FAULT_SCHEDULING_LABEL = "fault-scheduling"
FAULT_RETRY_TIMES_LABEL = "fault-retry-times"

# --------------------------------------------------------------------------- node labels

#: node label naming the server type (MindCluster <= 26.0 dialect, a nodeSelector)
ACCELERATOR_TYPE_LABEL = "accelerator-type"
HOST_ARCH_LABEL = "host-arch"

# --------------------------------------------------------------------------- pod labels set by controllers

#: set on AscendJob pods by the operator
ASCEND_JOB_NAME_LABEL = "job-name"
#: set on AscendJob pods by the operator: the replica type in lower case
REPLICA_TYPE_LABEL = "replica-type"
#: set on Volcano Job pods by Volcano
VOLCANO_JOB_NAME_LABEL = "volcano.sh/job-name"

# --------------------------------------------------------------------------- NPU resources

#: every device-plugin resource starts so; the operator and the plugin read the first such request
NPU_RESOURCE_PREFIX = "huawei.com/"
ASCEND_910 = "huawei.com/Ascend910"
#: the 950/850/350 resource: it has no handler without a schedule policy
NPU_RESOURCE = "huawei.com/npu"

# --------------------------------------------------------------------------- the ranktable

#: ``MC: pkg/controllers/v1/consts.go`` configmapPrefix
RANKTABLE_CONFIGMAP_PREFIX = "rings-config-"
#: ``MC: pkg/controllers/v1/consts.go`` configmapKey
RANKTABLE_KEY = "hccl.json"
#: what the operator expects in the ConfigMap before it writes the real ranktable
RANKTABLE_INITIAL = '{"status":"initializing"}'
#: where the start scripts read ``hccl.json`` (``MD: samples/.../rank_table.sh``)
RANKTABLE_MOUNT_PATH = "/user/serverid/devindex/config"
#: the pod volume of the ``rings-config-<job>`` ConfigMap, as upstream's samples name it; the operator
#: does not look at this name (any name works), it finds the ConfigMap by its own name
RANKTABLE_CONFIGMAP_VOLUME = "ascend-910-config"
#: the pod volume ascend-operator looks for by exactly this name (``MC: pkg/ranktable/common/common.go``
#: RanktableStr): it triggers ranktable generation, and in an AscendJob (file mode) it is the hostPath
#: directory the operator writes ``hccl.json`` into
RANKTABLE_HOSTPATH_VOLUME = "ranktable"
#: the host directory the operator's Deployment mounts; a job's is ``<this>/<namespace>.<job>``
RANKTABLE_SHARED_DIR = "/user/mindx-dl/ranktable"


def ranktable_configmap_name(job_name: str) -> str:
    """``rings-config-<job>``: the only ConfigMap the operator writes a job's ranktable into."""
    return RANKTABLE_CONFIGMAP_PREFIX + job_name


# --------------------------------------------------------------------------- container and port

#: the container the operator injects env into and reads the NPU request from (``MC: ascend-common/api``)
CONTAINER_NAME = "ascend"
#: the leader's port (``api.DefaultPortName``, ``DefaultPort``)
PORT_NAME = "ascendjob-port"
DEFAULT_PORT = 2222

# --------------------------------------------------------------------------- frameworks and replica types

PYTORCH = "pytorch"
MINDSPORE = "mindspore"
TENSORFLOW = "tensorflow"
#: values of the ``framework`` label, exactly (lower case)
FRAMEWORKS: Tuple[str, ...] = (PYTORCH, MINDSPORE, TENSORFLOW)
MASTER = "Master"
SCHEDULER = "Scheduler"
CHIEF = "Chief"
WORKER = "Worker"
#: the leader replica type of each framework (``MC: pkg/api/v1/common.go``)
LEADERS: Mapping[str, str] = MappingProxyType({PYTORCH: MASTER, MINDSPORE: SCHEDULER, TENSORFLOW: CHIEF})
#: replica types the operator accepts per framework; the leader first
REPLICA_TYPES: Mapping[str, Tuple[str, ...]] = MappingProxyType(
    {framework: (leader, WORKER) for framework, leader in LEADERS.items()})
#: the ``framework`` env value the upstream start scripts compare against (exact case)
FRAMEWORK_ENV_VALUES: Mapping[str, str] = MappingProxyType(
    {PYTORCH: "PyTorch", MINDSPORE: "MindSpore", TENSORFLOW: "Tensorflow"})

# --------------------------------------------------------------------------- env

VISIBLE_DEVICES_ENV = "ASCEND_VISIBLE_DEVICES"
XDL_IP_ENV = "XDL_IP"
POD_UID_ENV = "POD_UID"
HCCL_IF_IP_ENV = "HCCL_IF_IP"
#: the env the ranktable start scripts branch on (values: :data:`FRAMEWORK_ENV_VALUES`)
FRAMEWORK_ENV = "framework"
#: fieldRef paths the Ascend env reads: the node's IP (XDL_IP, HCCL_IF_IP) and the pod's UID (POD_UID)
HOST_IP_FIELD = "status.hostIP"
POD_UID_FIELD = "metadata.uid"


def visible_devices_field_path(resource: str) -> str:
    """The annotation the scheduler writes the allocated devices of ``resource`` into."""
    return f"metadata.annotations['{resource}']"


# --------------------------------------------------------------------------- volumes the compiler adds

#: the NPU driver (hostPath), shared memory (emptyDir) and host time every compiled NPU pod mounts
DRIVER_VOLUME = "ascend-driver"
SHM_VOLUME = "dshm"
LOCALTIME_VOLUME = "localtime"

# --------------------------------------------------------------------------- Kubernetes names

#: DNS-1123 label: namespaces, task names
DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
#: DNS-1123 subdomain: object names
DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
#: DNS-1035 label: names that become Service names (jobs)
DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
MAX_LABEL_LENGTH = 63
MAX_SUBDOMAIN_LENGTH = 253
