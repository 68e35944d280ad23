"""A ranktable Volcano Job runs upstream's ``train_start.sh`` without the ``framework`` env it branches on.

**What.** In a Volcano Job that reads a file ranktable (labelled ``ring-controller.atlas``,
with several NPU pods or a ranktable volume) and asks for more than one NPU in all, every
container that requests NPUs and runs upstream's ranktable start script ``train_start.sh``
should set env ``framework`` to exactly ``PyTorch``, ``MindSpore`` or ``Tensorflow``
(|severity|). Containers that run anything else are not reported: the variable is that
script's, and no upstream component reads it (ascend-operator reads the ``framework``
*label* of an AscendJob, not an env).

**Why.** ``train_start.sh`` of mindcluster-deploy's samples (and the fault-rescheduling
copies beside it) reads ``$framework`` once the ranktable lists more than one device:
without it the script prints "framework is null" and exits 1, so the pod fails at start;
with another spelling (``pytorch``) it logs "framework error" and ends without training.
Only a job of one NPU in all takes the script's single-device branch, which runs without
the variable. The simulated cluster runs no container command, so this stays |severity|.

**How to fix.** Set it to the framework of the image.

Failing::

    command: [/bin/bash, -c, "bash train_start.sh /job/code /job/output main.py"]
    env:
    - name: framework
      value: pytorch

Passing::

    command: [/bin/bash, -c, "bash train_start.sh /job/code /job/output main.py"]
    env:
    - name: framework
      value: PyTorch
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, START_SCRIPT
from ..rule import Problem
from ._util import command_text, npu_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

VALUES = tuple(FRAMEWORK_ENV_VALUES.values())


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.uses_file_ranktable() or obj.npu_layout().total < 2:
        return
    for pod_set in obj.pod_sets():
        for container in npu_containers(pod_set):
            if START_SCRIPT not in command_text(container):
                continue
            found = container.env_named(FRAMEWORK_ENV)
            if found is None:
                where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
                yield Problem(where, f"container {container.name!r} runs {START_SCRIPT} without the framework env: "
                                     "the script exits 1 (\"framework is null\") when the job has more than one NPU",
                              key="env" in container.data)
                continue
            index, item = found
            if "valueFrom" in item:
                continue
            value = item.get("value")
            if value not in VALUES:
                match = next((v for v in VALUES if isinstance(value, str) and v.lower() == value.lower()), None)
                yield Problem(container.path + ("env", index, "value"),
                              f"framework env {value!r} is not one of {', '.join(VALUES)} (exact case): "
                              f"{START_SCRIPT} logs \"framework error\" and ends without training",
                              hint=f"write {match}" if match else None)
