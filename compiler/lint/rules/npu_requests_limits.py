"""A ``huawei.com/*`` NPU resource has no limit, is no whole number, its request differs from its limit, an AscendJob gives it in limits only, or only an init container asks for it.

**What.** For every ``huawei.com/*`` resource of a container, ``limits`` must
be set and ``requests`` (if set) must equal it, a whole number (``8``, ``"8"`` or
``"8000m"``; not ``"500m"``, ``1.5`` or ``-1``). An AscendJob's ``ascend`` container should
also give the count in ``requests``.

**Why.** NPUs are extended resources, which Kubernetes cannot overcommit: the API server
rejects the pod ("must be equal to huawei.com/Ascend910 limit", "Limit must be set for non
overcommitable resources"), and takes no fraction of one and no negative amount ("must be
an integer": its value in thousandths, rounded up, is a multiple of 1000; "must be greater
than or equal to 0"). For AscendJob and Volcano Job the job is accepted but no pod is ever
created. The MindCluster docs require the same (the chip name and count of limits must
match the requests).

Limits alone are valid (Kubernetes copies them into the pod's requests), so the pods run,
but ascend-operator reads an AscendJob's templates before that: it counts the NPUs of the
``ascend`` container's *requests*, finds none, and then sets none of the framework's rank
env (``MASTER_ADDR``, ``RANK``, ``WORLD_SIZE`` for PyTorch, ``MS_*`` for MindSpore,
``CM_*`` for TensorFlow) and no ``ASCEND_VISIBLE_DEVICES``. The training runs, but not as
the distributed job it was meant to be: a warning.

NPUs asked by an init container while no container of the pod asks any are scheduled (the
pod's request is the larger of its init containers' and its containers'), and the simulated
cluster runs such jobs; but the kubelet gives devices only to a container that asks for
them, so the NPUs go to the init container and the training containers that run after it
see none (for an AscendJob the operator also sets no rank env): a warning.

**How to fix.** Give requests and limits the same NPU count, in the
container that trains.

Failing::

    resources:
      requests: {huawei.com/Ascend910: 8}
      limits: {huawei.com/Ascend910: 4}

Passing::

    resources:
      requests: {huawei.com/Ascend910: 8}
      limits: {huawei.com/Ascend910: 8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Optional, Sequence

from ...catalogue.citations import Citation, K8S, K8V, MC, OP, Place
from ...findings import WARNING
from ...vocabulary import ASCEND_JOB, CONTAINER_NAME
from ...manifest.quantity import parse
from ...manifest.pods import Container
from ...manifest.values import as_int, as_list
from ...manifest.values import refused_amount
from ..rule import Problem

if TYPE_CHECKING:
    from ...findings import Finding
    from ..fixing import Fix
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import PodSet

CITATION = Citation("validateResourceRequirements", K8V, K8S, "must be equal to %s limit of %s",
                    also=(Place("ValidateResourceQuantityValue", K8V, K8S),
                          Place("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (resources)", MC),
                          Place("getContainerNPUResourceNameAndReq", OP + "utils.go", MC),
                          Place("setEnv", OP + "pod.go", MC),
                          Place("setAscendVisibleDevicesEnv", OP + "env.go", MC),
                          Place("", "pkg/kubelet/cm/devicemanager (devices per container)", K8S)))


def _refused_amounts(container: Container, requests: Dict[str, Any], limits: Dict[str, Any]) -> Iterator[Problem]:
    """A negative or fractional count, once per resource (at its request; at its limit if that differs)."""
    for section, amounts in (("requests", requests), ("limits", limits)):
        for name, value in amounts.items():
            why = refused_amount(value)
            if why and not (section == "limits" and name in requests and _same(value, requests[name])):
                yield Problem(container.path + ("resources", section, name),
                              f"{name} is {value} ({why}): Kubernetes takes only a whole number, 0 or more, of an "
                              "extended resource, so no pod of this template is created",
                              hint=f"ask for whole NPUs, e.g. {name}: 1")


def _whole_numbers(amounts: Dict[str, Any]) -> bool:
    """Whether every amount is a plain int, 0 or more (nothing to say about it)."""
    return all(value.__class__ is int and value >= 0 for value in amounts.values())


def _same(a: Any, b: Any) -> bool:
    """Equal as Kubernetes compares quantities (8, "8", 8.0 and "8000m" are one amount)."""
    ia, ib = as_int(a), as_int(b)
    if ia is not None and ib is not None:
        return ia == ib
    qa, qb = parse(a), parse(b)
    if qa is not None and qb is not None:
        return qa == qb
    return str(a).strip() == str(b).strip()


def _npus_on_init_only(pod_set: PodSet) -> Iterator[Problem]:
    """The first init container that asks for NPUs, when no container of the pod asks for any."""
    for i, data in enumerate(as_list(pod_set.spec.get("initContainers"))):
        if isinstance(data, dict):
            container = Container(pod_set.spec_path + ("initContainers", i), data, i)
            name, count = container.npu_request()
            if name and count > 0:
                section = "requests" if name in container.npu_amounts("requests") else "limits"
                yield Problem(container.path + ("resources", section, name),
                              f"only the init container {container.name!r} of {pod_set.role} asks for NPUs "
                              f"({name}: {count}): the kubelet gives the devices to it, and the containers "
                              "that run after it get none",
                              hint="request the NPUs in the container that trains, not in the init container",
                              severity=WARNING)
                return


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        if "initContainers" in pod_set.spec and pod_set.npu_resource() is None:
            yield from _npus_on_init_only(pod_set)
        for container in pod_set.containers():
            requests = container.npu_amounts("requests")
            limits = container.npu_amounts("limits")
            if requests == limits and _whole_numbers(requests) and _whole_numbers(limits):
                continue  # most containers: the same whole numbers in both (or no NPUs)
            yield from _refused_amounts(container, requests, limits)
            for name, value in requests.items():
                if name not in limits:
                    yield Problem(container.path + ("resources", "requests", name),
                                  f"{name} is requested ({value}) but has no limit: Kubernetes requires "
                                  "a limit for this resource")
                elif not _same(value, limits[name]):
                    yield Problem(container.path + ("resources", "limits", name),
                                  f"{name} limit {limits[name]} differs from its request {value}: Kubernetes "
                                  "requires them to be equal")
            if limits and not requests and obj.kind == ASCEND_JOB and container.name == CONTAINER_NAME:
                name = next(iter(limits))
                yield Problem(container.path + ("resources", "limits", name),
                              f"{name} is set in limits only: ascend-operator counts an AscendJob's NPUs from "
                              "the ascend container's requests, so it sets none of the framework's rank env "
                              "(MASTER_ADDR, RANK, WORLD_SIZE; MS_*; CM_*) and no ASCEND_VISIBLE_DEVICES",
                              hint=f"add requests: {{{name}: {limits[name]}}} (the same count as the limit)",
                              severity=WARNING)


def fix(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    """``lint --fix`` of an NPU requested with no limit: the limit, the request's value as written (Kubernetes
    requires both, equal).  Differing values are left alone: which of the two was meant is not mechanical."""
    import yaml

    from .. import yamledit
    from ..fixing import Change, Fix, locate
    from ...yamlio.locations import child

    found = locate(finding, docs) if finding.path[-2:-1] == ("requests",) else None
    if found is None:
        return None
    doc, node = found
    name, resources_path = finding.path[-1], finding.path[:-2]
    resources = yamledit.walk(docs[doc], resources_path)
    requests = child(resources, "requests")[0]
    amount, key = yamledit.written(text, node), yamledit.written(text, child(requests, name)[1])
    if amount is None or key is None:
        return None
    limits, limits_key = child(resources, "limits")
    if limits is None and limits_key is None:
        edit = yamledit.insert_entry(text, resources, "limits", [(key, amount)], flow_value=requests.flow_style)
    else:
        edit = yamledit.insert_entry(text, limits, key, amount)
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text, f"add the limit {key}: {amount}, equal to the request",
               Change(doc, resources_path + ("limits", name), yaml.safe_load(amount)))
