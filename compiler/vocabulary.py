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
from typing import Dict, FrozenSet, Mapping, Tuple

# --------------------------------------------------------------------------- API groups and kinds

ASCEND_JOB_API_VERSION = "mindxdl.gitee.com/v1"
ASCEND_JOB_API_GROUP = "mindxdl.gitee.com"
ASCEND_JOB_PLURAL = "ascendjobs"
VOLCANO_JOB_API_VERSION = "batch.volcano.sh/v1alpha1"
VOLCANO_JOB_API_GROUP = "batch.volcano.sh"
VOLCANO_JOB_PLURAL = "jobs"
CORE_API_VERSION = "v1"
#: Volcano's scheduling API: the PodGroup a job's pods are scheduled as, and the queue it waits in
VOLCANO_SCHEDULING_API_GROUP = "scheduling.volcano.sh"
VOLCANO_SCHEDULING_VERSION = "v1beta1"
PODGROUP_PLURAL = "podgroups"
QUEUE_PLURAL = "queues"
#: the queue a job without ``queue`` goes to (VC: pkg/webhooks/admission/jobs/mutate)
DEFAULT_QUEUE = "default"
#: the namespace an object that names none goes to when kubectl's context names none either
DEFAULT_NAMESPACE = "default"

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
#: what a lint rule lists among its kinds to see every other kind with pod templates (a RayCluster, a JobSet, a
#: CronJob, a kind the project config adds: ``podtemplates.py``): the rules that hold for any pod
TEMPLATED = "other kinds with pod templates"
#: the kinds the rules that hold for any pod look at
POD_KINDS: Tuple[str, ...] = WORKLOADS + (TEMPLATED,)
#: kinds whose own metadata annotations the Ascend scheduler plugin reads: the operator and Volcano's job
#: controller copy a job's annotations to its PodGroup, and a Pod is its own template. For the kinds Kubernetes'
#: controllers turn into pods (Deployment, StatefulSet, ...) Volcano's PodGroup takes only the volcano.sh/
#: annotations of the owner (``VC: pkg/controllers/podgroup/pg_controller_handler.go`` inheritUpperAnnotations),
#: so the plugin sees only what the pod template carries.
OWN_ANNOTATIONS_READ: Tuple[str, ...] = (ASCEND_JOB, VOLCANO_JOB, POD)
#: kinds whose pods Kubernetes' own controllers create: their metadata annotations never reach the scheduler
POD_CONTROLLERS: Tuple[str, ...] = tuple(kind for kind in WORKLOADS if kind not in OWN_ANNOTATIONS_READ)
JOBS: Tuple[str, ...] = (ASCEND_JOB, VOLCANO_JOB)
#: the scheduler every Ascend job names (``spec.schedulerName``)
SCHEDULER_NAME = "volcano"
#: the AscendJob ``successPolicy`` the operator accepts besides "" (``MC: pkg/api/v1/common.go``)
SUCCESS_POLICY_ALL_WORKERS = "AllWorkers"

