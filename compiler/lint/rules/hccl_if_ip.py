"""A distributed AscendJob on the host network names no interface for HCCL, in its env or its command.

**What.** With ``hostNetwork: true``, the ``ascend`` container of an AscendJob
whose NPU pods span several servers (more than one NPU pod) should tell HCCL
which host interface to use: env ``HCCL_IF_IP`` from fieldRef
``status.hostIP`` (or ``HCCL_SOCKET_IFNAME``, the interface by name), or set
one of them in its command. This is |severity|.

Not reported: a job of one NPU pod (HCCL does not leave the server), and a
container whose command runs a shell script (``*.sh``): lint cannot read the
script, and upstream's start scripts set the variable themselves (``export
HCCL_IF_IP=${XDL_IP}`` in their ``train_start.sh``), which is why upstream's
AscendJob samples with ``hostNetwork: true`` have neither variable in the pod
spec.

**Why.** The MindCluster YAML reference asks for ``HCCL_IF_IP`` with host
networking (its ``hostNetwork`` row); ascend-operator does not set it (it adds
only ``HostNetwork``). Without either variable HCCL chooses a host interface by
its own order (any interface but docker's and the loopback first, by name), and
a pod on the host network sees every interface of the server: on Ascend servers,
with their management, storage and service networks, the first by name need not
be one that reaches the other servers, and then HCCL's initialisation times out.
The job is scheduled and starts, which the simulated cluster cannot tell apart
(it runs no HCCL): hence |severity|, not an error.

**How to fix.** Add the env entry, or set it in the command.

Failing::

    spec:
      hostNetwork: true
      containers:
      - name: ascend
        command: [torchrun, --nnodes=2, train.py]
        env: []

Passing::

    spec:
      hostNetwork: true
      containers:
      - name: ascend
        command: [torchrun, --nnodes=2, train.py]
        env:
        - name: HCCL_IF_IP
          valueFrom: {fieldRef: {fieldPath: status.hostIP}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import HCCL_IF_IP_ENV, HCCL_SOCKET_IFNAME_ENV
from ..rule import Problem
from ._util import ascend_container, command_text

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def _sets_it_or_runs_a_script(command: str) -> bool:
    """Whether a command sets one of the variables itself, or runs a shell script that may."""
    return HCCL_IF_IP_ENV in command or HCCL_SOCKET_IFNAME_ENV in command or ".sh" in command


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if sum(max(p.replicas, 0) for p in obj.npu_pod_sets()) < 2:
        return
    for pod_set in obj.pod_sets():
        if pod_set.spec.get("hostNetwork") is not True:
            continue
        container = ascend_container(pod_set)
        if container is None or container.npu_request()[0] is None:
            continue
        if container.env_named(HCCL_IF_IP_ENV) is None and container.env_named(HCCL_SOCKET_IFNAME_ENV) is None \
                and not _sets_it_or_runs_a_script(command_text(container)):
            where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
            yield Problem(where, f"{pod_set.role} uses hostNetwork in a job that spans servers, but its ascend "
                                 "container sets neither HCCL_IF_IP nor HCCL_SOCKET_IFNAME (env or command): HCCL "
                                 "picks a host interface by its own order, which may not reach the other servers",
                          key="env" in container.data)
