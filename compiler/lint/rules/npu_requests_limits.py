"""A ``huawei.com/*`` NPU resource has no limit, or its request differs from its limit.

**What.** For every ``huawei.com/*`` resource of a container, ``limits`` must
be set and ``requests`` (if set) must equal it.

**Why.** NPUs are extended resources, which Kubernetes cannot overcommit: the
API server rejects the pod ("must be equal to huawei.com/Ascend910 limit",
"Limit must be set for non overcommitable resources"). For AscendJob and
Volcano Job the job is accepted but no pod is ever created. The MindCluster
docs require the same ("limits需要和requests的芯片名称和数量保持一致"). Source:
kubernetes ``pkg/apis/core/validation/validation.go``
(ValidateResourceRequirements), ``MC: docs/zh/scheduling/06_api/15_yaml_configuration.md``.


**How to fix.** Give requests and limits the same NPU count.

Failing::

    resources:
      requests: {huawei.com/Ascend910: 8}
      limits: {huawei.com/Ascend910: 4}

Passing::

    resources:
      requests: {huawei.com/Ascend910: 8}
      limits: {huawei.com/Ascend910: 8}
"""
from ..context import as_int
from ..rule import Problem


def _same(a, b) -> bool:
    ia, ib = as_int(a), as_int(b)
    if ia is not None and ib is not None:
        return ia == ib
    return str(a).strip() == str(b).strip()


def check(obj, run):
    for pod_set in obj.pod_sets():
        for container in pod_set.containers():
            requests = container.npu_amounts("requests")
            limits = container.npu_amounts("limits")
            for name, value in requests.items():
                if name not in limits:
                    yield Problem(container.path + ("resources", "requests", name),
                                  f"{name} is requested ({value}) but has no limit: Kubernetes requires "
                                  "a limit for this resource")
                elif not _same(value, limits[name]):
                    yield Problem(container.path + ("resources", "limits", name),
                                  f"{name} limit {limits[name]} differs from its request {value}: Kubernetes "
                                  "requires them to be equal")
