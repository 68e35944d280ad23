"""An AscendJob pod uses ``hostNetwork: true`` but its ``ascend`` container has no ``HCCL_IF_IP``.

**What.** With ``hostNetwork: true``, the ``ascend`` container of an AscendJob
replica that requests NPUs should set ``HCCL_IF_IP`` from fieldRef ``status.hostIP``.

**Why.** On the host network HCCL otherwise picks an arbitrary host interface
for its control plane, and multi-node jobs hang at initialisation. The
MindCluster YAML reference requires it for acjob with host networking. Source:
``MC: docs/zh/scheduling/06_api/15_yaml_configuration.md``

**How to fix.** Add the env entry.

Failing::

    spec:
      hostNetwork: true
      containers:
      - name: ascend
        env: []

Passing::

    spec:
      hostNetwork: true
      containers:
      - name: ascend
        env:
        - name: HCCL_IF_IP
          valueFrom: {fieldRef: {fieldPath: status.hostIP}}
"""
from ...vocabulary import HCCL_IF_IP_ENV
from ..rule import Problem
from ._util import ascend_container


def check(obj, run):
    for pod_set in obj.pod_sets():
        if pod_set.spec.get("hostNetwork") is not True:
            continue
        container = ascend_container(pod_set)
        if container is None or container.npu_request()[0] is None:
            continue
        if container.env_named(HCCL_IF_IP_ENV) is None:
            where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
            yield Problem(where, f"{pod_set.role} uses hostNetwork but its ascend container has no HCCL_IF_IP "
                                 "env", key="env" in container.data)
