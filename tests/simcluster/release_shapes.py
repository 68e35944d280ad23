"""Job shapes whose verdict differs between MindCluster releases: one manifest per shape, and its verdict per release.

A verdict is one of :data:`VERDICTS`, read from the oracle's (tests/simcluster/oracle.py):

- ``placed``: every pod bound and Running;
- ``pending``: pending in a cluster where nothing else ran (the oracle's ``never-fits``);
- ``refused``: the operator's Failed condition on the AscendJob;
- ``rejected``: the API server or an admission webhook refused an object.

``verdicts`` holds the verdict per release, as seen on that release's simulated cluster
(tests/simcluster/test_releases.py asserts every one there, so it fails when a release's behaviour, or its build
here, changes); ``observed`` names the releases whose verdict was seen (all of them now: the table first held
predictions read from the cited files, and ``note`` says where an observation differed and why).  A shape that
cannot be judged on a release's cluster is left out of its batch, and ``unjudged`` says why (a job that crashes
that release's scheduler takes every verdict of the batch with it).  Each shape has an id, so that lint tests can
assert that lint with the target set to a release agrees; ``rules`` and ``facts`` name what it shows, from which
scripts/gen_rule_proofs.py makes the rules' proofs (compiler/catalogue/proven.py).

Every job is small (one pod, or two) and held to the nodes of one profile with the simulation's
``ascend-compile.io/profile`` node label (never read by the plugin), so the accelerator-type selector and the
annotations are the only differences the plugin sees.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from tests.simcluster.releases import SUPPORTED

VERDICTS = ("placed", "pending", "refused", "rejected")
PROFILE_LABEL = "ascend-compile.io/profile"
NAMESPACE = "releases"
#: the plugin's files the verdicts rest on, as a release names them (each release's own archive)
PLUGIN = "component/ascend-for-volcano/"
OPERATOR = "component/ascend-operator/"


@dataclass(frozen=True)
class Shape:
    id: str
    what: str
    objects: Tuple[Mapping[str, Any], ...]
    #: release -> verdict (every supported release but those in ``unjudged``)
    verdicts: Mapping[str, str]
    #: the releases whose verdict above was seen on their simulated cluster
    observed: Tuple[str, ...]
    #: the upstream files the verdicts rest on
    cites: Tuple[str, ...]
    #: the rules whose verdict the shape shows: lint with the release as its target reports each of them at error
    #: on every release whose verdict is not ``placed``, and none of them at error where it is (test_releases.py;
    #: offline, tests/lint/test_rule_proofs.py); compiler/catalogue/proven.py is made from them
    rules: Tuple[str, ...] = ()
    #: the facts of compiler/releases.py whose spans the verdicts show (at both ends of each span)
    facts: Tuple[str, ...] = ()
    #: where the observation differed from what the cited files were read to predict, and why
    note: str = ""
    #: release -> why the shape is not judged on its cluster (left out of that release's batch)
    unjudged: Mapping[str, str] = field(default_factory=dict)

    def judged_on(self) -> Tuple[str, ...]:
        return tuple(r for r in SUPPORTED if r not in self.unjudged)

    def manifests(self) -> List[Dict[str, Any]]:
        return [copy.deepcopy(dict(o)) for o in self.objects]


def _per(early: str, late: str, first_late: str, but: Tuple[str, ...] = ()) -> Dict[str, str]:
    """``early`` for the releases before ``first_late``, ``late`` from it on (none for the releases in ``but``)."""
    at = SUPPORTED.index(first_late)
    return {r: (early if i < at else late) for i, r in enumerate(SUPPORTED) if r not in but}


def vcjob(name: str, profile: str, npus: int, *, resource: str = "huawei.com/Ascend910", replicas: int = 1,
          accelerator_type: Optional[str] = None, annotations: Optional[Dict[str, str]] = None,
          ring: str = "ascend-910b") -> Dict[str, Any]:
    """A Volcano Job of ``replicas`` pods of ``npus`` NPUs, held to ``profile``'s nodes."""
    selector = {PROFILE_LABEL: profile}
    if accelerator_type:
        selector["accelerator-type"] = accelerator_type
    meta: Dict[str, Any] = {"name": name, "namespace": NAMESPACE, "labels": {"ring-controller.atlas": ring}}
    pod_meta: Dict[str, Any] = {"labels": {"ring-controller.atlas": ring}}
    if annotations:
        meta["annotations"] = dict(annotations)
        pod_meta["annotations"] = dict(annotations)
    container = {"name": "ascend", "image": "train:latest", "command": ["/bin/bash", "-c", "sleep infinity"],
                 "resources": {"limits": {resource: npus}, "requests": {resource: npus}}}
    return {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": meta,
            "spec": {"minAvailable": replicas, "schedulerName": "volcano", "queue": "default", "maxRetry": 3,
                     "tasks": [{"name": "worker", "replicas": replicas, "template": {
                         "metadata": pod_meta,
                         "spec": {"nodeSelector": selector, "restartPolicy": "Never", "containers": [container]}}}]}}


