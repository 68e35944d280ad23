"""The MindCluster releases ascend-compile judges jobs for, and what upstream does differently in each.

A check is for one **target**: the MindCluster release the cluster runs (its Ascend plugin and
ascend-operator), the Volcano release under that plugin, and whether Volcano's admission webhook is
installed (MindCluster's own install ships none). Users run released versions, and those differ: a fact
holds for the releases it was shown on.

:data:`FACTS` is the one place for each fact that changed between supported releases: its value for each
span of releases (first and last, inclusive, in the order of :data:`RELEASES`) and where that was shown
(the file of each release's tree, and the simulated-cluster test that shows the releases at the ends of each
span). Rules ask the run's :class:`Target` for a fact's value; where no target was given they judge for
:data:`DEFAULT_RELEASE` and say, with :func:`qualifier`, for which releases a finding holds.

This module holds data and string functions only (no import of ours), so every floor may read it.
"""
from __future__ import annotations

import re
from collections import namedtuple
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Tuple

#: the supported MindCluster releases, oldest first (each built and run on the simulated cluster)
RELEASES: Tuple[str, ...] = ("v6.0.0", "v7.0.RC1", "v7.3.2", "v26.0.1", "v26.1.0")
#: the Volcano release each MindCluster release's plugin is built into (the plugin's own build/volcano-*.yaml)
VOLCANO_OF: Mapping[str, str] = {"v6.0.0": "v1.9.0", "v7.0.RC1": "v1.9.0", "v7.3.2": "v1.9.0",
                                 "v26.0.1": "v1.9.0", "v26.1.0": "v1.12.0"}
#: what a run judges for when nothing names a release: the newest supported one
DEFAULT_RELEASE = RELEASES[-1]

_ORDER = {name: index for index, name in enumerate(RELEASES)}
_DEFAULT_SOURCE = f"the default (the newest supported release, {DEFAULT_RELEASE})"

# ------------------------------------------------------------------ device stacks (issue 45)
#: the device stacks a cluster may give pods their NPUs with: MindCluster's device plugin with its Volcano plugin (the
#: default); HAMi's scheduler with HAMi's Ascend device plugin; Volcano's own Ascend device sharing (its deviceshare
#: plugin, Volcano >= 1.14) in HAMi mode (``deviceshare.AscendHAMiVNPUEnable``, HAMi's Ascend device plugin on the
#: nodes) or in MindCluster vNPU mode (``deviceshare.AscendMindClusterVNPUEnable``, 310P dynamic vNPU)
MINDCLUSTER_STACK, HAMI_STACK = "mindcluster", "hami"
VOLCANO_HAMI_STACK, VOLCANO_MINDCLUSTER_STACK = "volcano-vnpu:hami", "volcano-vnpu:mindcluster"
DEVICE_STACKS: Mapping[str, str] = {
    MINDCLUSTER_STACK: "MindCluster's device plugin",
    HAMI_STACK: "HAMi (its scheduler and its Ascend device plugin)",
    VOLCANO_HAMI_STACK: "Volcano's native Ascend device sharing in HAMi mode (HAMi's Ascend device plugin)",
    VOLCANO_MINDCLUSTER_STACK: "Volcano's native Ascend device sharing in MindCluster vNPU mode",
}
#: the stacks whose nodes run HAMi's Ascend device plugin (resources named by chip model, -memory and -core)
HAMI_STACKS = (HAMI_STACK, VOLCANO_HAMI_STACK)
#: the stacks a rule about MindCluster's Volcano plugin holds on (its handlers, policies, fault handling): its own
PLUGIN_STACKS = (MINDCLUSTER_STACK,)
#: the stacks whose nodes run MindCluster's device plugin with ascend-operator beside it (its node labels, its device
#: annotations, the ranktable the operator writes from them): Volcano's MindCluster vNPU mode installs them too
MINDCLUSTER_DEVICE_STACKS = (MINDCLUSTER_STACK, VOLCANO_MINDCLUSTER_STACK)
#: the Volcano release the volcano-vnpu stacks are judged for (its pkg/scheduler/api/devices/ascend)
DEVICESHARE_VOLCANO = "v1.15.1"
_STACK_DEFAULT_SOURCE = "the default (nothing named a device stack)"


