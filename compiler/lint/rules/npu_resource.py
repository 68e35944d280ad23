"""A pod asks for an NPU resource no node it can land on offers.

**What.** Three mistakes: an NPU resource name spelled in another case than
the device plugin's (``huawei.com/ascend910`` for ``huawei.com/Ascend910``),
a resource named after the chip model or spelled with a hyphen
(``huawei.com/Ascend910B``, ``huawei.com/Ascend-910``: the device plugin
offers every 910 chip, 910B and A3 included, as ``huawei.com/Ascend910``),
and a resource of another chip than the nodes the ``accelerator-type``
selector names carry (``accelerator-type: card`` nodes offer
``huawei.com/Ascend910``, not ``huawei.com/Ascend310P``).

**Why.** Resource names are case-sensitive and every node offers only its
own chip's resource: no node has both, so the pods never fit and the job
stays Pending ("Insufficient huawei.com/Ascend310P", or the PodGroup is never
ready: "0/0 tasks in gang unschedulable"). The simulated cluster shows all three.
Only the built-in profiles' main resources count as another chip's: the
vNPU resources (``huawei.com/npu-core``, ``huawei.com/Ascend910-4c``, ...)
are offered by the same nodes and are not reported.  A pod written for HAMi's
device plugin (``huawei.com/Ascend910B3`` with ``huawei.com/Ascend910B3-memory``
or ``-core``) is reported by its companion resource, which MindCluster's device
plugin never offers: on a MindCluster cluster it stays Pending (the simulated
cluster shows it), and the message says which device plugin the pod was
written for rather than calling the chip-model name a misspelling.
HAMi also takes whole cards by the chip-model name alone (``huawei.com/Ascend910B3: 2``):
such a pod never fits MindCluster's nodes either (the same error), and the
message names HAMi's device plugin, as the pod's own HAMi annotation when it has
one (``huawei.com/vnpu-mode``, ``hami.io/...``).

**How to fix.** Spell the resource as the profile does (``ascend-compile
profiles``), and select the nodes of the chip you request.

Failing::

    nodeSelector: {accelerator-type: card}
    ...
      requests: {huawei.com/Ascend310P: 1}

Passing::

    nodeSelector: {accelerator-type: card}
    ...
      requests: {huawei.com/Ascend910: 1}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, FrozenSet, Iterator, List, Optional, Sequence, Set, Tuple

from ...catalogue.citations import Citation, K8S
from ...findings import Path
from ...vocabulary import ACCELERATOR_TYPE_LABEL, HAMI_ANNOTATION_PREFIX, HAMI_POD_ANNOTATION
from ..rule import Problem
from ._util import npu_request_path

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

CITATION = Citation("fitsRequest", "pkg/scheduler/framework/plugins/noderesources/fit.go", K8S, "Insufficient %v")

#: what :func:`_resources` works out once per run
_Resources = Tuple[List[str], Dict[str, List[str]], Dict[str, List[str]], FrozenSet[str]]


def _miscased(name: str, by_lower: Dict[str, List[str]]) -> Optional[str]:
    """The first resource a profile offers that is ``name`` but for case (None when there is none)."""
    for resource in by_lower.get(name.lower(), ()):
        if resource != name:
            return resource
    return None


def _chip_model(name: str, resources: Sequence[str]) -> Optional[str]:
    """The resource a profile offers that ``name`` spells as a chip model (``huawei.com/Ascend910B``,
    ``huawei.com/Ascend310P3``: the resource and letters or digits after it) or with a hyphen inside
    (``huawei.com/Ascend-910``); None otherwise.  vNPU resources (``huawei.com/Ascend910-4c``,
    ``huawei.com/npu-core``) keep their hyphen after the resource and are not taken for either."""
    lower = name.lower()
    if "-" in name:
        return next((r for r in resources if lower.replace("-", "") == r.lower()), None)
    longest = sorted((r for r in resources if lower.startswith(r.lower()) and lower[len(r):].isalnum()),
                     key=len, reverse=True)
    return longest[0] if longest else None


def _resources(profiles: List[Profile]) -> _Resources:
    """(every resource a profile offers, sorted; those resources by their lower-case spelling; the sorted
    resources of each accelerator-type's nodes; the resources offered under no other spelling, which need no
    further test)"""
    by_type: Dict[str, Set[str]] = {}
    for profile in profiles:
        if isinstance(profile.accelerator_type, str):
            by_type.setdefault(profile.accelerator_type, set()).add(profile.resource)
    resources = sorted({p.resource for p in profiles})
    by_lower: Dict[str, List[str]] = {}
    for resource in resources:
        by_lower.setdefault(resource.lower(), []).append(resource)
    unique = frozenset(r for r in resources if len(by_lower[r.lower()]) == 1)
    return resources, by_lower, {value: sorted(found) for value, found in by_type.items()}, unique


def _other_chip(pod_set: PodSet, resource: str, by_type: Dict[str, List[str]]) -> List[str]:
    """The resources the nodes ``pod_set`` selects offer, when ``resource`` is another profile's and not theirs."""
    value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
    theirs = by_type.get(value, []) if isinstance(value, str) else []
    return theirs if theirs and resource not in theirs else []


