"""A pod requests a number of NPUs the scheduler does not accept on its hardware.

**What.** The NPUs each pod requests must be a count the job's hardware
profile allows: for one pod, ``npusPerPod.singlePod``; for a job of several
pods, ``npusPerPod.multiPod``. Examples: Atlas 800 (910, ``module``)
1/2/4/8; Atlas 200T A2 Box16 (``module-910b-16``) 1-8, 10, 12, 14, 16; A3
(``module-a3-16``) an even number in a distributed job; A3 super-pod 16 per pod.
The profiles are those whose handler the Volcano plugin could pick: the
``huawei.com/schedule_policy`` annotation, else ``sp-block``, else the
``accelerator-type`` node selector, else the old 910 ``module`` rules. When
several profiles fit (a policy shared by two servers), a count is reported
only when every one of them refuses it.
Numbers come from ``profiles/*.yaml`` (add a profile file to teach a new server).
Only pods Volcano places are checked: a job's, or a Pod's, Deployment's, ... whose
template says ``schedulerName: volcano`` (a ReplicaSet's pods then share one PodGroup,
a job of several pods); Kubernetes' default scheduler only counts the resource.

The handler and the nodes can belong to different servers: a schedule policy picks the
handler while each pod lands on the nodes its own ``accelerator-type`` names, and pod
templates that select different types get the handler of the joined selector (the card
handler when one contains ``card``). Then a count is checked against the handler's
widest rules (every server it serves) and against the node size of the pod's own
selection. A policy with no ``accelerator-type`` selector keeps the pods off no node
its handler takes: only the handler's widest rules apply (``chip1-node2``, the card
handler, with 8 NPUs per pod runs on an 8-NPU server; the simulated cluster shows it).
The policy picks the handler of ``huawei.com/Ascend910`` and ``huawei.com/npu`` jobs
only; 310 and 310P jobs go by their own labels. 310 and 310P jobs get one of their
resource's handlers by the labels ``duo`` and ``npu-310-strategy`` (``chip`` when
absent), as the plugin joins the job's and the pods' values (``|`` where they differ):
the profile's own counts when the labels are its ``jobLabels`` (``310p``: ``duo:
"true"`` and ``card``, 1 or 2 a pod; ``310``: ``card``, 1 to 4), else the first of its
``labelHandlers`` that matches, which takes 1 to its maximum a pod: ``duo: "true"``
with ``chip`` 16 (chip310px2), any other 310P job 64 (the generic handler), an Atlas
300 ``chip`` job 64 (chip310x4); a larger pod is refused. The simulated cluster runs a
310P job of 4 NPUs a pod with the chip or the generic handler, and of 8 with the chip
handler (its nodes labelled ``infer-card-type: card-300i-duo``, which chip310px2
needs), and leaves 17 (chip) or 65 (generic) pending. Both Duo handlers (card310px2,
chip310px2) refuse a job labelled ``distributed: "true"`` (as the plugin joins the
labels) that has more than one NPU pod ("job with label of distributed=true should
have only 1 npu pod"); the generic handler does not. The simulated cluster leaves a
Duo job of two NPU pods with that label pending and runs it without the label, or
without ``duo``. A pod that names an NPU resource but asks for 0 is refused by every
handler (a MindSpore Scheduler may, on A3 servers).

**Why.** ascend-for-volcano refuses a per-pod count its handler does not take and the
job stays Pending (reason ``InvalidResourceRequest``), on A3 servers also an odd count
and a distributed super-pod job whose pods are not whole nodes; a pod too large for
its nodes stays Pending ("Insufficient huawei.com/Ascend910"). The arithmetic is
shared with ``compile`` (``compiler/hardware/arithmetic.py``).

**How to fix.** Request an allowed count; for distributed jobs, whole nodes.

Failing::

    nodeSelector: {accelerator-type: module-910b-16}
    containers:
    - name: ascend
      resources:
        requests: {huawei.com/Ascend910: 9}
        limits: {huawei.com/Ascend910: 9}

Passing::

    nodeSelector: {accelerator-type: module-910b-16}
    containers:
    - name: ascend
      resources:
        requests: {huawei.com/Ascend910: 10}
        limits: {huawei.com/Ascend910: 10}
"""
from __future__ import annotations

from typing import FrozenSet, Iterator, List, Optional, TYPE_CHECKING, Tuple

from ...catalogue.citations import Citation, MC, PL, Place
from ...catalogue import NPU_COUNT
from ...findings import Path
from ... import releases
from ...hardware.arithmetic import NpuLayout, Violation, allowed_per_pod, check_pods
from ...hardware.profiles import Profile
from ...hardware.targeting import node_profile, per_pod_rules
from ...vocabulary import (ACCELERATOR_TYPE_LABEL, JOBS, SCHEDULER_TASK_SPEC,
                            SKIP_ASCEND_PLUGIN_ANNOTATION, SKIP_ASCEND_PLUGIN_ENABLED, TASK_SPEC_ANNOTATION)