def stack_of(text: Optional[str]) -> Optional[str]:
    """The device stack a flag or setting names (``hami``, ``volcano-vnpu:hami``, also ``volcano-vnpu/hami``, any
    case); None when it names none of :data:`DEVICE_STACKS`."""
    name = (text or "").strip().lower().replace("/", ":")
    return name if name in DEVICE_STACKS else None


class Fact(namedtuple("Fact", "name about spans shown")):
    """A fact about upstream whose value depends on the release: ``spans`` are (first, last, value), covering
    every supported release once, oldest first; ``shown`` says where each span was shown."""

    __slots__ = ()
    name: str
    about: str
    spans: Tuple[Tuple[str, str, Any], ...]
    shown: str


def _facts(*facts: Fact) -> Dict[str, Fact]:
    return {fact.name: fact for fact in facts}


#: every release-dependent fact a check reads (tests/unit/test_releases.py checks each covers every release once)
FACTS: Dict[str, Fact] = _facts(
    # ------------------------------------------------------------------ fault handling, restarts, start scripts
    Fact("exit-code-fails-task",
         "with fault-retry-times, the plugin counts a task as failed when a container's last run ended with a "
         "non-zero exit code (the kubelet restarted it in place, the pod is still Running), not only when the pod "
         "is in phase Failed",
         (("v6.0.0", "v7.0.RC1", False), ("v7.3.2", "v26.1.0", True)),
         "component/ascend-for-volcano/internal/rescheduling: the pod-phase test in reschedule.go "
         "(getTaskHealthStateByPod) up to v7.0.RC1, isFailedTask in job.go from v7.3.2"),
    Fact("fault-retry-times-on-pods",
         "the plugin reads fault-retry-times from the job's pod labels too, not only from its PodGroup (the job's "
         "own labels)",
         (("v6.0.0", "v7.0.RC1", False), ("v7.3.2", "v26.1.0", True)),
         "component/ascend-for-volcano/internal/rescheduling/job.go: faultRetryTimeOfJob reads "
         "job.PodGroup.Labels up to v7.0.RC1; from v7.3.2 the fault job's labels are the PodGroup's with its pods' "
         "(fJob.Labels = npuJob.Label)"),
    Fact("refused-ascendjob-failed",
         "an AscendJob ascend-operator's validation refuses is marked Failed (condition reason JobValidFailed); "
         "before that release it gets only a Warning event and sits with no pods and no status",
         (("v6.0.0", "v7.3.2", False), ("v26.0.1", "v26.1.0", True)),
         "component/ascend-operator/pkg/controllers/v1/ascendjob_controller.go: Reconcile after validateJob "
         "(event only up to v7.3.2; the Failed condition with jobValidFailedReason, consts.go, from v26.0.1)"),
    Fact("operator-checks-scaling-labels",
         "ascend-operator refuses an AscendJob labelled mind-cluster/scaling-rule without mind-cluster/group-name "
         "or jobID",
         (("v6.0.0", "v7.0.RC1", False), ("v7.3.2", "v26.1.0", True)),
         "component/ascend-operator/pkg/controllers/v1/ascendjob_validate.go: no scaling check up to v7.0.RC1; "
         "validateJob calls the scaling controller's ValidJob (pkg/controllers/scaling/controller.go) from v7.3.2"),
    Fact("operator-checks-scaleout-type",
         "ascend-operator refuses an AscendJob whose scaleout-type label is not ROCE or UBOE",
         (("v6.0.0", "v7.3.2", False), ("v26.0.1", "v26.1.0", True)),
         "component/ascend-operator/pkg/controllers/v1/ascendjob_validate.go: no scaleout-type check up to v7.3.2; "
         "pkg/utils/job_v2.go CheckAcJobScaleOutTypeLabel from v26.0.1"),
    Fact("operator-checks-replica-range",
         "ascend-operator refuses a replica count below 0 or above its maximum (20000)",
         (("v6.0.0", "v7.0.RC1", False), ("v7.3.2", "v26.1.0", True)),
         "component/ascend-operator/pkg/controllers/v1/ascendjob_validate.go: validateReplicas has no range check "
         "up to v7.0.RC1 (v6.0.0 refuses 0 only); the negative and maxReplicas (consts.go) checks from v7.3.2"),
    # ------------------------------------------------------------------ per-release claims shown (issue 44, H-rel)
    Fact("ranktable-configmap",
         "the only ConfigMap ascend-operator writes a job's ranktable into (it never reads the job's volumes to find "
         "another): the ConfigMap named for the job, its prefix and the job's name; a ranktable volume naming another "
         "of that prefix keeps what it was created with",
         (("v6.0.0", "v26.1.0", "<prefix><job>"),),
         "component/ascend-operator/pkg/controllers/v1/pod.go and ascendjob_controller.go (configmapPrefix + "
         "jobName, consts.go), every release; the pods' wait for the ranktable is the start script's "
         "(mindcluster-deploy samples/train/basic-training/ranktable/rank_table.sh check_hccl_status), which the "
         "simulated containers do not run"),
    # ------------------------------------------------------------------ handlers, policies, NPU counts
    Fact("schedule-policies",
         "the schedule_policy annotation values the plugin's policy map holds: such a value picks the handler of a "
         "huawei.com/Ascend910 (or huawei.com/npu) job before sp-block and accelerator-type; none: the annotation is "
         "not read at all, the job falls through to sp-block, accelerator-type or the default handler",
         (("v6.0.0", "v7.0.RC1", ()),
          ("v7.3.2", "v7.3.2", ("chip1-node2", "chip2-node16", "chip2-node16-sp", "chip4-node4", "chip4-node8",
                                "chip8-node16", "chip8-node8", "module-a3-16")),
          ("v26.0.1", "v26.1.0", ("chip1-node16", "chip1-node2", "chip1-node8", "chip1-softShareDev", "chip2-node16",
                                  "chip2-node16-sp", "chip2-node8", "chip2-node8-sp", "chip4-node16", "chip4-node4",
                                  "chip4-node8", "chip8-node16", "chip8-node8", "chip8-node8-ra64-sp", "chip8-node8-sp",
                                  "module-a3-16", "multilevel"))),
         "component/ascend-for-volcano: no schedule_policy constant up to v7.0.RC1; internal/npu/factory.go "
         "policy910HandlerMap (8 keys) in v7.3.2, (17 keys) from v26.0.1"),
    Fact("policy-handler-profiles",
         "schedule policies whose handler is not that of the profiles naming them: the profiles whose rules it "
         "applies (none: a handler no profile describes). The Ascend 350 handlers chip4-node8, chip4-node16, "
         "chip1-node8 and chip1-node16 pick from v26.0.1 are not modelled: no profile describes them, and such a "
         "job is judged by its node selectors, as a policy no profile names",
         (("v6.0.0", "v7.0.RC1", {}),
          ("v7.3.2", "v7.3.2", {"chip4-node8": ("module-910",)}),
          ("v26.0.1", "v26.1.0", {"chip2-node8": ("module-a3-16",)})),
         "component/ascend-for-volcano/internal/npu/factory.go policy910HandlerMap: chip4-node8 -> the Atlas 800 "
         "module910x8 handler in v7.3.2; chip4-node8/chip4-node16 -> chip4nodex (4p-8, 4p-16), chip1-node8/16 -> "
         "1p-8/1p-16, chip2-node8 -> module-a3-16 from v26.0.1"),
    Fact("pod-annotations-read",
         "job annotations the plugin takes from the job's first pod when its PodGroup lacks them, named without "
         "their huawei.com/ prefix (none: the PodGroup's only, a pod template's annotation is never read)",
         (("v6.0.0", "v7.0.RC1", ()),
          ("v7.3.2", "v7.3.2", ("sp-block", "schedule_policy", "sp-fit", "schedule_minAvailable",
                                "recover_policy_path")),
          ("v26.0.1", "v26.1.0", ("sp-block", "schedule_policy", "sp-fit", "schedule_minAvailable",
                                  "recover_policy_path", "ra-block"))),
         "component/ascend-for-volcano/plugin/job.go: Annotation = PodGroup.Annotations up to v7.0.RC1; "
         "getJobAnnotationFromJobInfo with plugin/type.go annotationKeysForPodGroup from v7.3.2 (+ra-block from v26.0.1)"),
    Fact("handlers-absent",
         "built-in profiles whose handler the plugin does not have: a job naming their accelerator-type gets no "
         "handler (with sp-block, the default super-pod one)",
         (("v6.0.0", "v6.0.0", ("850-super-pod", "950-super-pod", "module-a3-16", "module-a3-8-super-pod")),
          ("v7.0.RC1", "v7.3.2", ("850-super-pod", "950-super-pod", "module-a3-8-super-pod")),
          ("v26.0.1", "v26.1.0", ())),
         "component/ascend-for-volcano: internal/ascend910/frame.go handler list (no A3 server handler) in v6.0.0; "
         "internal/npu/factory.go from v7.0.RC1 (module-a3-8-super-pod and the huawei.com/npu handlers from v26.0.1)"),
    Fact("super-pod-by-sp-block-only",
         "the A3 super-pod handler is reached only through the sp-block annotation (an accelerator-type "
         "module-a3-16-super-pod alone names no handler)",
         (("v6.0.0", "v7.0.RC1", True), ("v7.3.2", "v26.1.0", False)),
         "component/ascend-for-volcano: internal/ascend910/frame.go InitMyJobPlugin (v6.0.0), internal/npu/factory.go "
         "and the super-pod handler named huawei.com/Ascend910super-pod (v7.0.RC1); handler named "
         "...module-a3-16-super-pod from v7.3.2 (ascend910a3/superpod/type.go)"),
    Fact("module-handler-refuses-typed-nodes",
         "the default handler of huawei.com/Ascend910 jobs (huawei.com/Ascend910module, the Atlas 800 rules) refuses "
         "every node whose accelerator-type label is set to anything but module (\"check Node ... label "
         "[accelerator-type] Failed\")",
         (("v6.0.0", "v26.0.1", True), ("v26.1.0", "v26.1.0", False)),
         "component/ascend-for-volcano: checkNodeLabelOK in internal/ascend910/asend910old/module910x8/node.go "
         "(v6.0.0), internal/npu/ascend910/ascend910old/module910x8/node.go (v7.0.RC1-v26.0.1); gone in v26.1.0"),
    Fact("card-handler-max",
         "the most NPUs per pod the handler of accelerator-types containing card takes, and the most free NPUs a "
         "node it takes may have (MaxNodeNPUNum)",
         (("v6.0.0", "v7.0.RC1", 2), ("v7.3.2", "v26.1.0", 8)),
         "component/ascend-for-volcano: card910x2, card910bx2, card910bx2infer type.go (v6.0.0); "
         "internal/npu/factory.go initCard910ByBaseHandler MaxNodeNPUNum 2 (v7.0.RC1), 8 from v7.3.2"),
    Fact("module-a3-16-distributed-per-pod",
         "the NPUs each pod of a distributed module-a3-16 job must request (None: any even number up to 16, the "
         "profile's list; v6.0.0 has no such handler, see handlers-absent)",
         (("v6.0.0", "v7.0.RC1", (16,)), ("v7.3.2", "v26.1.0", None)),
         "component/ascend-for-volcano/internal/npu/ascend910/ascend910a3/module910a3x16/frame.go: every NPU task "
         "== 16 in v7.0.RC1, even and <= 16 from v7.3.2"),
    Fact("average-per-pod",
         "the handlers check the job's average NPUs per pod (the NPUs of its PodGroup's minResources, which count "
         "the first minAvailable pods, over its NPU pods, integer division), not each pod (v6.0.0's old Atlas 800 "
         "handlers check the first NPU pod only; modelled as the average)",
         (("v6.0.0", "v7.0.RC1", True), ("v7.3.2", "v26.1.0", False)),
         "component/ascend-for-volcano/internal/npu/base/frame.go ValidNPUJob: ReqNPUNum / NPUTaskNum, ReqNPUNum from "
         "the PodGroup's minResources (plugin/job.go GetVCJobReqNPUTypeFromJobInfo) in v7.0.RC1 "
         "(internal/ascend910/ascend910b/job.go in v6.0.0); per task from v7.3.2"),
    Fact("ring-controller-910b-required",
         "profiles whose handler refuses a job whose ring-controller label is not ascend-910b (\"label:... not "
         "right(ascend-910b)\", \"job need label(...: ascend-910b)\")",
         (("v6.0.0", "v6.0.0", ("card-910b-2", "card-910b-infer", "module-910b-16", "module-910b-8",
                                "module-a3-16-super-pod")),
          ("v7.0.RC1", "v26.1.0", ())),
         "component/ascend-for-volcano/internal/ascend910/ascend910b/job.go and ascend910b/superpod/frame.go "
         "(v6.0.0); from v7.0.RC1 the label is read only for dynamic vNPU (common/util/job.go)"),
    Fact("no-handler-refused",
         "a job the plugin finds no handler for is refused (NotSupportPolicy, \"no policy handler registered\"); "
         "before, it passes with no NPU checks at all (no per-pod rules, no node checks, no NPU annotation)",
         (("v6.0.0", "v26.0.1", False), ("v26.1.0", "v26.1.0", True)),
         "component/ascend-for-volcano: internal/ascend910/frame.go handle == nil (v6.0.0), internal/controller.go "
         "ValidNPUJob over an empty handler list (v7.0.RC1-v26.0.1); NotSupportPolicyReason in v26.1.0"),
    Fact("no-handler-crashes-scheduler",
         "a huawei.com/Ascend910 or huawei.com/Ascend310 job the plugin finds no handler for ends the plugin's set-up "
         "of the session's jobs (the jobs after it, in that session's random map order, keep no job data), and such a "
         "huawei.com/Ascend910 job tried against a node with enough free NPUs crashes vc-scheduler (nil pointer "
         "dereference in CheckNodeNPUByTask): a job waiting for nodes is tried every session, so the scheduler "
         "crashes within seconds, and again after each restart, while both exist (alone, the job without a handler "
         "runs with no NPU checks)",
         (("v6.0.0", "v6.0.0", True), ("v7.0.RC1", "v26.1.0", False)),
         "component/ascend-for-volcano: plugin/factory.go InitJobsPlugin returns at the first job whose "
         "InitMyJobPlugin fails, internal/ascend910/frame.go and internal/ascend310/frame.go InitMyJobPlugin fail "
         "(\"not support <handler>\") for a job without a handler, internal/ascend910/frame.go CheckNodeNPUByTask "
         "reads the job type through the unset job data (v6.0.0); from v7.0.RC1 internal/controller.go "
         "InitMyJobPlugin finds no handler without an error (v26.1.0's plugin/factory.go initJobsPlugin also goes on "
         "past an error); shown on v6.0.0 and v7.0.RC1 by tests/simcluster/test_no_handler_crash.py"),
)


