"""What each lint rule mirrors upstream: the function, its file and pinned commit, and upstream's message.

One record per lint rule (``tests/lint/test_citations.py`` checks there is one for every rule, naming a
source pinned in ``SOURCES``), and the only place that names upstream's code: a rule's docstring explains in
our own words and names no upstream function, file, commit or message its citation carries (the same test).
Besides the function a rule mirrors, a citation lists the other places the rule's reasoning reads (``also``).
:func:`ascend_compile.lint.registry.documentation` appends it to the rule's documentation, so
``ascend-compile explain``, SARIF and ``docs/rules.md`` show it.  Loaded only when a rule's documentation is
asked for.  Where upstream's docs and its code disagree, the code at these commits wins.
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

from ..releases import RELEASES

#: the pinned upstream sources (tests/simcluster/sources.py and ../shared/upstream/SOURCES.md)
MC = "mind-cluster 22bb3d98"
VC = "Volcano v1.12.0"
K8S = "Kubernetes v1.32.4"
MD = "mindcluster-deploy b9331e14 (samples)"
NONE = ""
#: each supported release's archive (../shared/upstream/src/releases/): where a rule's claim differs by release, the
#: file of the release it names
AT = {release: f"mind-cluster {release}" for release in RELEASES}
#: the Volcano of MindCluster v6.0.0-v26.0.1's plugin (../shared/upstream/src/releases/volcano-v1.9.0.tar.gz)
VC19 = "Volcano v1.9.0"
#: the Volcano whose own Ascend device sharing the volcano-vnpu stacks are judged for (releases/volcano-v1.15.1.tar.gz)
VC115 = "Volcano v1.15.1"
#: HAMi's scheduler and its Ascend device plugin (Project-HAMi/HAMi, Project-HAMi/ascend-device-plugin) at the commits
#: read for the hami stacks
HAMI = "HAMi 01bfa756"
HAMI_PLUGIN = "ascend-device-plugin 074d93a8"
SOURCES = (MC, VC, K8S, MD, NONE, *AT.values(), VC19, VC115, HAMI, HAMI_PLUGIN)
_HAMI_VC = "pkg/scheduler/api/devices/ascend/hami/device_info.go"
_VNPU_VC = "pkg/scheduler/api/devices/ascend/mindcluster/ascend310p/vnpu/"

_OP = "component/ascend-operator/pkg/controllers/v1/"
_VAL = _OP + "ascendjob_validate.go"
_PL = "component/ascend-for-volcano/"
_VCJ = "pkg/webhooks/admission/jobs/validate/admit_job.go"
_K8V = "pkg/apis/core/validation/validation.go"


class Place(NamedTuple):
    """Another upstream place a rule's reasoning reads: a function in a file, or a file or folder ("" function)."""

    function: str
    path: str
    source: str  # one of SOURCES

    def render(self) -> str:
        return (f"``{self.function}`` in " if self.function else "") + f"``{self.path}`` ({self.source})"


class Citation(NamedTuple):
    function: str  # the upstream function whose behaviour the rule mirrors ("" for a convention with none)
    path: str  # its file in the upstream repository
    source: str  # one of SOURCES
    message: str  # what upstream says ("" when it says nothing)
    also: Tuple[Place, ...] = ()  # the other places the rule's reasoning reads

    def places(self) -> Tuple[Place, ...]:
        """The function the rule mirrors (when it names one), then the other places."""
        return ((Place(self.function, self.path, self.source),) if self.function else ()) + self.also

    def render(self) -> str:
        where = f"``{self.function}`` in ``{self.path}`` ({self.source})" if self.function else \
            f"no upstream code: ``{self.path}`` ({self.source})"
        said = f'upstream says: "{self.message}"' if self.message else "upstream reports nothing"
        also = "; see also " + ", ".join(place.render() for place in self.also) if self.also else ""
        return f"**Upstream.** {where}; {said}{also}."


def _c(function: str, path: str, source: str, message: str = "", also: Tuple[Place, ...] = ()) -> Citation:
    return Citation(function, path, source, message, also)


def _in_every_release(function: str, path: str) -> Tuple[Place, ...]:
    """The same function in the file of each supported release (a claim that holds on every release)."""
    return tuple(Place(function, path, source) for source in AT.values())