from ...manifest.values import refused_amount
from ...releases import PLUGIN_STACKS
from ..rule import Problem
from ._util import npu_request_path

if TYPE_CHECKING:
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("ValidNPUJob", PL + "internal/npu/base/frame.go", MC,
                    "expected: job<%s> req npu num should small than %d, and not in %v, actual: task<%s> req npu: %d",
                    also=(Place("get310PCardHandlerName", PL + "internal/npu/factory.go", MC),
                          Place("init310PCardPolicyHandler", PL + "internal/npu/factory.go", MC),
                          Place("init310CardPolicyHandler", PL + "internal/npu/factory.go", MC),
                          Place("", PL + "internal/npu/ascend910/ascend910b/module910bx16/frame.go", MC),
                          Place("", PL + "internal/npu/ascend910/ascend910a3/*/frame.go", MC),
                          Place("GetVCJobReqNPUTypeFromJobInfo", PL + "plugin/job.go", MC)))

#: (profiles whose per-pod rules apply, whether each pod set must also fit the nodes it selects)
_Handler = Tuple[Tuple[Profile, ...], bool]
#: (every violation of each profile whose rules apply, the rules every one of those profiles breaks)
_Violations = Tuple[List[List[Violation]], FrozenSet[str]]


def handler_rules(obj: ObjectContext, run: RunContext) -> _Handler:
    """(profiles whose per-pod rules apply, whether each pod set must also fit the nodes it selects): the
    scheduler's decision, :func:`~ascend_compile.hardware.targeting.per_pod_rules`, worked out once per object."""
    found: Optional[_Handler] = obj.shared.get("npu_count.handler")  # npu-count and not-full-node ask: once per object
    if found is None:
        found = obj.shared["npu_count.handler"] = run.by_signals(_handler_rules, obj, _labels(obj, run))
    return found


def _labels(obj: ObjectContext, run: RunContext) -> Tuple[Tuple[str, Optional[str]], ...]:
    """The job labels that pick the handler among the candidates', as the plugin reads them (the signals do not
    carry them)."""
    found: Optional[Tuple[Tuple[str, Optional[str]], ...]] = obj.shared.get("npu_count.labels")  # asked often: once
    if found is None:
        by_labels = obj.npu_resource() in run.from_profiles(_label_resources)
        keys = run.by_signals(_label_keys, obj) if by_labels else ()
        found = obj.shared["npu_count.labels"] = obj.handler_labels(keys) if keys else ()
    return found


def _label_resources(profiles: List[Profile]) -> FrozenSet[str]:
    """The resources some of whose profiles' handlers go by job labels."""
    return frozenset(p.resource for p in profiles if p.label_keys())


def _label_keys(run: RunContext, obj: ObjectContext) -> Tuple[str, ...]:
    return tuple(sorted({key for p in run.candidate_profiles(obj) for key in p.label_keys()}))


def _handler_rules(run: RunContext, obj: ObjectContext, labels: Tuple[Tuple[str, Optional[str]], ...]) -> _Handler:
    return per_pod_rules(run.profiles.all(), run.candidate_profiles(obj), run.signals(obj), labels)


def _node_violation(obj: ObjectContext, run: RunContext, pod_set: PodSet, npus: int) -> Optional[Violation]:
    """A pod that asks for more NPUs than a node its own selector names has never fits."""
    value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
    own = node_profile(run.profiles.all(), obj.npu_resource(), value)
    if own is None or npus <= own.npus_per_node:
        return None
    return Violation(
        NPU_COUNT, f"{npus} NPUs per pod never fit the nodes {ACCELERATOR_TYPE_LABEL}={value} selects "
                   f"({own.name}: {own.npus_per_node} NPUs per node)",
        f"request at most {own.npus_per_node} NPUs per pod, or select the nodes the pod is meant for")


def _handler_violation(profiles: Tuple[Profile, ...], pods: int, npus: int, release: str) -> Violation:
    allowed = sorted({n for p in profiles for n in allowed_per_pod(p, pods, release)})
    kind = "a single-pod job" if pods <= 1 else "a job with several pods"
    names = ", ".join(p.name for p in profiles)
    return Violation(
        NPU_COUNT, f"{npus} NPUs per pod is refused by the scheduler's handler for {names} in {kind}; "
                   f"it takes {', '.join(str(n) for n in allowed)}",
        f"request one of {', '.join(str(n) for n in allowed)} NPUs per pod that fits the selected nodes")


