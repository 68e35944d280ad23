"""A distributed AscendJob on the host network names no interface for HCCL, in its env or its command.

**What.** With ``hostNetwork: true``, the ``ascend`` container of an AscendJob
whose NPU pods span several servers (more than one NPU pod) should tell HCCL
which host interface to use: env ``HCCL_IF_IP`` from fieldRef
``status.hostIP`` (or ``HCCL_SOCKET_IFNAME``, the interface by name), or set
one of them in its command. This is |severity|.

Not reported: a job of one NPU pod (HCCL does not leave the server). Lint reads
the manifest only: a script the container runs may set the variable, and the
manifest names a script by its file name only, not which script or revision it
is. One shape is a note (info) rather than a warning: a container that runs a
``train_start.sh`` with env ``framework`` ``PyTorch``, env ``XDL_IP`` and a
ranktable volume, the inputs with which upstream's basic-training ranktable
``train_start.sh`` (and its PyTorch resumable-training copies) exports
``HCCL_IF_IP`` from ``XDL_IP`` to the training processes it starts on more than
one device; the note says so conditionally. A script of your own that sets one:
suppress the finding there with the reason.

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
        command: [/bin/bash, -c, "bash /job/code/run.sh"]
        env: []

Passing::

    spec:
      hostNetwork: true
      containers:
      - name: ascend
        command: [/bin/bash, -c, "bash /job/code/run.sh"]
        env:
        - name: HCCL_IF_IP
          valueFrom: {fieldRef: {fieldPath: status.hostIP}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from ...catalogue.citations import AT, Citation, MC, MD, OP, Place
from ...findings import INFO
from ...vocabulary import (FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, HCCL_IF_IP_ENV, HCCL_SOCKET_IFNAME_ENV, PYTORCH,
                           START_SCRIPT, XDL_IP_ENV)
from ..rule import Problem
from ._util import ascend_container, command_text

if TYPE_CHECKING:
    from ...manifest.pods import Container, PodSet
    from ..context import ObjectContext, RunContext

CITATION = Citation("", "docs/zh/scheduling/06_api/15_yaml_configuration.md (HCCL_IF_IP)", MC,
                    also=(Place("", OP + "env.go (sets no HCCL_IF_IP or HCCL_SOCKET_IFNAME)", AT["v6.0.0"]),
                          Place("", OP + "env.go (sets no HCCL_IF_IP or HCCL_SOCKET_IFNAME)", AT["v26.1.0"]),
                          Place("", "samples/train/basic-training/ranktable/train_start.sh (get_env_for_pytorch_multi_node_job "
                                    "exports HCCL_IF_IP=${XDL_IP}; blob 73b10192, branch_v6.0.0 to branch_v26.0.0)", MD),
                          Place("", "samples/train/basic-training/without-ranktable/*/train_start.sh (sets neither)", MD)))


def _script(command: str) -> Optional[str]:
    """The first shell script a command runs (a word ending in ``.sh``), or None."""
    for word in command.replace(";", " ").split():
        word = word.strip("'\"")
        if word.endswith(".sh"):
            return word
    return None


def _maybe_upstream_pytorch_branch(obj: ObjectContext, pod_set: PodSet, container: Container, command: str) -> bool:
    """Whether the manifest gives a ``train_start.sh`` what upstream's basic-training ranktable script needs to export
    ``HCCL_IF_IP=${XDL_IP}``: env framework ``PyTorch``, ``XDL_IP`` defined, a ranktable volume in the pod."""
    if START_SCRIPT not in command or container.env_named(XDL_IP_ENV) is None:
        return False
    framework = container.env_named(FRAMEWORK_ENV)
    if framework is None or framework[1].get("value") != FRAMEWORK_ENV_VALUES[PYTORCH]:
        return False
    return any(mounted is pod_set for mounted, _index, _volume in obj.ranktable_volumes())


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if sum(max(p.replicas, 0) for p in obj.npu_pod_sets()) < 2:
        return
    for pod_set in obj.pod_sets():
        if pod_set.spec.get("hostNetwork") is not True:
            continue
        container = ascend_container(pod_set)
        if container is None or container.npu_request()[0] is None:
            continue
        if container.env_named(HCCL_IF_IP_ENV) is not None or container.env_named(HCCL_SOCKET_IFNAME_ENV) is not None:
            continue
        command = command_text(container)
        if HCCL_IF_IP_ENV in command or HCCL_SOCKET_IFNAME_ENV in command:
            continue
        where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
        message = (f"{pod_set.role} uses hostNetwork in a job that spans servers, but its ascend container sets "
                   f"neither HCCL_IF_IP nor HCCL_SOCKET_IFNAME in its env or command: HCCL picks a host interface by "
                   f"its own order, which may not reach the other servers")
        script = _script(command)
        if _maybe_upstream_pytorch_branch(obj, pod_set, container, command):
            yield Problem(where, message + f"; if {script} is upstream's basic-training ranktable {START_SCRIPT}, it "
                                           f"exports HCCL_IF_IP from {XDL_IP_ENV} to the PyTorch processes it starts",
                          key="env" in container.data, severity=INFO)
            continue
        seen = f" (lint cannot see what {script} sets; if it sets one, suppress this with the reason)" if script else ""
        yield Problem(where, message + seen, key="env" in container.data)