#: Kubernetes' own kinds (apiVersion, kind) that ascend-compile has no schema for: they are skipped with an info
#: (AC106), as are other projects' kinds in their own groups; an unknown kind in our or Kubernetes' groups, or
#: one of our kinds under another group, perhaps a typo, with a warning
KUBERNETES_KINDS: FrozenSet[Tuple[str, str]] = frozenset(
    [("v1", kind) for kind in ("Pod", "Service", "Secret", "ServiceAccount", "PersistentVolumeClaim",
                               "PersistentVolume", "Endpoints", "LimitRange", "ResourceQuota", "ReplicationController",
                               "PodTemplate", "Event", "Node")]
    + [("apps/v1", kind) for kind in ("Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "ControllerRevision")]
    + [("batch/v1", "Job"), ("batch/v1", "CronJob"), ("policy/v1", "PodDisruptionBudget"),
       ("autoscaling/v1", "HorizontalPodAutoscaler"), ("autoscaling/v2", "HorizontalPodAutoscaler"),
       ("storage.k8s.io/v1", "StorageClass"), ("scheduling.k8s.io/v1", "PriorityClass"),
       ("coordination.k8s.io/v1", "Lease"), ("apiextensions.k8s.io/v1", "CustomResourceDefinition")]
    + [("networking.k8s.io/v1", kind) for kind in ("Ingress", "IngressClass", "NetworkPolicy")]
    + [("rbac.authorization.k8s.io/v1", kind) for kind in ("Role", "RoleBinding", "ClusterRole", "ClusterRoleBinding")]
    + [("admissionregistration.k8s.io/v1", kind)
       for kind in ("ValidatingWebhookConfiguration", "MutatingWebhookConfiguration")])

# --------------------------------------------------------------------------- job labels and annotations

#: job and pod-template label; makes ascend-operator write the ranktable (``MC: pkg/ranktable/plugins.go``)
RING_LABEL = "ring-controller.atlas"
#: the values of :data:`RING_LABEL` (``MC: docs/en/scheduling/api/k8s.md``)
RING_CONTROLLER_VALUES: Tuple[str, ...] = ("ascend-910", "ascend-910b", "ascend-310", "ascend-310P", "ascend-npu")
#: AscendJob label the operator reads the framework from (``MC: pkg/api/v1/defaults.go`` GetJobFramework)
FRAMEWORK_LABEL = "framework"
#: job annotation naming the scheduler handler (read by the plugin from MindCluster v7.3.2)
SCHEDULE_POLICY_ANNOTATION = "huawei.com/schedule_policy"
SP_BLOCK_ANNOTATION = "sp-block"
RA_BLOCK_ANNOTATION = "ra-block"
TOR_AFFINITY_LABEL = "tor-affinity"
#: the job label that picks an Atlas 300 / 300I Duo handler, and the values the plugin has one for
STRATEGY_310 = "npu-310-strategy"
STRATEGIES_310 = ("chip", "card")
#: the job label that asks for an Atlas 300I Duo handler (when it is exactly "true")
DUO_LABEL = "duo"
#: the value the plugin takes for a handler-picking job label that no one sets (``init310CardPolicyHandler``,
#: ``get310PCardHandlerName``: the chip strategy)
LABEL_DEFAULTS: Dict[str, str] = {STRATEGY_310: "chip"}

# --------------------------------------------------------------------------- fault tolerance (resumable training)

#: job label: rescheduling on faults, grace or force (``MC: ascend-for-volcano/internal/rescheduling/type.go``
#: JobRescheduleLabelKey); absent or ``off`` switches the plugin's rescheduling off for the job
FAULT_SCHEDULING_LABEL = "fault-scheduling"
FAULT_SCHEDULING_GRACE = "grace"
FAULT_SCHEDULING_FORCE = "force"
FAULT_SCHEDULING_OFF = "off"
#: the values that switch rescheduling on (``external-*`` are for inference workloads, not jobs)
FAULT_SCHEDULING_ON: Tuple[str, ...] = (FAULT_SCHEDULING_GRACE, FAULT_SCHEDULING_FORCE)
#: job label: unconditional retries on business-plane faults (``rescheduling/type.go`` FaultRetryTimesKey; the
#: operator also reads it as backoffLimit, ``ascend-operator/pkg/controllers/v1/consts.go``)
FAULT_RETRY_TIMES_LABEL = "fault-retry-times"
#: the value the label switches below take to mean "on" (``MC: ascend-common/api/consts.go`` EnableFunc)
ENABLED = "on"
#: job label: Pod-level rescheduling (``ascend-common/api/consts.go`` PodScheduleLabel)
POD_RESCHEDULING_LABEL = "pod-rescheduling"
#: PodGroup label the operator sets from recover-strategy (``ascend-common/api/consts.go`` ProcessScheduleLabel)
PROCESS_RECOVER_LABEL = "process-recover-enable"
#: job annotation: the process-level recovery strategies, comma separated (``api/consts.go`` RecoverStrategyKey)
RECOVER_STRATEGY_ANNOTATION = "recover-strategy"
#: the strategies the operator knows (``ascend-operator/pkg/controllers/v1/env.go`` addEnvByStrategy)
RECOVER_STRATEGIES: Tuple[str, ...] = ("retry", "recover", "recover-in-place", "elastic-training", "dump", "exit")
#: the strategy that saves a last-words checkpoint through MindIO's TTP port
DUMP_STRATEGY = "dump"
#: job annotation: seconds process-level rescheduling waits for the faulty pod's new node (30 to 270)
WAIT_RESCHEDULE_TIMEOUT_ANNOTATION = "wait-reschedule-timeout"
#: job label: what to do with sub-healthy nodes (``ascend-common/api/consts.go`` SubHealthyStrategy)
SUB_HEALTHY_LABEL = "subHealthyStrategy"
SUB_HEALTHY_STRATEGIES: Tuple[str, ...] = ("ignore", "graceExit", "forceExit", "hotSwitch")
SUB_HEALTHY_GRACE_EXIT = "graceExit"
SUB_HEALTHY_HOT_SWITCH = "hotSwitch"
#: job label: elastic rescheduling on or off (``rescheduling/type.go`` ElasticSchedulingKey)
ELASTIC_SCHEDULING_LABEL = "elastic-scheduling"
#: the ConfigMap the plugin writes restart and grace-exit information into (``ascend-for-volcano/plugin/type.go``
#: ResetInfoCMNamePrefix, ResetInfoCMDataKey); it must exist, the plugin only updates it
RESET_CONFIGMAP_PREFIX = "reset-config-"
RESET_KEY = "reset.json"
RESET_CHECK_CODE_KEY = "checkCode"
RESET_LABEL = "reset"
RESET_INITIAL = '{"status":"initializing"}'


def reset_configmap_name(job_name: str) -> str:
    """``reset-config-<job>``: the ConfigMap the scheduler's plugin writes a job's restart information into."""
    return RESET_CONFIGMAP_PREFIX + job_name


#: where TaskD reads ``reset.json`` (``MC: component/taskd/.../constant/const.go`` ResetConfigPath)
RESET_MOUNT_PATH = "/user/restore/reset/config"
#: the node directory the device plugin mirrors each reset ConfigMap into: ``<this>/<namespace>.<ConfigMap name>``
#: (``MC: component/ascend-device-plugin/pkg/common/file_manager.go`` GenResetDirName)
RESET_SHARED_DIR = "/user/restore/reset"
#: the pod volume of the reset information, as upstream's resumable-training samples name it
RESET_VOLUME = "reset-config"
#: TaskD's port on every pod of a job with Pod-level or process-level recovery (resumable-training docs)
TASKD_PORT_NAME = "taskd-port"
TASKD_PORT = 9601
#: MindIO's TTP port, for the ``dump`` strategy (resumable-training docs, "configuring last-words checkpoints")
TTP_PORT_NAME = "ttp-port"
TTP_PORT = 8000
TTP_PORT_ENV = "TTP_PORT"
#: the pod IP MindIO and TaskD talk on
POD_IP_ENV = "POD_IP"
POD_IP_FIELD = "status.podIP"

# --------------------------------------------------------------------------- scheduling policies that are not hardware

#: the multi-level scheduling handler (``ascend-for-volcano/common/util/constants.go`` MultiLevel) and the
#: annotation holding its task levels, ``level1=2,level2=4`` (AffinityConfig)
MULTILEVEL_POLICY = "multilevel"
AFFINITY_CONFIG_ANNOTATION = "huawei.com/affinity-config"
#: the annotations the Ascend plugin reads for a whole job, from its PodGroup or else one of its pods
#: (``MC: component/ascend-for-volcano/plugin/type.go`` annotationKeysForPodGroup)
POD_GROUP_ANNOTATIONS: Tuple[str, ...] = (SP_BLOCK_ANNOTATION, RA_BLOCK_ANNOTATION, SCHEDULE_POLICY_ANNOTATION, "sp-fit",
                                          "huawei.com/schedule_minAvailable", "huawei.com/recover_policy_path",
                                          "huawei.com/infer_service_schedule", AFFINITY_CONFIG_ANNOTATION)
#: ``level<n>`` keys of the affinity config (``common/util/constants.go`` TopoLevelPrefix)
LEVEL_PREFIX = "level"
#: the soft-share device handler: pods request a share of one NPU's AI Cores (``common/util/constants.go``
#: Chip1ShareShareDev), set by three job labels (SchedulerSoftShareDev*Key) the handler checks
SOFT_SHARE_POLICY = "chip1-softShareDev"
SOFT_SHARE_AICORE_LABEL = "huawei.com/scheduler.softShareDev.aicoreQuota"
SOFT_SHARE_HBM_LABEL = "huawei.com/scheduler.softShareDev.hbmQuota"
SOFT_SHARE_POLICY_LABEL = "huawei.com/scheduler.softShareDev.policy"
SOFT_SHARE_POLICIES: Tuple[str, ...] = ("fixed-share", "elastic", "best-effort")
#: the labels users set for a whole job that the plugin reads from the job's PodGroup (Volcano and the operator copy
#: the job's labels onto it) and its pods' (``getJobLabelFromVcJob`` in ``ascend-for-volcano/plugin/job.go``):
#: nowhere else
JOB_LABELS: Tuple[str, ...] = (FAULT_SCHEDULING_LABEL, FAULT_RETRY_TIMES_LABEL, POD_RESCHEDULING_LABEL,
                               SUB_HEALTHY_LABEL, ELASTIC_SCHEDULING_LABEL, TOR_AFFINITY_LABEL,
                               SOFT_SHARE_AICORE_LABEL, SOFT_SHARE_HBM_LABEL, SOFT_SHARE_POLICY_LABEL)

# --------------------------------------------------------------------------- node labels

#: node label naming the server type (MindCluster <= 26.0 dialect, a nodeSelector)
ACCELERATOR_TYPE_LABEL = "accelerator-type"
HOST_ARCH_LABEL = "host-arch"
#: the values MindCluster's installation guide labels nodes with (no upstream code reads the label)
HOST_ARCH_VALUES: Tuple[str, ...] = ("huawei-arm", "huawei-x86")
#: the plugin gives every job whose accelerator-type selector contains this the generic card handler
#: (``ascend-for-volcano/internal/npu/factory.go`` get910CardHandlerName, cardAcceleratorValue)
CARD_ACCELERATOR_MARK = "card"
#: how the plugin joins the differing accelerator-type values of a job's tasks into one job selector
#: (``ascend-for-volcano/plugin/job.go`` getJobSelectorFromVcJob)
SELECTOR_JOIN = "|"

# --------------------------------------------------------------------------- pod labels set by controllers

#: set on AscendJob pods by the operator
ASCEND_JOB_NAME_LABEL = "job-name"
#: set on AscendJob pods by the operator: the replica type in lower case
REPLICA_TYPE_LABEL = "replica-type"
#: set on Volcano Job pods by Volcano
VOLCANO_JOB_NAME_LABEL = "volcano.sh/job-name"
#: the pod label upstream's Volcano Job samples give every pod: the framework, lower case
APP_LABEL = "app"

# --------------------------------------------------------------------------- NPU resources

#: every device-plugin resource starts so; the operator and the plugin read the first such request
NPU_RESOURCE_PREFIX = "huawei.com/"
ASCEND_910 = "huawei.com/Ascend910"
#: Atlas 300 and 300I (Duo): their handler comes from the job labels npu-310-strategy and duo, not a policy
ASCEND310_RESOURCE = "huawei.com/Ascend310"
ASCEND310P_RESOURCE = "huawei.com/Ascend310P"
#: the 950/850/350 resource: it has no handler without a schedule policy
NPU_RESOURCE = "huawei.com/npu"
#: HAMi's Ascend device plugin (and Volcano's deviceshare plugin after 1.12) offers each chip model as
#: huawei.com/Ascend<model> with two companion resources, <resource>-memory (device memory, MiB) and
#: <resource>-core (a share of the AI cores), asked for beside it in the same container
HAMI_RESOURCE_PREFIX = "huawei.com/Ascend"
HAMI_COMPANION_SUFFIXES = ("-memory", "-core")
#: pod annotations only HAMi reads: its vNPU mode (``huawei.com/vnpu-mode: hami-core``) and its own ``hami.io/``
#: keys (``hami.io/use-Ascend910B-uuid``); a pod that carries one was written for HAMi's device plugin
HAMI_POD_ANNOTATION = "huawei.com/vnpu-mode"
HAMI_ANNOTATION_PREFIX = "hami.io/"
#: the one value of :data:`HAMI_POD_ANNOTATION` HAMi reads (soft slicing; any other value: template vNPUs), and the
#: node annotation HAMi's Ascend device plugin sets to "true" on a node in that mode (internal/server/register.go)
HAMI_CORE_MODE = "hami-core"
HAMI_NODE_CORE_ANNOTATION = "hami-vnpu-core"
#: the resources of HAMi's default device config (the plugin's ascend-device-configmap.yaml, ``resourceName``): all
#: but huawei.com/Ascend310P are offered by HAMi's device plugin only (MindCluster's offers each 910 as Ascend910)
HAMI_ONLY_RESOURCES = ("huawei.com/Ascend910A", "huawei.com/Ascend910B2", "huawei.com/Ascend910B3",
                       "huawei.com/Ascend910B4", "huawei.com/Ascend910B4-1", "huawei.com/Ascend910C")
#: the pod label Volcano's MindCluster vNPU mode needs on a pod before it cuts a vNPU for it, and the value
#: (Volcano v1.15.1 pkg/scheduler/api/devices/ascend/mindcluster/ascend310p/vnpu/utils.go checkVNPUResourcesInPod)
VNPU_310P_RING_VALUE = RING_CONTROLLER_VALUES[3]
#: that mode's pod labels: the AI-CPU level (low or high; any other: low) and DVPP (yes, no or null; any other value
#: refuses the pod on every node): type.go AscendVNPULevel, AscendVNPUDVPP
VNPU_LEVEL_LABEL, VNPU_LEVELS = "vnpu-level", ("low", "high")
VNPU_DVPP_LABEL, VNPU_DVPP_VALUES = "vnpu-dvpp", ("yes", "no", "null")
#: the dynamic vNPU resource (AI cores), the same on MindCluster's plugin and Volcano's MindCluster vNPU mode
NPU_CORE_RESOURCE = "huawei.com/npu-core"

# --------------------------------------------------------------------------- the ranktable

#: ``MC: pkg/controllers/v1/consts.go`` configmapPrefix
RANKTABLE_CONFIGMAP_PREFIX = "rings-config-"
#: ``MC: pkg/controllers/v1/consts.go`` configmapKey
RANKTABLE_KEY = "hccl.json"
#: what the operator expects in the ConfigMap before it writes the real ranktable
RANKTABLE_INITIAL = '{"status":"initializing"}'
#: where the start scripts read ``hccl.json`` (``MD: samples/.../rank_table.sh``)
RANKTABLE_MOUNT_PATH = "/user/serverid/devindex/config"
#: upstream's ranktable start script (``MD: samples/train/basic-training/ranktable/train_start.sh``): it reads the
#: ``framework`` env and, through ``rank_table.sh``, the ranktable at :data:`RANKTABLE_MOUNT_PATH`
START_SCRIPT = "train_start.sh"
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
#: the name of a compiled Volcano Job's one task, unless the spec names it (``taskName``)
VOLCANO_TASK_NAME = "worker"
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

#: the pod annotation naming a pod's task (Volcano sets it to the task name), and the value and the
#: annotation with which the A3 handlers let a task ask for 0 NPUs (``ascend-for-volcano/internal/npu/
#: ascend910/ascend910a3/type.go`` TaskSpecAnno, SchedulerType, SkipAscendPluginAnno, SkipEnabled)
TASK_SPEC_ANNOTATION = "volcano.sh/task-spec"
SCHEDULER_TASK_SPEC = "scheduler"
SKIP_ASCEND_PLUGIN_ANNOTATION = "huawei.com/skip-ascend-plugin"
SKIP_ASCEND_PLUGIN_ENABLED = "enabled"
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
#: the other way to tell HCCL which host interface to use (a name instead of an IP)
HCCL_SOCKET_IFNAME_ENV = "HCCL_SOCKET_IFNAME"
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

#: a name (an env variable's, a ConfigMap key, a field) whose value is a credential: a word of it (between
#: ``_``, ``-``, ``.``) is PASSWORD, TOKEN, SECRET, PAT (a personal access token: GITHUB_PAT), a KEY at its end
#: (HF_HUB_KEY; API_KEY and PRIVATE_KEY anywhere), CREDENTIALS, AUTH... Lint flags such a name with a literal
#: value (AC801), and no message repeats such a name's value (:func:`never_echoed`)
SECRET_NAME = re.compile(r"(^|[_\-.])(PASS(WORD|WD|PHRASE)?|PWD|SECRET|TOKEN|PAT|API[_\-]?KEY|ACCESS[_\-]?KEY|"
                         r"PRIVATE[_\-]?KEY|CREDENTIALS?|AUTH)($|[_\-.])|[_\-.]KEY$", re.I)
#: a word that keeps a name's value out of every message wherever it stands in the name (dbPassword, apiToken):
#: wider than SECRET_NAME, as a value not shown costs nothing and a false AC801 costs a finding
SECRET_WORD = re.compile(r"pass(word|wd|phrase)?|secret|token|credential|api[-_]?key|private[-_]?key|auth", re.I)


def never_echoed(name: str) -> bool:
    """Whether no message may repeat the value of ``name`` (an env variable, a key): it is a
    :data:`SECRET_NAME` or holds a :data:`SECRET_WORD`."""
    return SECRET_NAME.search(name) is not None or SECRET_WORD.search(name) is not None


#: DNS-1123 label: namespaces, task names
DNS1123_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
#: DNS-1123 subdomain: object names
DNS1123_SUBDOMAIN = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
#: DNS-1035 label: names that become Service names (jobs)
DNS1035_LABEL = re.compile(r"^[a-z]([-a-z0-9]*[a-z0-9])?$")
MAX_LABEL_LENGTH = 63
#: a label key's name (after its optional DNS-subdomain prefix and ``/``) and a non-empty label value
QUALIFIED_NAME = re.compile(r"^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$")
MAX_SUBDOMAIN_LENGTH = 253
