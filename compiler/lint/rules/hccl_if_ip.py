"""An AscendJob pod uses ``hostNetwork: true`` but its ``ascend`` container has no ``HCCL_IF_IP``.

**What.** With ``hostNetwork: true``, the ``ascend`` container of an AscendJob
replica that requests NPUs should tell HCCL which host interface to use: env
``HCCL_IF_IP`` from fieldRef ``status.hostIP`` (or ``HCCL_SOCKET_IFNAME``, the
interface by name). A note (info).

**Why.** The MindCluster YAML reference asks for ``HCCL_IF_IP`` with host
networking (``MC: docs/zh/scheduling/06_api/15_yaml_configuration.md``, the
``hostNetwork`` row); ascend-operator does not set it (``MC: component/
ascend-operator/pkg/controllers/v1/env.go`` adds only ``HostNetwork``). Without
either variable HCCL picks a host interface itself, which works wherever that
interface reaches the other nodes. Upstream's own AscendJob samples with
``hostNetwork: true`` set neither in the pod spec: their start scripts export
``HCCL_IF_IP=${XDL_IP}`` or ``HCCL_SOCKET_IFNAME`` (``MD: samples/train/**/
train_start.sh``), which lint cannot see. So a job without
the env is not likely broken, and this is a convention, not a warning.

**How to fix.** Add the env entry (or export it in the start script).

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
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import HCCL_IF_IP_ENV, HCCL_SOCKET_IFNAME_ENV
from ..rule import Problem
from ._util import ascend_container

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        if pod_set.spec.get("hostNetwork") is not True:
            continue
        container = ascend_container(pod_set)
        if container is None or container.npu_request()[0] is None:
            continue
        if container.env_named(HCCL_IF_IP_ENV) is None and container.env_named(HCCL_SOCKET_IFNAME_ENV) is None:
            where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
            yield Problem(where, f"{pod_set.role} uses hostNetwork but its ascend container has no HCCL_IF_IP "
                                 "env", key="env" in container.data)
