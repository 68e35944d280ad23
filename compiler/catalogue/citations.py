"""What each lint rule mirrors upstream: the function, its file and pinned commit, and upstream's message.

One record per lint rule (``tests/lint/test_citations.py`` checks there is one for every rule, naming a
source pinned in ``SOURCES``).  :func:`ascend_compile.lint.registry.documentation` appends it to the rule's
documentation, so ``ascend-compile explain``, SARIF and ``docs/rules.md`` show it.  Loaded only when a rule's
documentation is asked for.  Where upstream's docs and its code disagree, the code at these commits wins.
"""
from __future__ import annotations

from typing import Dict, NamedTuple

#: the pinned upstream sources (tests/simcluster/sources.py and ../shared/upstream/SOURCES.md)
MC = "mind-cluster 22bb3d98"
VC = "Volcano v1.12.0"
K8S = "Kubernetes v1.32.4"
MD = "mindcluster-deploy b9331e14 (samples)"
NONE = ""
SOURCES = (MC, VC, K8S, MD, NONE)

_OP = "component/ascend-operator/pkg/controllers/v1/"
_VAL = _OP + "ascendjob_validate.go"
_PL = "component/ascend-for-volcano/"
_VCJ = "pkg/webhooks/admission/jobs/validate/admit_job.go"
_K8V = "pkg/apis/core/validation/validation.go"


class Citation(NamedTuple):
    function: str  # the upstream function whose behaviour the rule mirrors ("" for a convention with none)
    path: str  # its file in the upstream repository
    source: str  # one of SOURCES
    message: str  # what upstream says ("" when it says nothing)

    def render(self) -> str:
        where = f"``{self.function}`` in ``{self.path}`` ({self.source})" if self.function else \
            f"no upstream code: ``{self.path}`` ({self.source})"
        said = f'upstream says: "{self.message}"' if self.message else "upstream reports nothing"
        return f"**Upstream.** {where}; {said}."


def _c(function: str, path: str, source: str, message: str = "") -> Citation:
    return Citation(function, path, source, message)