def _hami_companion(pod_set: PodSet, resource: str) -> Optional[Path]:
    """Where the container that gives ``pod_set`` its NPU ``resource`` asks for a HAMi vNPU companion resource
    beside it (``huawei.com/Ascend910B3-memory``), or None."""
    for container in pod_set.containers():
        if container.npu_request()[0] == resource:
            return container.hami_companion()
    return None


def _hami_annotation(pod_set: PodSet) -> Optional[str]:
    """The first annotation of ``pod_set``'s pods that only HAMi reads (``huawei.com/vnpu-mode``, ``hami.io/...``),
    or None."""
    annotations = pod_set.metadata.get("annotations")
    if not isinstance(annotations, dict):
        return None
    return next((key for key in annotations if isinstance(key, str) and (
        key == HAMI_POD_ANNOTATION or key.startswith(HAMI_ANNOTATION_PREFIX))), None)


def _chip_model_problem(pod_set: PodSet, resource: str, model: str) -> Tuple[str, str]:
    """A chip-model name is what HAMi's device plugin offers, and MindCluster's never: say so, and for whom."""
    marker = _hami_annotation(pod_set)
    if marker:
        return (f"{pod_set.role}: {resource} is a resource of HAMi's device plugin (the pod's annotation {marker} is "
                f"HAMi's); MindCluster's device plugin offers every chip of that family as {model}, so on its nodes "
                "the pods never fit",
                f"for MindCluster request {model}; keep {resource} only for a cluster that runs HAMi")
    hami = "" if "-" in resource else \
        f"; HAMi's device plugin names NPUs by chip model: keep {resource} only for a cluster that runs HAMi and offers it"
    return (f"{pod_set.role}: MindCluster's device plugin offers no {resource}; it offers every chip of that family "
            f"as {model}, so on its nodes the pods never fit", f"request {model}{hami}")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if run.profiles is None:
        return
    resources, by_lower, by_type, unique = run.from_profiles(_resources)
    for pod_set in obj.pod_sets():
        resource = pod_set.npu_resource()
        if not resource or pod_set.replicas <= 0:
            continue
        right = None if resource in unique else _miscased(resource, by_lower)
        model = None if right or resource in unique or resource in resources else _chip_model(resource, resources)
        hami = _hami_companion(pod_set, resource)
        if hami:
            offered = resource if resource in resources else model or right or resource
            yield Problem(hami, f"{pod_set.role}: {hami[-1]} is a resource of HAMi's device plugin (vNPU memory or "
                          f"cores); MindCluster's device plugin offers no such resource, so on its nodes the pods "
                          f"never fit", hint=f"for MindCluster request whole NPUs ({offered}) or a vNPU template "
                          "(ascend-compile profiles); keep the HAMi resources only for a cluster that runs HAMi")
        elif model:
            message, hint = _chip_model_problem(pod_set, resource, model)
            yield Problem(npu_request_path(pod_set), message, hint=hint)
        elif right:
            yield Problem(npu_request_path(pod_set), f"{pod_set.role}: NPU resource {resource} is spelled "
                          f"{right} by the device plugin; no node offers {resource}, the pods never fit",
                          hint=f"request {right}")
        elif resource in resources:
            theirs = _other_chip(pod_set, resource, by_type)
            if theirs:
                value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
                yield Problem(npu_request_path(pod_set), f"{pod_set.role}: the nodes {ACCELERATOR_TYPE_LABEL}="
                              f"{value} selects offer {', '.join(theirs)}, not {resource}; the pods never fit",
                              hint=f"request {theirs[0]}, or select the nodes of the chip you request")
