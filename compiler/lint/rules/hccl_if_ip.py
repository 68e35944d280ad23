"""A distributed AscendJob on the host network names no interface for HCCL, in its env or its command.

**What.** With ``hostNetwork: true``, the ``ascend`` container of an AscendJob
whose NPU pods span several servers (more than one NPU pod) should tell HCCL
which host interface to use: env ``HCCL_IF_IP`` from fieldRef
``status.hostIP`` (or ``HCCL_SOCKET_IFNAME``, the interface by name), or set
one of them in its command. This is |severity|.

Not reported: a job of one NPU pod (HCCL does not leave the server), and a
container known to get the variable from the start script it runs: upstream's
ranktable start script ``train_start.sh`` (in its basic-training samples, and
its fault-rescheduling copies) exports ``HCCL_IF_IP=${XDL_IP}`` in its PyTorch
branch for more than one device. Lint knows that branch runs when the container
sets env ``framework`` to ``PyTorch``, defines ``XDL_IP`` (the value the script
copies) and its pod mounts a ranktable volume (the script waits for
``hccl.json`` before it gets there). Every other script is reported: upstream's
start scripts without a ranktable and the MindSpore branch of the ranktable one
set neither variable, and lint cannot read a script of your own: if yours sets
one, suppress the finding there with the reason.

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

from ...vocabulary import (FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, HCCL_IF_IP_ENV, HCCL_SOCKET_IFNAME_ENV, PYTORCH,
                           START_SCRIPT, XDL_IP_ENV)
from ..rule import Problem
from ._util import ascend_container, command_text

if TYPE_CHECKING:
    from ...manifest.pods import Container, PodSet
    from ..context import ObjectContext, RunContext


def _script(command: str) -> Optional[str]:
    """The first shell script a command runs (a word ending in ``.sh``), or None."""
    for word in command.replace(";", " ").split():
        word = word.strip("'\"")
        if word.endswith(".sh"):
            return word
    return None


def _upstream_script_sets_it(obj: ObjectContext, pod_set: PodSet, container: Container, command: str) -> bool:
    """Whether the container runs upstream's ranktable ``train_start.sh`` down the branch that exports
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
        if HCCL_IF_IP_ENV in command or HCCL_SOCKET_IFNAME_ENV in command \
                or _upstream_script_sets_it(obj, pod_set, container, command):
            continue
        where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
        yield Problem(where, f"{pod_set.role} uses hostNetwork in a job that spans servers, but its ascend "
                             f"container sets neither HCCL_IF_IP nor HCCL_SOCKET_IFNAME ({_where_looked(command)}): "
                             "HCCL picks a host interface by its own order, which may not reach the other servers",
                      key="env" in container.data)


def _where_looked(command: str) -> str:
    script = _script(command)
    if script is None:
        return "env or command"
    if START_SCRIPT in script:
        return (f"env or command; upstream's {START_SCRIPT} exports HCCL_IF_IP only with env framework "
                f"{FRAMEWORK_ENV_VALUES[PYTORCH]}, env {XDL_IP_ENV} and a ranktable volume")
    return f"env or command; lint cannot read the script it runs, {script}"