CITATIONS: Dict[str, Citation] = {
    "AC201": _c("ValidJob", "component/ascend-operator/pkg/controllers/scaling/controller.go", MC,
                "job %s has no group name, please set label of mind-cluster/group-name=..."),
    "AC202": _c("CheckAcJobScaleOutTypeLabel", "component/ascend-operator/pkg/utils/job_v2.go", MC,
                "the value of label scaleout-type is invalid, which should be ROCE or UBOE"),
    "AC203": _c("checkReplicaSpecs", _VAL, MC, "%s replicaSpec is not set, please modify your job"),
    "AC204": _c("validateBasicInfo", _VAL, MC, "job success policy is invalid, it must be one of <\"\", AllWorkers>"),
    "AC205": _c("validateBasicInfo", _VAL, MC, "check queue<%s> failed, err: %v, maybe it is not create"),
    "AC206": _c("GetJobFramework", "component/ascend-operator/pkg/api/v1/defaults.go", MC,
                "framework label is not set, please set label framework as one of <pytorch,mindspore,tensorflow>"),
    "AC207": _c("getValidReplicaType", _VAL, MC, "replicaType is %v but must be one of %v"),
    "AC208": _c("validateReplicas", _VAL, MC, "%s replicaSpec is not valid: replicas can not be negative num, but got %d"),
    "AC209": _c("validateLeader", _VAL, MC, "%s replicaSpec is not valid, the replicas must be only 1"),
    "AC210": _c("validateContainer", _VAL, MC, "... There is no container named ascend"),
    "AC211": _c("checkReplicaSpecs", _VAL, MC, "replicaType is not valid: there need 1 leader replicaType"),
    "AC212": _c("jobTotalRequest", _VAL, MC, "replicaSpec is not valid: when scheduler not found, the req num must be 1"),
    "AC213": _c("setDefaultPort", "component/ascend-operator/pkg/api/v1/defaults.go", MC),
    "AC214": _c("validateRestartPolicy", _K8V, K8S, "Unsupported value: \"%s\": supported values: \"Always\", "
                                                    "\"OnFailure\", \"Never\""),
    "AC215": _c("ShouldGenerateRankTable", "component/ascend-operator/pkg/ranktable/plugins.go", MC),
    "AC216": _c("newPodGroupSpec", _OP + "job.go", MC),
    "AC301": _c("ValidNPUJob", _PL + "internal/npu/base/frame.go", MC,
                "expected: job<%s> req npu num should small than %d, and not in %v, actual: task<%s> req npu: %d"),
    "AC302": _c("checkSpBlock", _PL + "internal/npu/ascend910/ascend910a3/superpod/frame.go", MC,
                "sp-block(%d) is not mutiple of node npu (%d)"),
    "AC303": _c("", "samples/train/basic-training/ranktable/yaml (request comments)", MD),
    "AC305": _c("get910CardHandlerName", _PL + "internal/npu/factory.go", MC),
    "AC306": _c("init910CardPolicyHandler", _PL + "internal/npu/factory.go", MC,
                "validNPUJob fail by job<%s> policyHandler is nil"),
    "AC307": _c("get910CardHandlerName", _PL + "internal/npu/factory.go", MC,
                "validNPUJob fail by job<%s> policyHandler is nil"),
    "AC308": _c("getJobSelectorFromVcJob", _PL + "plugin/job.go", MC),
    "AC309": _c("ValidNPUJob", _PL + "internal/nslb/frame.go", MC,
                "job tor affinity label check failed,tor-affinity label value is %s"),
    "AC310": _c("ValidNPUJob", _PL + "internal/npu/policy/multilevelscheduling/frame.go", MC,
                "affinity block levelN is not exist"),
    "AC311": _c("updateNewFaultJobAttr", _PL + "internal/rescheduling/reschedule.go", MC,
                "rescheduleLabel off, skip rescheduling"),
    "AC312": _c("isFailedTask", _PL + "internal/rescheduling/job.go", MC),
    "AC313": _c("setFaultRetryTimeOfJob", _PL + "internal/rescheduling/job.go", MC),
    "AC314": _c("checkSoftShareDevResource", _PL + "internal/npu/policy/chip1softsharedev/job.go", MC,
                "check share device job(%s) valid failed, aicoreQuota: %v not in range [1,100]"),
    "AC315": _c("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                "node(s) didn't match Pod's node affinity/selector"),
    "AC217": _c("validateServicePort", _K8V, K8S, "spec.ports[%d].name: Required value"),
    "AC316": _c("fitsRequest", "pkg/scheduler/framework/plugins/noderesources/fit.go", K8S, "Insufficient %v"),
    "AC317": _c("GetUsableTopFromNode", "component/ascend-for-volcano/internal/npu/base/node.go", MC,
                "node npu top<%v> is invalid"),
    "AC318": _c("getJobAnnotationFromJobInfo", _PL + "plugin/job.go", MC),
    "AC319": _c("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                "node(s) didn't match Pod's node affinity/selector"),
    "AC320": _c("getJobLabelFromVcJob", _PL + "plugin/job.go", MC),
    "AC401": _c("validateJobCreate", _VCJ, VC, "job 'minAvailable' should not be greater than total replicas in tasks;"),
    "AC402": _c("validateJobCreate", _VCJ, VC, "'maxRetry' cannot be less than zero."),
    "AC403": _c("validateJobCreate", _VCJ, VC, "No task specified in job spec"),
    "AC404": _c("validateJobCreate", _VCJ, VC, "'replicas' < 0 in task: %s, job: %s;"),
    "AC405": _c("validateJobCreate", _VCJ, VC, "duplicated task name %s;"),
    "AC406": _c("validatePolicies", "pkg/webhooks/admission/jobs/validate/util.go", VC,
                "duplicate event %v  across different policy"),
    "AC407": _c("validateJobCreate", _VCJ, VC, "unable to find job plugin: %s;"),
    "AC408": _c("Execute", "pkg/controllers/job/state/running.go", VC),
    "AC409": _c("setGangScheduleInfo", _OP + "pod.go", MC,
                "Another job scheduler is specified when gang-scheduling is enabled and it will not be overwritten"),
    "AC501": _c("saveRankTableConfigmap", _OP + "pod.go", MC),
    "AC502": _c("", "samples/train/basic-training/ranktable/yaml (rings-config ConfigMaps)", MD),
    "AC503": _c("saveRankTableConfigmap", _OP + "pod.go", MC),
    "AC504": _c("GenRankTableDir", "component/ascend-operator/pkg/ranktable/utils/util.go", MC),
    "AC505": _c("updateResetConfigMap", _PL + "plugin/job.go", MC, "get reset cm err by reset.json is not exist"),
    "AC506": _c("updateResetConfigMap", _PL + "plugin/job.go", MC),
    "AC507": _c("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "Couldn't get configMap %v/%v: %v"),
    "AC601": _c("", "samples/train/basic-training (ASCEND_VISIBLE_DEVICES comments)", MD),
    "AC602": _c("", "samples/train/basic-training/ranktable/train_start.sh", MD),
    "AC321": _c("getTaskStatus", "pkg/scheduler/api/helpers.go", VC),
    "AC603": _c("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (HCCL_IF_IP)", MC),
    "AC604": _c("", "samples/train/basic-training/ranktable/train_start.sh", MD),
    "AC701": _c("validateResourceRequirements", _K8V, K8S, "must be equal to %s limit of %s"),
    "AC702": _c("getContainerResourceReq", _OP + "utils.go", MC),
    "AC703": _c("getNpuReqInfoPerPod", _OP + "utils.go", MC),
    "AC704": _c("IsDNS1123Subdomain", "staging/src/k8s.io/apimachinery/pkg/util/validation/validation.go", K8S,
                "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.'"),
    "AC705": _c("validateK8sPodNameLength", _VCJ, VC, "create pod with name %s validate failed %v;"),
    "AC706": _c("validateTaskTemplate", _VCJ, VC, "spec.task[%d].template.spec.containers[%d].volumeMounts[%d].name: "
                                                  "Not found: \"%s\"; spec.volumes[%d].name: Duplicate value"),
    "AC707": _c("validateResourceRequirements", _K8V, K8S, "must be less than or equal to %s limit of %s"),
    "AC708": _c("validateObjectFieldSelector", _K8V, K8S, "Unsupported value: %q: supported values: %v"),
    "AC709": _c("validateTaskTemplate", _VCJ, VC, "spec.task[%d].template.spec.volumes[%d].name: Invalid value: "
                                                  "\"%s\": a lowercase RFC 1123 label must consist of lower case "
                                                  "alphanumeric characters or '-' (and the other pod template checks)"),
    "AC710": _c("EnsureImageExists", "pkg/kubelet/images/image_manager.go", K8S,
                "Failed to apply default image tag %q: %v (InvalidImageName)"),
    "AC711": _c("makeEnvironmentVariables", "pkg/kubelet/kubelet_pods.go", K8S),
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
}