def with_task(job: Dict[str, Any], name: str, profile: str, npus: int,
              accelerator_type: Optional[str] = None) -> Dict[str, Any]:
    """``job`` (a :func:`vcjob`) with a second task of one pod of ``npus`` NPUs named ``name``, held to ``profile``'s
    nodes (and selecting ``accelerator_type``); the gang takes every pod."""
    task = copy.deepcopy(job["spec"]["tasks"][0])
    task["name"], task["replicas"] = name, 1
    selector = {PROFILE_LABEL: profile}
    if accelerator_type:
        selector["accelerator-type"] = accelerator_type
    task["template"]["spec"]["nodeSelector"] = selector
    container = task["template"]["spec"]["containers"][0]
    resource = next(iter(container["resources"]["limits"]))
    container["resources"] = {"limits": {resource: npus}, "requests": {resource: npus}}
    job["spec"]["tasks"].append(task)
    job["spec"]["minAvailable"] = sum(t["replicas"] for t in job["spec"]["tasks"])
    return job


def _no_npus(job: Dict[str, Any]) -> Dict[str, Any]:
    """``job`` (a :func:`with_task`) whose last task asks for no NPUs (and no longer counts in the gang's NPU pods)."""
    job["spec"]["tasks"][-1]["template"]["spec"]["containers"][0].pop("resources")
    return job


def acjob(name: str, *, workers: int = 0, queue: str = "default", npus: int = 8, masters: int = 1) -> Dict[str, Any]:
    """An AscendJob (PyTorch) of ``masters`` Masters (one is valid) and ``workers`` Workers on module-910b-8 nodes."""
    def replica(count: int) -> Dict[str, Any]:
        return {"replicas": count, "restartPolicy": "Never", "template": {
            "metadata": {"labels": {"ring-controller.atlas": "ascend-910b"}},
            "spec": {"nodeSelector": {"accelerator-type": "module-910b-8", PROFILE_LABEL: "module-910b-8"},
                     "containers": [{"name": "ascend", "image": "train:latest",
                                     "command": ["/bin/bash", "-c", "sleep infinity"],
                                     "ports": [{"name": "ascendjob-port", "containerPort": 2222}],
                                     "resources": {"limits": {"huawei.com/Ascend910": npus},
                                                   "requests": {"huawei.com/Ascend910": npus}}}]}}}
    specs = {"Master": replica(masters)}
    if workers:
        specs["Worker"] = replica(workers)
    return {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
            "metadata": {"name": name, "namespace": NAMESPACE,
                         "labels": {"framework": "pytorch", "ring-controller.atlas": "ascend-910b"}},
            "spec": {"schedulerName": "volcano", "runPolicy": {"schedulingPolicy": {"minAvailable": masters + workers,
                                                                                     "queue": queue}},
                     "successPolicy": "AllWorkers", "replicaSpecs": specs}}


def _labelled(job: Dict[str, Any], labels: Mapping[str, str], pods: bool = False) -> Dict[str, Any]:
    """``job`` with ``labels`` on it (and on its pod templates, with ``pods``)."""
    job["metadata"]["labels"].update(labels)
    for task in job["spec"]["tasks"] if pods else ():
        task["template"]["metadata"]["labels"].update(labels)
    return job


_LABEL_CHECK = (f"v6.0.0 {PLUGIN}internal/ascend910/asend910old/module910x8/node.go (checkNodeLabelOK)",
                f"v7.0.RC1..v26.0.1 {PLUGIN}internal/npu/ascend910/ascend910old/module910x8/node.go (checkNodeLabelOK)",
                f"v26.1.0 {PLUGIN}internal/npu/ascend910/ascend910old/module910x8/frame.go (no node label check)",
                f"{PLUGIN}internal/npu/factory.go (get910CardHandlerName: no accelerator-type -> module handler)")
