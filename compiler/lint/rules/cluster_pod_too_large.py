"""A pod asks for more NPUs than any node it may run on has at all (a cluster-aware rule: only with an inventory).

**What.** With ``--cluster`` or ``--cluster-snapshot``: a pod template requests
more NPUs of its resource (``huawei.com/Ascend910``, ...) than the largest
allocatable count of the nodes its selector and tolerations allow, or none of
those nodes has that resource at all.

**Why.** A pod runs on one node; a node never offers more NPUs than it has,
so such a pod is never placed, whatever else runs (the job stays Pending).
The message says how many such nodes there are and their largest and most
free NPU counts.

**How to fix.** Request at most the NPUs of one node per pod (more pods, fewer
NPUs each), or select nodes with more NPUs.

Failing::

    nodeSelector: {accelerator-type: module-910b-8}     # nodes of 8 NPUs
    ...
        requests: {huawei.com/Ascend910: 16}

Passing::

    nodeSelector: {accelerator-type: module-910b-8}
    ...
        requests: {huawei.com/Ascend910: 8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, K8S
from ..rule import Problem
from ._cluster import inventory, most, nodes_summary, usable

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("fitsRequest", "pkg/scheduler/framework/plugins/noderesources/fit.go", K8S, "Insufficient %v")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.nodes is None:
        return
    for pod_set in obj.npu_pod_sets():
        resource, npus = pod_set.npu_resource(), pod_set.npus()
        nodes = usable(run, pod_set)
        if pod_set.replicas == 0 or not resource or npus <= 0 or not nodes:
            continue  # no nodes at all: cluster-node-selector says so
        if npus <= most(nodes, resource):
            continue
        container = next((c for c in pod_set.containers() if c.npu_request()[0] == resource), None)
        section = "limits" if container is not None and resource in container.npu_amounts("limits") else "requests"
        path = container.path + ("resources", section, resource) if container is not None else pod_set.spec_path
        yield Problem(path, f"{pod_set.role}: a pod asks for {npus} {resource} but no node it may run on has that "
                      f"many ({nodes_summary(nodes, pod_set, resource)}): it is never placed")