def fact(name: str) -> Fact:
    return FACTS[name]


def value(name: str, release: str) -> Any:
    """The value of fact ``name`` on ``release`` (one of :data:`RELEASES`)."""
    at = _ORDER[release]
    for first, last, found in FACTS[name].spans:
        if _ORDER[first] <= at <= _ORDER[last]:
            return found
    raise KeyError(f"fact {name!r} says nothing of {release}")


def releases_where(name: str, test: Callable[[Any], bool]) -> Tuple[str, ...]:
    """The supported releases on which ``test(value of fact name)`` holds, oldest first."""
    return tuple(release for release in RELEASES if test(value(name, release)))


def span_text(releases: Iterable[str]) -> str:
    """``v7.3.2-v26.1.0`` for consecutive releases, ``v6.0.0, v26.1.0`` otherwise; "" for none."""
    chosen = sorted(set(releases), key=_ORDER.__getitem__)
    runs: List[List[str]] = []
    for release in chosen:
        if runs and _ORDER[runs[-1][-1]] + 1 == _ORDER[release]:
            runs[-1].append(release)
        else:
            runs.append([release])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


class Target(namedtuple("Target", "release given source volcano_webhook device_stack stack_source",
                        defaults=(DEFAULT_RELEASE, False, _DEFAULT_SOURCE, None, None, _STACK_DEFAULT_SOURCE))):
    """What a run judges jobs for.  ``given``: a flag, the config or a cluster named the release (else it is
    :data:`DEFAULT_RELEASE`, and findings that differ between releases say for which they hold); ``source``:
    why this release, for ``--show-config``; ``volcano_webhook``: whether Volcano's admission webhook is
    installed (None: not said; MindCluster's install has none); ``device_stack``: one of :data:`DEVICE_STACKS`
    (None: not said, judged for MindCluster's device plugin, and a pod written for another stack gets at most a
    warning); ``stack_source``: why that stack."""

    __slots__ = ()
    release: str
    given: bool
    source: str
    volcano_webhook: Optional[bool]
    device_stack: Optional[str]
    stack_source: str

    @property
    def volcano(self) -> str:
        return VOLCANO_OF[self.release]

    @property
    def stack(self) -> str:
        """The device stack judged for: the one named, else MindCluster's."""
        return self.device_stack or MINDCLUSTER_STACK

    def with_stack(self, stack: Optional[str], source: str) -> "Target":
        """This target with ``stack`` named by ``source`` (unchanged when ``stack`` is None)."""
        return self._replace(device_stack=stack, stack_source=source) if stack else self

    def value(self, name: str) -> Any:
        return value(name, self.release)

    def qualifier(self, name: str, test: Callable[[Any], bool]) -> str:
        """"" when the target was given or ``test`` holds on every supported release; else
        ``" (MindCluster v7.3.2-v26.1.0)"``: the releases on which it holds, for a finding's message."""
        where = releases_where(name, test)
        if self.given or len(where) == len(RELEASES):
            return ""
        return f" (MindCluster {span_text(where)})" if where else ""

    def describe(self) -> str:
        webhook = {None: "Volcano's admission webhook not said (MindCluster's install has none)",
                   True: "with Volcano's admission webhook", False: "without Volcano's admission webhook"}
        if self.stack.startswith("volcano-vnpu"):
            stack = f"{DEVICE_STACKS[self.stack]}, judged for Volcano {DEVICESHARE_VOLCANO}"
        else:
            stack = DEVICE_STACKS[self.stack]
        return (f"MindCluster {self.release} (its plugin in Volcano {self.volcano}), "
                f"{webhook[self.volcano_webhook]}: {self.source}; device stack: {stack}: {self.stack_source}")