_POLICY = (f"v7.3.2.. {PLUGIN}internal/npu/factory.go (policy910HandlerMap, read from huawei.com/schedule_policy)",
           f"v7.0.RC1 {PLUGIN}internal/npu/factory.go (no schedule_policy)")
_CARD = (f"{PLUGIN}internal/npu/factory.go (card910x2Name: WithMaxNodeNum 2 in v7.0.RC1, 8 from v7.3.2)",)
_QUEUE = (f"v26.0.1.. {OPERATOR}pkg/controllers/v1/ascendjob_validate.go (check queue<...> failed)",)
_VALID_FAILED = (f"{OPERATOR}pkg/controllers/v1/ascendjob_validate.go (validateJob: a Warning event, every release; "
                 "validateLeader: a Master's replicas must be 1)",
                 f"v26.0.1.. {OPERATOR}pkg/controllers/v1/ascendjob_controller.go (Reconcile: a JobFailed condition, "
                 "reason JobValidFailed, on a job that fails validation; up to v7.3.2 the event only)")

_NO_HANDLER = (f"v26.1.0 {PLUGIN}plugin/job.go (policyHandler nil: JobValidateFailed, NotSupportPolicyReason)",
               f"v7.0.RC1..v26.0.1 {PLUGIN}internal/controller.go (ValidNPUJob over no handler: nothing checked)",
               f"v6.0.0 {PLUGIN}internal/ascend910/frame.go (handle == nil: nothing checked)")
_RING_910B = (f"v6.0.0 {PLUGIN}internal/ascend910/ascend910b/job.go (\"label:... not right(ascend-910b)\")",
              f"v7.0.RC1.. {PLUGIN}common/util/job.go (the label read for dynamic vNPU only)")
_A3_16 = (f"v6.0.0 {PLUGIN}internal/ascend910/frame.go (no A3 server handler: nothing checked)",
          f"v7.0.RC1 {PLUGIN}internal/npu/ascend910/ascend910a3/module910a3x16/frame.go (every NPU task == 16)",
          f"v7.3.2.. {PLUGIN}internal/npu/ascend910/ascend910a3/module910a3x16/frame.go (even, <= 16)")
_AVERAGE = (f"v6.0.0 {PLUGIN}internal/ascend910/ascend910b/job.go, v7.0.RC1 {PLUGIN}internal/npu/base/frame.go "
            "(ValidNPUJob: ReqNPUNum / NPUTaskNum)", f"v7.3.2.. {PLUGIN}internal/npu/base/frame.go (each task)")
_A3_8_SUPER_POD = (f"v6.0.0 {PLUGIN}internal/ascend910/frame.go (sp-block names huawei.com/Ascend910super-pod)",
                   f"v6.0.0 {PLUGIN}internal/ascend910/ascend910b/superpod/frame.go (checkRequireNPU: 16 NPUs each pod "
                   "of a distributed job)",
                   f"v7.0.RC1..v7.3.2 {PLUGIN}internal/npu/factory.go (get910CardHandlerName: sp-block names "
                   "superpod.SchedulerName, the A3 16-NPU super-pod handler, whatever the accelerator-type)",
                   f"v7.0.RC1..v7.3.2 {PLUGIN}internal/npu/ascend910/ascend910a3/superpod/frame.go (CheckTaskNPU: "
                   "a distributed job's pods take a node's 16 NPUs)",
                   f"v26.0.1.. {PLUGIN}internal/npu/factory.go (getA3HandlerNameWithSpBlock: "
                   "module-a3-8-super-pod with sp-block, and policy910HandlerMap: schedule_policy chip2-node8-sp, "
                   "name superpod.A3x8SchedulerName, 8 NPUs a node)")
_NPU_310_STRATEGY = (f"v26.1.0 {PLUGIN}plugin/job.go (policyHandler nil: JobValidateFailed, NotSupportPolicyReason)",
                     f"v7.0.RC1..v26.1.0 {PLUGIN}internal/npu/factory.go (init310CardPolicyHandler: the handler "
                     "named by the npu-310-strategy label, card or chip; another value names none)",
                     f"v7.0.RC1..v26.0.1 {PLUGIN}internal/controller.go (ValidNPUJob over no handler: nothing checked)")
_MODULE_910_COUNTS = (f"v6.0.0 {PLUGIN}internal/ascend910/asend910old/module910x8, v7.0.RC1 {PLUGIN}internal/npu/"
                      "ascend910/ascend910old/module910x8 (the default handler: 1, 2, 4 or 8 NPUs a pod)",)