def pod_set_violations(obj: ObjectContext, run: RunContext, rule: str) -> Iterator[Tuple[PodSet, Violation]]:
    """(pod set, Violation) for each NPU pod set that breaks ``rule`` on every profile the job could target.

    The manifest may not say which server it is for (several profiles share a policy, or no
    accelerator-type); a count that one candidate accepts is not reported.  The violation shown is
    the first candidate's.
    """
    profiles, own_nodes = handler_rules(obj, run)
    if not profiles:
        return
    for pod_set, npus, (every, refused) in _checked_pod_sets(obj, run):
        if rule in refused and own_nodes and rule == NPU_COUNT:
            yield pod_set, _handler_violation(profiles, obj.npu_layout().pods, npus, run.release)
        elif rule in refused:
            for violation in every[0]:
                if violation.rule == rule:
                    yield pod_set, violation
        elif own_nodes and rule == NPU_COUNT:
            too_many = _node_violation(obj, run, pod_set, npus)
            if too_many is not None:
                yield pod_set, too_many


def _checked_pod_sets(obj: ObjectContext, run: RunContext) -> List[Tuple[PodSet, int, _Violations]]:
    """(pod set, its NPUs per pod, :func:`_violations`) of each NPU pod set, worked out once for the rules that
    read them (npu-count, not-full-node)."""
    found: Optional[List[Tuple[PodSet, int, _Violations]]] = obj.shared.get("npu_count.checked")
    if found is None:
        layout, labels = obj.npu_layout(), _labels(obj, run)
        found = []
        for pod_set in obj.pod_sets():
            npus = pod_set.npus()
            if npus > 0 and pod_set.replicas > 0 and obj.volcano_places(pod_set):
                found.append((pod_set, npus, run.by_signals(_violations, obj, npus, layout.pods, labels)))
        average = _average(obj, run)
        if found and average is not None:
            found = [(found[0][0], average, run.by_signals(_violations, obj, average, layout.pods, labels))]
        obj.shared["npu_count.checked"] = found
    return found


def _average(obj: ObjectContext, run: RunContext) -> Optional[int]:
    """The job's average NPUs per NPU pod when the target's plugin checks only that (``average-per-pod``: up to
    v7.0.RC1, the NPUs of the PodGroup's minResources over the NPU pods, in Go's integer division) and it can differ
    from a pod's own count (the pods differ, or minResources counts fewer pods); None when each pod is checked."""
    layout = obj.npu_layout()
    if not releases.value("average-per-pod", run.release):
        return None
    if len(layout.counts) >= 2:
        return layout.total // layout.pods
    counted = _min_resources_npus(obj, run)
    return None if counted is None or not layout.pods else counted // layout.pods


#: profiles whose handler up to v7.0.RC1 checks the job with a validation of its own, not the base one's average
#: (the A3 handlers' frames: the unit's CITATION)
_OWN_VALIDATION = frozenset({"module-a3-16", "module-a3-16-super-pod"})


def _min_resources_npus(obj: ObjectContext, run: RunContext) -> Optional[int]:
    """The NPUs of the PodGroup's minResources when they are fewer than the job's, for a job whose pods all ask for
    the same count: the plugin up to v7.0.RC1 takes a job's NPUs from there, which Volcano's job controller and
    ascend-operator sum over the first ``minAvailable`` pods (the unit's CITATION names the files). None otherwise:
    every pod's NPUs count, or which pods are first depends on their order (pods with other counts, or none)."""
    layout, left = obj.npu_layout(), obj.min_available()
    if len(layout.counts) != 1 or left is None or not 0 < left < layout.pods:
        return None
    if any(pod_set.npus() != layout.counts[0] for pod_set in obj.pod_sets() if pod_set.replicas > 0):
        return None
    if any(profile.name in _OWN_VALIDATION for profile in handler_rules(obj, run)[0]):
        return None
    return left * layout.counts[0]


def _violations(run: RunContext, obj: ObjectContext, npus: int, pods: int,
                labels: Tuple[Tuple[str, Optional[str]], ...]) -> _Violations:
    """(every violation of each profile whose rules apply, the rules every one of those profiles breaks), for
    pods of ``npus`` NPUs in a job of ``pods`` pods (``labels``, which :func:`handler_rules` works out again, key
    the cache: the signals do not carry them)."""
    layout = NpuLayout((npus,), pods, npus * pods)
    every = [check_pods(profile, layout, run.release) for profile in handler_rules(obj, run)[0]]
    broken = [{violation.rule for violation in violations} for violations in every]
    return every, frozenset(set.intersection(*broken)) if broken else frozenset()