#: a version inside a longer text (bounded runs of digits: a search stays linear on any input)
_VERSION = re.compile(r"v?(\d{1,4})\.(\d{1,4})\.(\d{1,4}|RC\d{1,3})", re.IGNORECASE)


def release_of(text: str) -> Optional[str]:
    """The supported release a version text names (``7.3.2``, ``v7.3.2``, an image tag ``v7.3.2-arm64``, a plugin
    name ``volcano-npu_v7.3.2``); None when it names none of :data:`RELEASES`."""
    match = _VERSION.search((text or "")[:256])
    if not match:
        return None
    major, minor, patch = match.groups()
    name = f"v{int(major)}.{int(minor)}.{patch.upper() if patch[:2].upper() == 'RC' else int(patch)}"
    return name if name in _ORDER else None


def choose(flag: Optional[str] = None, configured: Optional[str] = None, config_path: Optional[str] = None,
           cluster_versions: Optional[Mapping[str, str]] = None, cluster_source: str = "",
           volcano_webhook: Optional[bool] = None) -> Target:
    """The run's target: ``--mindcluster`` (``flag``) over the config's ``cluster.mindcluster`` (``configured``) over
    the cluster's recorded plugin or operator version (``cluster_versions``: an inventory's ``versions``) over the
    default.  ``flag`` and ``configured`` are checked by their readers (:func:`release_of` is not None); a cluster
    version that names no supported release is said in ``source`` and the default is used."""
    if flag:
        return Target(release_of(flag) or DEFAULT_RELEASE, True, f"--mindcluster {flag}", volcano_webhook)
    if configured:
        return Target(release_of(configured) or DEFAULT_RELEASE, True,
                      f"cluster.mindcluster in {config_path or 'the project config'}", volcano_webhook)
    unknown = []
    for component in ("ascend-plugin", "ascend-operator"):
        text = (cluster_versions or {}).get(component)
        if not text:
            continue
        found = release_of(text)
        if found:
            return Target(found, True, f"the {component} version {text!r} of {cluster_source or 'the cluster'}",
                          volcano_webhook)
        unknown.append(f"{component} {text!r}")
    if unknown:
        return Target(volcano_webhook=volcano_webhook,
                      source=f"the default, {DEFAULT_RELEASE}: {cluster_source or 'the cluster'} records "
                             f"{' and '.join(unknown)}, not a supported release ({', '.join(RELEASES)})")
    return Target(volcano_webhook=volcano_webhook)