_SUPER_POD_BY_SELECTOR = (f"v7.0.RC1 {PLUGIN}internal/npu/ascend910/ascend910a3/superpod/type.go (SchedulerName "
                          "huawei.com/Ascend910super-pod: no accelerator-type names it)",
                          f"v7.3.2.. {PLUGIN}internal/npu/ascend910/ascend910a3/superpod/type.go (SchedulerName ends "
                          "in module-a3-16-super-pod) and frame.go (checkRequireNPU: 1 or an even count, at most 16)")
_JOINED_CARD = (f"v7.0.RC1.. {PLUGIN}plugin/job.go (getJobSelectorFromVcJob: every task's selector, joined with |) "
                "and internal/npu/factory.go (get910CardHandlerName: a selector containing card names the card "
                "handler)",)
_RETRY_TEXT = (f"{OPERATOR}pkg/controllers/v1/ascendjob_controller.go (setFaultRetryTimesToBackoffLimits: strconv.Atoi "
               "of the label; on its error the creation event is dropped), every release",)

#: why a job the v6.0.0 plugin finds no handler for is left out of v6.0.0's batch
_V6_NO_HANDLER = {"v6.0.0": (
    "the v6.0.0 plugin can crash vc-scheduler on such a job: InitMyJobPlugin (internal/ascend910/frame.go) finds no "
    "handler and leaves the job's task type unset, and CheckNodeNPUByTask (frame.go:138) dereferences it for a node "
    "with the NPUs (\"invalid memory address or nil pointer dereference\"; seen on 2026-12-07 in a batch of these "
    "shapes, 4 nodes a profile; one job alone on 2 nodes a profile ran; tests/simcluster/test_no_handler_crash.py "
    "shows it beside a job waiting for nodes): the scheduler exits and every verdict of the batch is lost")}
_NOT_ON_V6 = tuple(_V6_NO_HANDLER)
#: why a 310 job whose npu-310-strategy names no handler is left out of v6.0.0's batch
_V6_STRATEGY = {"v6.0.0": (
    "the v6.0.0 plugin's InitMyJobPlugin (internal/ascend310/frame.go) returns \"not support ...\" for it, and "
    "InitJobsPlugin (plugin/factory.go) returns at the first such error, leaving every job after it in that "
    "session's map order uninitialised: the other verdicts of the batch would depend on map order")}

#: every verdict below was seen on its release's cluster (tests/simcluster/test_releases.py; first on 2026-12-07 at
#: b634a28 and its follow-up, python -m tests.simcluster build of every release, oracle batch per release)
SEEN: Tuple[str, ...] = SUPPORTED