def _safe_hint(obj: ObjectContext, run: RunContext, pod_set: PodSet, hint: str) -> str:
    """With several candidate profiles, offer only counts every one of them accepts (a hint must not break a job)."""
    candidates = run.candidate_profiles(obj)
    if len(candidates) < 2 or handler_rules(obj, run)[1]:
        return hint
    pods = obj.npu_layout().pods
    common = set(allowed_per_pod(candidates[0], pods, run.release))
    for profile in candidates[1:]:
        common &= set(allowed_per_pod(profile, pods, run.release))
    names = ", ".join(p.name for p in candidates)
    if not common:
        return f"no count is allowed on every profile the job could target ({names}): name the server type"
    return f"request one of {', '.join(str(n) for n in sorted(common))} NPUs per pod (allowed on {names})"


def _exempt_from_zero(pod_set: PodSet) -> bool:
    """A task the A3 handlers let ask for 0 NPUs (a MindSpore Scheduler, or one told to skip the plugin)."""
    annotations = pod_set.metadata.get("annotations")
    annotations = annotations if isinstance(annotations, dict) else {}
    return pod_set.role.lower() == SCHEDULER_TASK_SPEC \
        or annotations.get(TASK_SPEC_ANNOTATION) == SCHEDULER_TASK_SPEC \
        or annotations.get(SKIP_ASCEND_PLUGIN_ANNOTATION) == SKIP_ASCEND_PLUGIN_ENABLED


def zero_requests(obj: ObjectContext, run: RunContext) -> Iterator[PodSet]:
    """Pod sets that name an NPU resource but ask for 0 of it: every handler's job validation refuses such
    a task (the base handler's check of fewer than 1 NPU per task; the A3 and super-pod handlers unless exempted).  A fraction
    ("500m") reads as 0 too, but Kubernetes refuses it before the scheduler sees it: AC701 reports that."""
    if not run.candidate_profiles(obj):
        return
    for pod_set in obj.pod_sets():
        if pod_set.npus() == 0 and pod_set.replicas > 0 and pod_set.npu_resource() and obj.volcano_places(pod_set) \
                and not _exempt_from_zero(pod_set) and not _fraction_asked(pod_set):
            yield pod_set


def _fraction_asked(pod_set: PodSet) -> bool:
    return any(refused_amount(value) for container in pod_set.containers()
               for section in ("requests", "limits") for value in container.npu_amounts(section).values())


def _single_pod_refusal(obj: ObjectContext, run: RunContext) -> Optional[Tuple[Path, str]]:
    """(path, message) when every handler the job could get refuses it for having more than one NPU pod with its
    labels (the Duo handlers with ``distributed: "true"``, ``singleNpuPodLabels``); the plugin counts the NPU
    pods of the whole job (``setNPUTaskNumInJob``)."""
    labels = _labels(obj, run) if obj.kind in JOBS else ()
    pods = obj.npu_layout().pods if labels else 0
    if pods < 2:
        return None
    by_key = dict(labels)
    profiles = handler_rules(obj, run)[0]
    if not profiles or not all(p.refuses_pods(by_key, pods) for p in profiles):
        return None
    key, value = next(iter(profiles[0].single_npu_pod_labels.items()))
    names = ", ".join(p.name for p in profiles)
    return obj.label_values(key)[0][0], (
        f"the job is labelled {key}={value} and has {pods} NPU pods; the scheduler's handler for {names} takes "
        f"only one NPU pod with that label and refuses the job (InvalidResourceRequest): it stays Pending")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    refused = _single_pod_refusal(obj, run)
    if refused is not None:
        yield Problem(refused[0], refused[1],
                      hint=f"give the job one pod that requests NPUs, or remove the label {refused[0][-1]}")
    for pod_set in zero_requests(obj, run):
        yield Problem(npu_request_path(pod_set), f"{pod_set.role}: asks for 0 {pod_set.npu_resource()}; the "
                      "scheduler refuses a task that names an NPU resource but requests none (InvalidResourceRequest)",
                      hint="request at least 1 NPU, or remove the NPU resource from the pod")
    average = _average(obj, run)
    layout = obj.npu_layout()
    counted = _min_resources_npus(obj, run)
    whose = f"the job's {layout.total} NPUs" if counted is None else (
        f"the {counted} NPUs of the job's first {obj.min_available()} pods (minAvailable: its PodGroup's minResources)")
    said = "" if average is None else (
        f"{whose} over {layout.pods} NPU pods average {average} per pod, which the plugin of "
        f"MindCluster {run.release} checks instead of each pod: ")
    short = average is not None and counted is not None
    for pod_set, violation in pod_set_violations(obj, run, NPU_COUNT):
        hint = ("set minAvailable to the job's pod count, so that minResources counts every pod's NPUs" if short
                else _safe_hint(obj, run, pod_set, violation.hint))
        yield Problem(npu_request_path(pod_set), f"{pod_set.role}: {said}{violation.message}", hint=hint,
                      severity=violation.severity)