#: how a refused AscendJob ends, per release: a Warning event only (up to v7.3.2), marked Failed (from v26.0.1)
_REFUSED = (Place("Reconcile", _OP + "ascendjob_controller.go", AT["v7.3.2"]),
            Place("Reconcile", _OP + "ascendjob_controller.go", AT["v26.0.1"]))
#: MindCluster's own Volcano install: scheduler and controllers, no admission webhook
_NO_WEBHOOK = (Place("", _PL + "build/volcano-v1.9.0.yaml (no vc-webhook-manager)", AT["v26.0.1"]),
               Place("", _PL + "build/volcano-v1.12.0.yaml (no vc-webhook-manager)", AT["v26.1.0"]))


CITATIONS: Dict[str, Citation] = {
    "AC201": _c("ValidJob", "component/ascend-operator/pkg/controllers/scaling/controller.go", MC,
                "job %s has no group name, please set label of mind-cluster/group-name=...",
                also=(*_REFUSED, Place("validateJob", _VAL, AT["v7.3.2"]), Place("", _VAL + " (no scaling check)", AT["v7.0.RC1"]),)),
    "AC202": _c("CheckAcJobScaleOutTypeLabel", "component/ascend-operator/pkg/utils/job_v2.go", MC,
                "the value of label scaleout-type is invalid, which should be ROCE or UBOE",
                also=(*_REFUSED, Place("CheckAcJobScaleOutTypeLabel", "component/ascend-operator/pkg/utils/job_v2.go", AT["v26.0.1"]), Place("", _VAL + " (no scaleout-type check)", AT["v7.3.2"]),)),
    "AC203": _c("checkReplicaSpecs", _VAL, MC, "%s replicaSpec is not set, please modify your job",
                also=(*_REFUSED, Place("validateBasicInfo", _VAL, MC),)),
    "AC204": _c("validateBasicInfo", _VAL, MC, "job success policy is invalid, it must be one of <\"\", AllWorkers>",
                also=(Place("", "component/ascend-operator/pkg/api/v1/common.go", MC),)),
    "AC205": _c("validateBasicInfo", _VAL, MC, "check queue<%s> failed, err: %v, maybe it is not create",
                also=(*_REFUSED,)),
    "AC206": _c("GetJobFramework", "component/ascend-operator/pkg/api/v1/defaults.go", MC,
                "framework label is not set, please set label framework as one of <pytorch,mindspore,tensorflow>",
                also=(*_REFUSED,)),
    "AC207": _c("getValidReplicaType", _VAL, MC, "replicaType is %v but must be one of %v",
                also=(Place("", "component/ascend-operator/pkg/api/v1/common.go", MC),)),
    "AC208": _c("validateReplicas", _VAL, MC, "%s replicaSpec is not valid: replicas can not be negative num, but got %d",
                also=(*_REFUSED, Place("validateReplicas", _VAL, AT["v7.3.2"]), Place("", _VAL + " (no range check)", AT["v7.0.RC1"]), Place("", _OP + "consts.go (maxReplicas)", MC),)),
    "AC209": _c("validateLeader", _VAL, MC, "%s replicaSpec is not valid, the replicas must be only 1"),
    "AC210": _c("validateContainer", _VAL, MC, "... There is no container named ascend",
                also=(*_REFUSED, Place("validContainerNum", _VAL, MC),
                      Place("", "component/ascend-common/api/default_name.go", MC))),
    "AC211": _c("checkReplicaSpecs", _VAL, MC, "replicaType is not valid: there need 1 leader replicaType"),
    "AC212": _c("jobTotalRequest", _VAL, MC, "replicaSpec is not valid: when scheduler not found, the req num must be 1",
                also=(Place("getReplicaSpecRequestRes", _VAL, MC),
                      Place("getContainerResourceReq", _OP + "utils.go", MC))),
    "AC213": _c("setDefaultPort", "component/ascend-operator/pkg/api/v1/defaults.go", MC),
    "AC214": _c("validateRestartPolicy", _K8V, K8S, "Unsupported value: \"%s\": supported values: \"Always\", "
                                                    "\"OnFailure\", \"Never\"",
                also=(Place("", "component/ascend-operator/pkg/api/v1/ascendjob_types.go "
                                "(kubeflow common's RestartPolicy)", MC),)),
    "AC215": _c("ShouldGenerateRankTable", "component/ascend-operator/pkg/ranktable/plugins.go", MC,
                also=(Place("", _PL + "common/util/job.go", MC),)),
    "AC216": _c("newPodGroupSpec", _OP + "job.go", MC),
    "AC301": _c("ValidNPUJob", _PL + "internal/npu/base/frame.go", MC,
                "expected: job<%s> req npu num should small than %d, and not in %v, actual: task<%s> req npu: %d",
                also=(Place("get310PCardHandlerName", _PL + "internal/npu/factory.go", MC),
                      Place("init310PCardPolicyHandler", _PL + "internal/npu/factory.go", MC),
                      Place("init310CardPolicyHandler", _PL + "internal/npu/factory.go", MC),
                      Place("", _PL + "internal/npu/ascend910/ascend910b/module910bx16/frame.go", MC),
                      Place("", _PL + "internal/npu/ascend910/ascend910a3/*/frame.go", MC))),
    "AC302": _c("checkSpBlock", _PL + "internal/npu/ascend910/ascend910a3/superpod/frame.go", MC,
                "sp-block(%d) is not mutiple of node npu (%d)",
                also=(Place("setSpBlock", _PL + "plugin/job.go", MC),
                      Place("GetVCJobReqNPUTypeFromJobInfo", _PL + "plugin/job.go", MC))),
    "AC303": _c("", "samples/train/basic-training/ranktable/yaml (request comments)", MD),
    "AC305": _c("get910CardHandlerName", _PL + "internal/npu/factory.go", MC),
    "AC306": _c("init910CardPolicyHandler", _PL + "internal/npu/factory.go", MC,
                "validNPUJob fail by job<%s> policyHandler is nil",
                also=(Place("getJobSelectorFromVcJob", _PL + "plugin/job.go", MC),
                      Place("validJobFn", _PL + "plugin/job.go", MC))),
    "AC307": _c("get910CardHandlerName", _PL + "internal/npu/factory.go", MC,
                "validNPUJob fail by job<%s> policyHandler is nil",
                also=(Place("", _PL + "internal/npu/factory.go (policy910HandlerMap)", MC),
                      Place("getJobAnnotationFromJobInfo", _PL + "plugin/job.go", MC),
                      Place("inheritUpperAnnotations", "pkg/controllers/podgroup/pg_controller_handler.go", VC),
                      Place("getJobLabelFromVcJob", _PL + "plugin/job.go", MC),
                      Place("init310CardPolicyHandler", _PL + "internal/npu/factory.go", MC),
                      Place("get310PCardHandlerName", _PL + "internal/npu/factory.go", MC),
                      Place("init310PCardPolicyHandler", _PL + "internal/npu/factory.go", MC))),
    "AC308": _c("getJobSelectorFromVcJob", _PL + "plugin/job.go", MC),
    "AC309": _c("ValidNPUJob", _PL + "internal/nslb/frame.go", MC,
                "job tor affinity label check failed,tor-affinity label value is %s",
                also=(Place("getJobLabelFromVcJob", _PL + "plugin/job.go", MC),)),
    "AC310": _c("ValidNPUJob", _PL + "internal/npu/policy/multilevelscheduling/frame.go", MC,
                "affinity block levelN is not exist",
                also=(Place("GetAffinityBlocks", _PL + "plugin/job.go", MC),
                      Place("GetTaskTreeLevels", _PL + "common/util/type_multilevel.go", MC),
                      Place("checkTaskNPU", _PL + "internal/npu/policy/multilevelscheduling/frame.go", MC))),
    "AC311": _c("updateNewFaultJobAttr", _PL + "internal/rescheduling/reschedule.go", MC,
                "rescheduleLabel off, skip rescheduling",
                also=(Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (fault-retry-times)", MC),
                      Place("addPgProcessRecoverLabel", _OP + "job.go", MC),
                      Place("addProcessRecoverEnv", _OP + "env.go", MC),
                      Place("addSubHealthyEnv", _OP + "env.go", MC),
                      Place("setFaultRetryTimeOfJob", _PL + "internal/rescheduling/job.go", MC))),
    "AC312": _c("getTaskHealthStateByPod", _PL + "internal/rescheduling/reschedule.go", AT["v7.0.RC1"],
                also=(Place("getTaskHealthStateByPod", _PL + "internal/rescheduling/reschedule.go", AT["v6.0.0"]),
                      Place("faultRetryTimeOfJob", _PL + "internal/rescheduling/job.go", AT["v7.0.RC1"]),
                      Place("isFailedTask", _PL + "internal/rescheduling/job.go", AT["v7.3.2"]),
                      Place("setFaultRetryTimeOfJob", _PL + "internal/rescheduling/job.go", AT["v7.3.2"]),
                      Place("isFailedTask", _PL + "internal/rescheduling/job.go", AT["v26.1.0"]),
                      Place("setRestartPolicy", _OP + "pod.go", AT["v26.1.0"]),
                      Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (restartPolicy)", MC))),
    "AC313": _c("setFaultRetryTimeOfJob", _PL + "internal/rescheduling/job.go", MC,
                also=(Place("setFaultRetryTimesToBackoffLimits", _OP + "ascendjob_controller.go", AT["v6.0.0"]), Place("onOwnerCreateFunc", _OP + "ascendjob_controller.go", AT["v26.1.0"]), Place("setFaultRetryTimesToBackoffLimits", _OP + "ascendjob_controller.go", AT["v26.1.0"]), Place("setJobSubHealthyStrategy", _PL + "plugin/job.go", MC),
                      Place("addEnvByStrategy", _OP + "env.go", MC),
                      Place("getJobLabelFromVcJob", _PL + "plugin/job.go", MC),
                      Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (value ranges)", MC))),
    "AC314": _c("checkSoftShareDevResource", _PL + "internal/npu/policy/chip1softsharedev/job.go", MC,
                "check share device job(%s) valid failed, aicoreQuota: %v not in range [1,100]",
                also=(Place("getSoftShareDevResource", _PL + "internal/npu/policy/chip1softsharedev/job.go", MC),
                      Place("isSoftShareDevJob", _OP + "utils.go", MC))),
    "AC315": _c("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                "node(s) didn't match Pod's node affinity/selector",
                also=(Place("", "pkg/scheduler/plugins/predicates", VC),
                      Place("", "docs/en/scheduling/developer_guide/installation_deployment/manual_installation/"
                            "01_preparing_for_installation.md (node labels)", MC),
                      Place("", "samples/train/basic-training (nodeSelector host-arch)", MD))),
    "AC217": _c("validateServicePort", _K8V, K8S, "spec.ports[%d].name: Required value",
                also=(Place("setDefaultPort", "component/ascend-operator/pkg/api/v1/defaults.go", MC),
                      Place("genServicePorts", _OP + "service.go", MC),
                      Place("getOrCreateSvc", _OP + "jobinfo.go", MC))),
    "AC316": _c("fitsRequest", "pkg/scheduler/framework/plugins/noderesources/fit.go", K8S, "Insufficient %v"),
    "AC317": _c("GetUsableTopFromNode", "component/ascend-for-volcano/internal/npu/base/node.go", MC,
                "node npu top<%v> is invalid",
                also=(Place("SetMaxNodeNPUNum", _PL + "internal/npu/base/frame.go", MC),
                      Place("WithMaxNodeNum", _PL + "internal/npu/base/frame.go", MC),
                      Place("", _PL + "internal/npu/factory.go (each handler's node limit)", MC))),
    "AC318": _c("getJobAnnotationFromJobInfo", _PL + "plugin/job.go", MC,
                also=(Place("inheritUpperAnnotations", "pkg/controllers/podgroup/pg_controller_handler.go", VC),)),
    "AC319": _c("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                "node(s) didn't match Pod's node affinity/selector",
                also=(Place("", "docs/en/scheduling/developer_guide/installation_deployment/manual_installation/"
                            "01_preparing_for_installation.md (node labels)", MC),
                      Place("", "samples/train/basic-training (nodeSelector host-arch with accelerator-type)", MD))),
    "AC320": _c("getJobLabelFromVcJob", _PL + "plugin/job.go", MC,
                also=(Place("", _PL + "internal/rescheduling/type.go (the label keys)", MC),
                      Place("createOrUpdatePodGroup", "pkg/controllers/job/job_controller_actions.go", VC),
                      Place("", "pkg/controllers/podgroup/pg_controller_handler.go", VC),
                      Place("createPodGroup", _OP + "job.go", MC))),
    "AC330": _c("verifyReq", _HAMI_VC, VC115,
                "vNPU does not support partial memory allocation when requesting multiple devices",
                also=(Place("trimMemory", _HAMI_VC, VC115), Place("ResourceReqs", _HAMI_VC, VC115),
                      Place("GetResourceNames", _HAMI_VC, VC115), Place("GetIgnoredDevices", _HAMI_VC, VC115),
                      Place("", "pkg/scheduler/api/devices/config/vnpu.go (no core resource name)", VC115),
                      Place("MutateAdmission", "pkg/device/ascend/device.go", HAMI),
                      Place("GenerateResourceRequests", "pkg/device/ascend/device.go", HAMI),
                      Place("", "ascend-device-configmap.yaml (the chips, memory and templates)", HAMI_PLUGIN),
                      Place("registerKubelet", "internal/server/register.go", HAMI_PLUGIN),
                      Place("", "docs/volcano.md (hami-core needs Volcano 1.16)", HAMI_PLUGIN))),
    "AC331": _c("GetVTaskDVPP", _VNPU_VC + "device_manage.go", VC115, "err dvpp value:%s",
                also=(Place("checkVNPUResourcesInPod", _VNPU_VC + "utils.go", VC115),
                      Place("getResTemplateFromTaskSetting", _VNPU_VC + "utils.go", VC115),
                      Place("GetVTaskLevel", _VNPU_VC + "device_manage.go", VC115),
                      Place("IsResourceWholeCard", _VNPU_VC + "device_manage.go", VC115),
                      Place("HasDeviceRequest", _VNPU_VC + "device_info.go", VC115))),
    "AC401": _c("validateJobCreate", _VCJ, VC, "job 'minAvailable' should not be greater than total replicas in tasks;",
                also=(*_NO_WEBHOOK, Place("validateJobCreate", _VCJ, VC19), Place("", "pkg/controllers/job/job_controller_actions.go (PodGroup minMember)", VC19),)),
    "AC402": _c("validateJobCreate", _VCJ, VC, "'maxRetry' cannot be less than zero.",
                also=(*_NO_WEBHOOK, Place("validateJobCreate", _VCJ, VC19), Place("Execute", "pkg/controllers/job/state/restarting.go", VC19), Place("Execute", "pkg/controllers/job/state/restarting.go", VC), Place("timeLeft", "pkg/controllers/garbagecollector/garbagecollector.go", VC19),)),
    "AC403": _c("validateJobCreate", _VCJ, VC, "No task specified in job spec"),
    "AC404": _c("validateJobCreate", _VCJ, VC, "'replicas' < 0 in task: %s, job: %s;"),
    "AC405": _c("validateJobCreate", _VCJ, VC, "duplicated task name %s;",
                also=(*_NO_WEBHOOK, Place("", "pkg/controllers/job/helpers/helpers.go (PodNameFmt)", VC19), Place("topoSort", "pkg/webhooks/admission/jobs/validate/util.go", VC),
                      Place("makeGraph", "pkg/webhooks/admission/jobs/validate/util.go", VC))),
    "AC406": _c("validatePolicies", "pkg/webhooks/admission/jobs/validate/util.go", VC,
                "duplicate event %v  across different policy",
                also=(Place("validateJobCreate", _VCJ, VC),)),
    "AC407": _c("validateJobCreate", _VCJ, VC, "unable to find job plugin: %s;",
                also=(Place("", "pkg/controllers/job/plugins/", VC),
                      Place("", "pkg/controllers/job/plugins/distributed-framework/mpi/mpi.go", VC))),
    "AC408": _c("Execute", "pkg/controllers/job/state/running.go", VC,
                also=(Place("", "pkg/controllers/job/state/restarting.go", VC),
                      Place("", "component/ascend-for-volcano/internal/rescheduling", MC),
                      Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (spec.policies)", MC),
                      Place("", "component/ascend-for-volcano/build/build.sh and volcano-v*.yaml", MC))),
    "AC409": _c("setGangScheduleInfo", _OP + "pod.go", MC,
                "Another job scheduler is specified when gang-scheduling is enabled and it will not be overwritten",
                also=(Place("createJobPod", "pkg/controllers/job/job_controller_util.go", VC),
                      Place("getSchedulerName", _OP + "utils.go", MC))),
    "AC501": _c("saveRankTableConfigmap", _OP + "pod.go", MC,
                also=(Place("configmapExist", _OP + "pod.go", MC),
                      Place("", _OP + "consts.go (configmapPrefix)", MC))),
    "AC502": _c("", "samples/train/basic-training/ranktable/yaml (rings-config ConfigMaps)", MD,
                also=(Place("", _OP + "consts.go (configmapKey)", MC),)),
    "AC503": _c("saveRankTableConfigmap", _OP + "pod.go", MC,
                also=(*_in_every_release("writeRanktableToCm", _OP + "ascendjob_controller.go"),
                      Place("", _OP + "consts.go (configmapPrefix, every release)", AT["v26.1.0"]),
                      Place("", "samples/train/basic-training/ranktable/rank_table.sh (check_hccl_status: 60 tries "
                                "5 s apart, then exit 1; every revision since 2023-06-01)", MD))),
    "AC504": _c("GenRankTableDir", "component/ascend-operator/pkg/ranktable/utils/util.go", MC,
                also=(Place("GenResetDirName", "component/ascend-device-plugin/pkg/common/file_manager.go", MC),)),
    "AC505": _c("updateResetConfigMap", _PL + "plugin/job.go", MC, "get reset cm err by reset.json is not exist",
                also=(Place("updateResetConfigMapWithGraceExit", _PL + "internal/rescheduling/reschedule.go", MC),
                      Place("", "docs/zh/scheduling/04_usage/04_resumable_training/01_solutions_principles.md", MC))),
    "AC506": _c("updateResetConfigMap", _PL + "plugin/job.go", MC,
                also=(Place("", _PL + "plugin/type.go (ResetInfoCMNamePrefix)", MC),
                      Place("GenResetDirName", "component/ascend-device-plugin/pkg/common/file_manager.go", MC),
                      Place("", "tests/st/testcases/basic_schedule/training_910b/resources_0001/job_llama-2x8.yaml", MC))),
    "AC507": _c("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "Couldn't get configMap %v/%v: %v",
                also=(Place("SetUpAt", "pkg/volume/secret/secret.go", K8S),)),
    "AC601": _c("", "samples/train/basic-training (ASCEND_VISIBLE_DEVICES comments)", MD,
                also=(Place("", _OP + "env.go", MC),)),
    "AC602": _c("", "samples/train/basic-training/ranktable/train_start.sh", MD,
                also=(Place("", "samples/train/basic-training/ranktable/utils.sh and rank_table.sh", MD),)),
    "AC321": _c("getTaskStatus", "pkg/scheduler/api/helpers.go", VC),
    "AC603": _c("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (HCCL_IF_IP)", MC,
                also=(Place("", _OP + "env.go (sets no HCCL_IF_IP or HCCL_SOCKET_IFNAME)", AT["v6.0.0"]),
                      Place("", _OP + "env.go (sets no HCCL_IF_IP or HCCL_SOCKET_IFNAME)", AT["v26.1.0"]),
                      Place("", "samples/train/basic-training/ranktable/train_start.sh (get_env_for_pytorch_multi_node_job "
                                "exports HCCL_IF_IP=${XDL_IP}; blob 73b10192, branch_v6.0.0 to branch_v26.0.0)", MD),
                      Place("", "samples/train/basic-training/without-ranktable/*/train_start.sh (sets neither)", MD))),
    "AC604": _c("", "samples/train/basic-training/ranktable/train_start.sh (framework null check and the case-sensitive "
                    "comparisons; every revision 2023-06 to 2026-05, blob 73b10192 on branch_v6.0.0 to branch_v26.0.0)",
                MD,
                also=(Place("", "samples/train/resumable-training/fault-rescheduling/withRanktable/pytorch/*/"
                                "train_start.sh (reads framework)", MD),
                      Place("", "samples/train/resumable-training/fault-rescheduling/withRanktable/mindspore/*/"
                                "train_start.sh (does not read framework)", MD),
                      Place("", "samples/train/resumable-training/fault-tolerance/ranktable/mindspore/*/"
                                "train_start.sh (does not read framework)", MD),
                      Place("GetJobFramework", "component/ascend-operator/pkg/api/v1/defaults.go", MC))),
    "AC701": _c("validateResourceRequirements", _K8V, K8S, "must be equal to %s limit of %s",
                also=(Place("ValidateResourceQuantityValue", _K8V, K8S),
                      Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (resources)", MC),
                      Place("getContainerNPUResourceNameAndReq", _OP + "utils.go", MC),
                      Place("setEnv", _OP + "pod.go", MC),
                      Place("setAscendVisibleDevicesEnv", _OP + "env.go", MC),
                      Place("", "pkg/kubelet/cm/devicemanager (devices per container)", K8S))),
    "AC702": _c("getContainerResourceReq", _OP + "utils.go", MC,
                also=(Place("GetVCJobReqNPUTypeFromJobInfo", _PL + "plugin/job.go", MC),)),
    "AC703": _c("getNpuReqInfoPerPod", _OP + "utils.go", MC,
                also=(Place("getTotalNpuReplicas", _OP + "utils.go", MC),
                      Place("getNpuWorkerSpec", _OP + "utils.go", MC),
                      Place("checkNonWorkerRplMountChips", _OP + "utils.go", MC),
                      Place("createPodSpec", _OP + "pod.go", MC),
                      Place("setPytorchEnv", _OP + "env.go", MC),
                      Place("setMindSporeEnv", _OP + "env.go", MC),
                      Place("setTensorflowEnv", _OP + "env.go", MC),
                      Place("ValidNPUJob", _PL + "internal/npu/base/frame.go", MC))),
    "AC704": _c("IsDNS1123Subdomain", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go", K8S,
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'",
                also=(Place("validateJobName", _VCJ, VC),
                      Place("validateK8sPodNameLength", _VCJ, VC),
                      Place("", "pkg/controllers/job/plugins/svc/svc.go", VC),
                      Place("", "pkg/controllers/job/plugins/ssh/ssh.go", VC),
                      Place("", "pkg/webhooks/admission/jobs/mutate/mutate_job.go", VC))),
    "AC705": _c("validateK8sPodNameLength", _VCJ, VC, "create pod with name %s validate failed %v;",
                also=(Place("getOrCreateSvc", _OP + "jobinfo.go", MC),
                      Place("", _OP + "service.go", MC))),
    "AC706": _c("validateTaskTemplate", _VCJ, VC, "spec.task[%d].template.spec.containers[%d].volumeMounts[%d].name: "
                                                  "Not found: \"%s\"; spec.volumes[%d].name: Duplicate value",
                also=(Place("ValidateVolumeMounts", _K8V, K8S),
                      Place("ValidatePodTemplate", _K8V, K8S))),
    "AC707": _c("validateResourceRequirements", _K8V, K8S, "must be less than or equal to %s limit of %s"),
    "AC708": _c("validateObjectFieldSelector", _K8V, K8S, "Unsupported value: %q: supported values: %v",
                also=(Place("validateEnvVarValueFrom", _K8V, K8S),
                      Place("validateContainerResourceFieldSelector", _K8V, K8S),
                      Place("validateContainerResourceDivisor", _K8V, K8S),
                      Place("validateDownwardAPIVolumeFile", _K8V, K8S))),
    "AC709": _c("validateTaskTemplate", _VCJ, VC, "spec.task[%d].template.spec.volumes[%d].name: Invalid value: "
                                                  "\"%s\": a lowercase RFC 1123 label must consist of lower case "
                                                  "alphanumeric characters or '-' (and the other pod template checks)",
                also=(Place("validateContainerCommon", _K8V, K8S),
                      Place("validateContainerPorts", _K8V, K8S),
                      Place("ValidateEnv", _K8V, K8S),
                      Place("ValidateVolumeMounts", _K8V, K8S),
                      Place("validateVolumes", _K8V, K8S),
                      Place("AccumulateUniqueHostPorts", _K8V, K8S),
                      Place("validatePodHostNetworkDeps", _K8V, K8S),
                      Place("ValidateTolerations", _K8V, K8S))),
    "AC710": _c("EnsureImageExists", "pkg/kubelet/images/image_manager.go", K8S,
                "Failed to apply default image tag %q: %v (InvalidImageName)",
                also=(Place("applyDefaultImageTag", "pkg/kubelet/images/image_manager.go", K8S),
                      Place("ParseImageName", "pkg/util/parsers/parsers.go", K8S),
                      Place("ParseNormalizedNamed", "vendor/github.com/distribution/reference/normalize.go", K8S),
                      Place("splitDockerDomain", "vendor/github.com/distribution/reference/normalize.go", K8S),
                      Place("Parse", "vendor/github.com/distribution/reference/reference.go", K8S),
                      Place("", "vendor/github.com/distribution/reference/regexp.go", K8S),
                      Place("Digest.Validate", "vendor/github.com/opencontainers/go-digest/digest.go", K8S),
                      Place("validateContainers", _K8V, K8S))),
    "AC711": _c("makeEnvironmentVariables", "pkg/kubelet/kubelet_pods.go", K8S,
                also=(Place("ExpandContainerCommandAndArgs", "pkg/kubelet/container/helpers.go", K8S),
                      Place("Expand", "third_party/forked/golang/expansion/expand.go", K8S),
                      Place("addEnvValue", _OP + "env.go", MC),
                      Place("", "pkg/controllers/job/plugins/env/env.go", VC),
                      Place("", "pkg/controllers/job/plugins/svc/svc.go", VC))),
    "AC712": _c("ValidateLabels", "staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", K8S,
                "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                "must start and end with an alphanumeric character",
                also=(Place("IsQualifiedName", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go", K8S),
                      Place("IsValidLabelValue", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go",
                            K8S),
                      Place("ValidateAnnotations", "staging/src/k8s.io/apimachinery/pkg/api/validation/objectmeta.go",
                            K8S),
                      Place("ValidateLabelSelector",
                            "staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go", K8S),
                      Place("ValidatePodTemplateSpec", _K8V, K8S),
                      Place("ValidatePodSpec", _K8V, K8S),
                      Place("validatePodAffinityTerm", _K8V, K8S),
                      Place("ValidateNodeSelectorRequirement", _K8V, K8S),
                      Place("ValidateTolerations", _K8V, K8S),
                      Place("validateTopologySpreadConstraints", _K8V, K8S),
                      Place("validateTaskTemplate", _VCJ, VC))),
    "AC801": _c("", "no upstream rule: Kubernetes Secrets documentation (a security convention)", NONE),
    "AC901": _c("validateBasicInfo", _VAL, MC, "check queue<%s> failed, err: %v, maybe it is not create"),
    "AC902": _c("validateJobCreate", _VCJ, VC, "can only submit job to queue with state `Open`, queue `%s` status is `%s`"),
    "AC903": _c("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                "node(s) didn't match Pod's node affinity/selector"),
    "AC904": _c("GetUsableTopFromNode", _PL + "internal/npu/base/node.go", MC, "node npu top<%v> is invalid"),
    "AC905": _c("fitsRequest", "pkg/scheduler/framework/plugins/noderesources/fit.go", K8S, "Insufficient %v"),
    "AC906": _c("OnSessionClose", "pkg/scheduler/plugins/gang/gang.go", VC,
                "%v/%v tasks in gang unschedulable: %v"),
    "AC907": _c("OnSessionClose", "pkg/scheduler/plugins/gang/gang.go", VC,
                "%v/%v tasks in gang unschedulable: %v"),
    "AC908": _c("PreFilter", "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", K8S,
                "persistentvolumeclaim \"%s\" not found"),
    "AC909": _c("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "configmap \"%s\" not found"),
    "AC910": _c("ValidNPUJob", _PL + "internal/nslb/frame.go", MC,
                "job tor affinity check failed, cluster basic-tor-node-cm is not imported"),
    "AC911": _c("CheckNodeNPUByTask", _PL + "internal/npu/policy/multilevelscheduling/frame.go", MC,
                "topology label does not match config"),
}