SHAPES: Tuple[Shape, ...] = (
    Shape("control-910b-8", "control: 1 pod x 8 NPUs with accelerator-type module-910b-8 (placed everywhere)",
          (vcjob("control-910b-8", "module-910b-8", 8, accelerator_type="module-910b-8"),),
          {r: "placed" for r in SUPPORTED}, SEEN, ()),
    Shape("no-accelerator-type-910b-8", "a Volcano Job without accelerator-type on module-910b-8 nodes (the "
          "public v7.0.RC1 incident: 'check Node ... label [accelerator-type] Failed')",
          (vcjob("no-acc-910b-8", "module-910b-8", 8),), _per("pending", "placed", "v26.1.0"), SEEN, _LABEL_CHECK,
          rules=("AC305",), facts=("module-handler-refuses-typed-nodes",)),
    Shape("no-accelerator-type-910b-8-x2", "the same, two pods of 8 NPUs",
          (vcjob("no-acc-910b-8-x2", "module-910b-8", 8, replicas=2),), _per("pending", "placed", "v26.1.0"),
          SEEN, _LABEL_CHECK, rules=("AC305",), facts=("module-handler-refuses-typed-nodes",)),
    Shape("no-accelerator-type-card-910b-2", "1 pod x 2 NPUs without accelerator-type on card-910b-2 nodes",
          (vcjob("no-acc-card-910b-2", "card-910b-2", 2),), _per("pending", "placed", "v26.1.0"), SEEN, _LABEL_CHECK,
          rules=("AC305",), facts=("module-handler-refuses-typed-nodes",)),
    Shape("no-accelerator-type-half-910", "1 pod x 4 NPUs without accelerator-type on half-910 nodes",
          (vcjob("no-acc-half-910", "half-910", 4, ring="ascend-910"),), _per("pending", "placed", "v26.1.0"),
          SEEN, _LABEL_CHECK, rules=("AC305",), facts=("module-handler-refuses-typed-nodes",)),
    Shape("schedule-policy-chip8-node8", "no accelerator-type, huawei.com/schedule_policy: chip8-node8, on "
          "module-910b-8 nodes", (vcjob("policy-chip8-node8", "module-910b-8", 8,
                                        annotations={"huawei.com/schedule_policy": "chip8-node8"}),),
          _per("pending", "placed", "v7.3.2"), SEEN, _POLICY + _LABEL_CHECK,
          rules=("AC305",), facts=("schedule-policies", "module-handler-refuses-typed-nodes")),
    Shape("schedule-policy-chip1-node2", "no accelerator-type, huawei.com/schedule_policy: chip1-node2, 1 pod x 2 "
          "on card-910b-2 nodes", (vcjob("policy-chip1-node2", "card-910b-2", 2,
                                         annotations={"huawei.com/schedule_policy": "chip1-node2"}),),
          _per("pending", "placed", "v7.3.2"), SEEN, _POLICY + _LABEL_CHECK,
          rules=("AC305",), facts=("schedule-policies", "module-handler-refuses-typed-nodes")),
    Shape("card-910b-infer-x4", "1 pod x 4 NPUs, accelerator-type card-910b-infer (8-NPU card servers)",
          (vcjob("card-infer-x4", "card-910b-infer", 4, accelerator_type="card-910b-infer"),),
          _per("pending", "placed", "v7.3.2"), SEEN, _CARD, rules=("AC301",), facts=("card-handler-max",)),
    Shape("card-910b-infer-x8", "1 pod x 8 NPUs, accelerator-type card-910b-infer",
          (vcjob("card-infer-x8", "card-910b-infer", 8, accelerator_type="card-910b-infer"),),
          _per("pending", "placed", "v7.3.2"), SEEN, _CARD, rules=("AC301",), facts=("card-handler-max",)),
    Shape("acjob-missing-queue", "an AscendJob whose schedulingPolicy.queue does not exist",
          (acjob("ac-missing-queue", queue="no-such-queue"),), _per("pending", "refused", "v26.0.1"), SEEN, _QUEUE,
          rules=("AC901",), facts=("refused-ascendjob-failed",)),
    Shape("acjob-two-masters", "an AscendJob with two Master replicas: every operator refuses it, with a Warning "
          "event (ReplicaTypeError) only up to v7.3.2 (the job stays without pods), and the Failed condition from "
          "v26.0.1", (acjob("ac-two-masters", masters=2),), _per("pending", "refused", "v26.0.1"), SEEN,
          _VALID_FAILED, rules=("AC209",), facts=("refused-ascendjob-failed",)),
    Shape("no-accelerator-type-card-910b-infer", "1 pod x 8 NPUs without accelerator-type on card-910b-infer "
          "nodes", (vcjob("no-acc-card-infer", "card-910b-infer", 8),), _per("pending", "placed", "v26.1.0"),
          SEEN, _LABEL_CHECK, rules=("AC305",), facts=("module-handler-refuses-typed-nodes",)),
    Shape("schedule-policy-chip4-node8-module-910", "1 pod x 8 NPUs, accelerator-type module, huawei.com/"
          "schedule_policy: chip4-node8, on module-910 nodes (v7.3.2 maps chip4-node8 to the 910 module handler, "
          "v26.0.1 to the Ascend 350 4p-8 one)",
          (vcjob("policy-chip4-node8", "module-910", 8, accelerator_type="module", ring="ascend-910",
                 annotations={"huawei.com/schedule_policy": "chip4-node8"}),),
          {r: "placed" for r in SUPPORTED}, SEEN,
          _POLICY + (f"v26.0.1.. {PLUGIN}internal/npu/policy/chip4nodex (New, judgeNodeAndTaskNPU, "
                     "is4PmeshAffinity)", f"v26.0.1.. {PLUGIN}plugin/plugin.go (GetAnnoName)"),
          note="predicted pending from v26.0.1 (the 4p-8 handler is the Ascend 350's); observed placed on every "
               "release. From v26.0.1 chip4-node8 does select the chip4nodex 4p-8 handler, but that handler reads "
               "the NPUs of the resource the job requests (GetAnnoName gives huawei.com/Ascend910 for a "
               "huawei.com/Ascend910 request, whatever the handler's own huawei.com/npu), checks no "
               "accelerator-type label, allows 8 NPUs a node, and 8 NPUs are two whole 4-NPU meshes of a free "
               "8-NPU node: the job is placed, by another handler than before."),
    Shape("accelerator-types-joined", "two pods of 8 NPUs, one selecting accelerator-type module-910b-8, the other "
          "module-910b-16: the plugin joins them into one job selector (module-910b-8|module-910b-16) that names no "
          "handler", (with_task(vcjob("joined-types", "module-910b-8", 8, accelerator_type="module-910b-8"), "other",
                                "module-910b-16", 8, accelerator_type="module-910b-16"),),
          _per("placed", "pending", "v26.1.0", _NOT_ON_V6), SUPPORTED[1:], _NO_HANDLER, rules=("AC306",),
          facts=("no-handler-refused",), unjudged=_V6_NO_HANDLER),
    Shape("ring-ascend-910-on-910b-8", "1 pod x 8 NPUs, accelerator-type module-910b-8, labelled "
          "ring-controller.atlas: ascend-910 (v6.0.0's 910B handler requires ascend-910b)",
          (vcjob("ring-910-on-910b", "module-910b-8", 8, accelerator_type="module-910b-8", ring="ascend-910"),),
          _per("pending", "placed", "v7.0.RC1"), SEEN, _RING_910B, rules=("AC215",),
          facts=("ring-controller-910b-required",)),
    Shape("module-a3-16-x2-of-8", "two pods of 8 NPUs, accelerator-type module-a3-16 (v7.0.RC1 takes only 16 a pod "
          "in a distributed job; from v7.3.2 any even count; v6.0.0 has no A3 server handler)",
          (vcjob("a3-16-x2-of-8", "module-a3-16", 8, accelerator_type="module-a3-16", replicas=2),),
          {r: ("pending" if r == "v7.0.RC1" else "placed") for r in SUPPORTED[1:]}, SUPPORTED[1:], _A3_16,
          rules=("AC301",), facts=("module-a3-16-distributed-per-pod",), unjudged=_V6_NO_HANDLER),
    Shape("uneven-910b-16", "a pod of 16 NPUs and a pod of 2, accelerator-type module-910b-16: both counts are "
          "allowed, their average (9) is not",
          (with_task(vcjob("uneven-910b-16", "module-910b-16", 16, accelerator_type="module-910b-16"), "small",
                     "module-910b-16", 2, accelerator_type="module-910b-16"),),
          _per("pending", "placed", "v7.3.2"), SEEN, _AVERAGE, rules=("AC301",), facts=("average-per-pod",)),
    Shape("acjob-fault-retry-times-text", "an AscendJob labelled fault-retry-times: three, without "
          "runPolicy.backoffLimit: the operator drops its creation (no pods, no status), on every release",
          (_labelled(acjob("ac-retry-text"), {"fault-retry-times": "three"}),), {r: "pending" for r in SUPPORTED},
          SEEN, _RETRY_TEXT, rules=("AC313",)),
    # from the differential run of 2026-12-07 (docs/fidelity.md, "Verdicts that differ between releases")
    Shape("module-a3-8-super-pod-x2", "two pods of 8 NPUs, accelerator-type module-a3-8-super-pod, sp-block 16 (the "
          "matrix goldens of the profile): up to v7.3.2 there is no 8-NPU super-pod handler, and sp-block gives "
          "the job the 16-NPU one, which takes 16 NPUs a pod",
          (vcjob("a3-8-sp-x2", "module-a3-8-super-pod", 8, accelerator_type="module-a3-8-super-pod", replicas=2,
                 annotations={"sp-block": "16"}),),
          _per("pending", "placed", "v26.0.1"), SEEN, _A3_8_SUPER_POD, rules=("AC301",), facts=("handlers-absent",)),
    Shape("module-a3-8-super-pod-policy-chip2-node8-sp", "the same, with huawei.com/schedule_policy: chip2-node8-sp "
          "(the profile's own policy): up to v7.0.RC1 the annotation is not read, v7.3.2's policy map lacks it, "
          "from v26.0.1 it names the 8-NPU super-pod handler",
          (vcjob("a3-8-sp-policy", "module-a3-8-super-pod", 8, accelerator_type="module-a3-8-super-pod", replicas=2,
                 annotations={"sp-block": "16", "huawei.com/schedule_policy": "chip2-node8-sp"}),),
          _per("pending", "placed", "v26.0.1"), SEEN, _POLICY + _A3_8_SUPER_POD, rules=("AC301",),
          facts=("schedule-policies", "handlers-absent")),
    Shape("npu-310-strategy-typo", "1 pod x 2 NPUs of huawei.com/Ascend310 on 310 nodes, labelled npu-310-strategy: "
          "cards (for card): the label names no 310 handler",
          (_labelled(vcjob("strategy-typo-310", "310", 2, resource="huawei.com/Ascend310", ring="ascend-310"),
                     {"npu-310-strategy": "cards"}, pods=True),),
          _per("placed", "pending", "v26.1.0", _NOT_ON_V6), SUPPORTED[1:], _NPU_310_STRATEGY, rules=("AC307",),
          facts=("no-handler-refused",), unjudged=_V6_STRATEGY),
    Shape("accelerator-types-joined-module-half", "a pod of 4 NPUs selecting accelerator-type module (on module-910 "
          "nodes) and one of 4 selecting half (on half-910 nodes): the joined selector module|half names no handler",
          (with_task(vcjob("joined-module-half", "module-910", 4, accelerator_type="module", ring="ascend-910"),
                     "other", "half-910", 4, accelerator_type="half"),),
          _per("placed", "pending", "v26.1.0", _NOT_ON_V6), SUPPORTED[1:], _NO_HANDLER, rules=("AC306",),
          facts=("no-handler-refused",), unjudged=_V6_NO_HANDLER),
    # predicted by lint's differences between the targets v7.0.RC1 and v7.3.2 over the fidelity jobs
    Shape("card-910b-infer-x8-x2", "two pods of 8 NPUs, accelerator-type card-910b-infer (the profile's goldens)",
          (vcjob("card-infer-x8-x2", "card-910b-infer", 8, accelerator_type="card-910b-infer", replicas=2),),
          _per("pending", "placed", "v7.3.2"), SEEN, _CARD, rules=("AC301",), facts=("card-handler-max",)),
    Shape("card-910b-infer-x3", "1 pod x 3 NPUs, accelerator-type card-910b-infer",
          (vcjob("card-infer-x3", "card-910b-infer", 3, accelerator_type="card-910b-infer"),),
          _per("pending", "placed", "v7.3.2"), SEEN, _CARD, rules=("AC301",), facts=("card-handler-max",)),
    Shape("schedule-policy-chip8-node16", "1 pod x 16 NPUs without accelerator-type, huawei.com/schedule_policy: "
          "chip8-node16, on module-910b-16 nodes (the upstream master samples of Atlas 800 A2): up to v7.0.RC1 the "
          "annotation is not read and the default Atlas 800 handler takes the job (at most 8 NPUs a pod, and it "
          "refuses the typed nodes)", (vcjob("policy-chip8-node16", "module-910b-16", 16,
                                             annotations={"huawei.com/schedule_policy": "chip8-node16"}),),
          _per("pending", "placed", "v7.3.2"), SEEN, _POLICY + _LABEL_CHECK + _MODULE_910_COUNTS,
          rules=("AC301", "AC305"), facts=("schedule-policies", "module-handler-refuses-typed-nodes")),
    Shape("schedule-policy-chip8-node16-x2", "the same, two pods of 16",
          (vcjob("policy-chip8-node16-x2", "module-910b-16", 16, replicas=2,
                 annotations={"huawei.com/schedule_policy": "chip8-node16"}),),
          _per("pending", "placed", "v7.3.2"), SEEN, _POLICY + _LABEL_CHECK + _MODULE_910_COUNTS,
          rules=("AC301", "AC305"), facts=("schedule-policies", "module-handler-refuses-typed-nodes")),
    Shape("schedule-policy-chip1-node2-on-910b-16", "two pods of 16 NPUs, accelerator-type module-910b-16, "
          "huawei.com/schedule_policy: chip1-node2 (another profile's): from v7.3.2 the policy picks the card "
          "handler (at most 8 NPUs a pod), before it the annotation is not read",
          (vcjob("policy-other-910b-16", "module-910b-16", 16, accelerator_type="module-910b-16", replicas=2,
                 annotations={"huawei.com/schedule_policy": "chip1-node2"}),),
          _per("placed", "pending", "v7.3.2"), SEEN, _POLICY + _CARD, rules=("AC301",), facts=("schedule-policies",)),
    Shape("schedule-policy-chip1-node2-on-a3-16", "the same on module-a3-16 nodes (accelerator-type module-a3-16)",
          (vcjob("policy-other-a3-16", "module-a3-16", 16, accelerator_type="module-a3-16", replicas=2,
                 annotations={"huawei.com/schedule_policy": "chip1-node2"}),),
          _per("placed", "pending", "v7.3.2", _NOT_ON_V6), SUPPORTED[1:], _POLICY + _CARD, rules=("AC301",),
          facts=("schedule-policies",), unjudged=_V6_NO_HANDLER),
    Shape("module-a3-16-super-pod-x3-no-sp-block", "1 pod x 3 NPUs, accelerator-type module-a3-16-super-pod, no "
          "sp-block: up to v7.0.RC1 only sp-block reaches the super-pod handler (the selector names none), from "
          "v7.3.2 the selector names it and it takes 1 or an even count a pod",
          (vcjob("a3-16-sp-x3", "module-a3-16-super-pod", 3, accelerator_type="module-a3-16-super-pod"),),
          _per("placed", "pending", "v7.3.2", _NOT_ON_V6), SUPPORTED[1:], _SUPER_POD_BY_SELECTOR + _NO_HANDLER[1:2],
          rules=("AC301",), facts=("super-pod-by-sp-block-only",), unjudged=_V6_NO_HANDLER),
    # from the differential run on v7.0.RC1 (saved 2026-12-07 15:44), beside the three newer releases'
    Shape("module-a3-16-uneven-16-2", "a pod of 16 NPUs and a pod of 2, accelerator-type module-a3-16 (npu-uneven of "
          "the profile's goldens): v7.0.RC1 takes only 16 a pod in a distributed job",
          (with_task(vcjob("a3-16-uneven", "module-a3-16", 16, accelerator_type="module-a3-16"), "small",
                     "module-a3-16", 2, accelerator_type="module-a3-16"),),
          _per("pending", "placed", "v7.3.2", _NOT_ON_V6), SUPPORTED[1:], _A3_16, rules=("AC301",),
          facts=("module-a3-16-distributed-per-pod",), unjudged=_V6_NO_HANDLER),
    Shape("card-910b-infer-uneven-8-1", "a pod of 8 NPUs and a pod of 1, accelerator-type card-910b-infer",
          (with_task(vcjob("card-infer-uneven", "card-910b-infer", 8, accelerator_type="card-910b-infer"), "small",
                     "card-910b-infer", 1, accelerator_type="card-910b-infer"),),
          _per("pending", "placed", "v7.3.2"), SEEN, _CARD + _AVERAGE, rules=("AC301",),
          facts=("card-handler-max", "average-per-pod")),
    Shape("accelerator-types-joined-card", "two pods of 8 NPUs selecting accelerator-type module (module-910 nodes) "
          "and a pod without NPUs selecting card (card-910 nodes), as accel-one-replica makes a job's Scheduler: the "
          "joined selector card|module contains card and names the card handler, which takes 2 NPUs a pod up to "
          "v7.0.RC1 and 8 from v7.3.2",
          (_no_npus(with_task(vcjob("joined-card", "module-910", 8, accelerator_type="module", ring="ascend-910",
                                    replicas=2), "scheduler", "card-910", 1, accelerator_type="card")),),
          _per("pending", "placed", "v7.3.2", _NOT_ON_V6), SUPPORTED[1:], _CARD + _JOINED_CARD, rules=("AC301",),
          facts=("card-handler-max",), unjudged=_V6_NO_HANDLER),
    Shape("schedule-policy-chip1-node2-on-a3-16-x8", "1 pod x 8 NPUs, accelerator-type module-a3-16, "
          "huawei.com/schedule_policy: chip1-node2: from v7.3.2 the card handler takes the job, and no module-a3-16 "
          "node (16 free NPUs, more than its 8)", (vcjob("policy-other-a3-16-x8", "module-a3-16", 8,
                                                    accelerator_type="module-a3-16",
                                                    annotations={"huawei.com/schedule_policy": "chip1-node2"}),),
          _per("placed", "pending", "v7.3.2", _NOT_ON_V6), SUPPORTED[1:], _POLICY + _CARD, rules=("AC904",),
          facts=("schedule-policies", "card-handler-max"), unjudged=_V6_NO_HANDLER),
)


def shape(shape_id: str) -> Shape:
    return next(s for s in SHAPES if s.id == shape_id)


def differing() -> List[Shape]:
    """The shapes whose verdict is not the same on every supported release."""
    return [s for s in SHAPES if len(set(s.verdicts.values())) > 1]
