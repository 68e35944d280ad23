"""A container requests more of a resource than its limit.

**What.** A ``resources.requests`` entry of a container (or init container)
is larger than the ``resources.limits`` entry of the same resource: ``cpu:
16`` requested under a ``cpu: 8`` limit, ``memory: 64Gi`` under ``32Gi``.

**Why.** Kubernetes' pod validation refuses the pod (a request above its limit).
A Volcano Job is rejected by its admission webhook, which validates each task's
pod template the same way; an AscendJob is accepted, but the API server refuses
every pod the operator creates, so the job stays Pending without pods. The
simulated cluster shows both. A request left out defaults to the limit and is
fine. NPU (``huawei.com/*``) requests must equal their limits: AC701 reports
those.

**How to fix.** Request at most the limit, raise the limit, or leave the
request out.

Failing::

    resources:
      requests: {cpu: 16, memory: 64Gi}
      limits: {cpu: 8, memory: 64Gi}

Passing::

    resources:
      requests: {cpu: 8, memory: 64Gi}
      limits: {cpu: 16, memory: 64Gi}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, K8S, K8V
from ...manifest.values import as_dict
from ...manifest.quantity import parse
from ...vocabulary import NPU_RESOURCE_PREFIX
from ..rule import Problem
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateResourceRequirements", K8V, K8S, "must be less than or equal to %s limit of %s")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for where, container in pod_containers(pod_set):
            resources = as_dict(container.get("resources"))
            limits = as_dict(resources.get("limits"))
            for name, value in as_dict(resources.get("requests")).items():
                if not isinstance(name, str) or name.startswith(NPU_RESOURCE_PREFIX) or name not in limits:
                    continue  # NPUs: AC701
                if value == limits[name] and type(value) is type(limits[name]):
                    continue  # the same quantity, written the same way (most jobs)
                asked, limit = parse(value), parse(limits[name])
                if asked is not None and limit is not None and asked > limit:
                    yield Problem(where + ("resources", "requests", name),
                                  f"container {container.get('name')!r} of {pod_set.role} requests {name} {value}, "
                                  f"more than its limit {limits[name]}: Kubernetes refuses the pod",
                                  hint=f"request at most {limits[name]}, or leave the request out")
