"""A ranktable Volcano Job's NPU container lacks the ``framework`` env, or its value is wrong.

**What.** In a Volcano Job that reads a file ranktable (labelled ``ring-controller.atlas``,
with several NPU pods or a ranktable volume), every
container requesting NPUs should set env ``framework`` to exactly
``PyTorch``, ``MindSpore`` or ``Tensorflow``.

**Why.** Upstream's sample start script ``train_start.sh`` branches on this
value (exact case) to build the framework's rank environment from
``hccl.json``. It is a convention of that script, not of the manifest: no
upstream component reads the variable or refuses a job without it, and custom
scripts need not read it. Hence info. Source: the sample script
``samples/train/basic-training/ranktable/train_start.sh`` (mindcluster-deploy
``b9331e14``); no upstream component message.

**How to fix.** Set it to the framework of the image.

Failing::

    env:
    - name: framework
      value: pytorch

Passing::

    env:
    - name: framework
      value: PyTorch
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES
from ..rule import Problem
from ._util import npu_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

VALUES = tuple(FRAMEWORK_ENV_VALUES.values())


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.uses_file_ranktable():
        return
    for pod_set in obj.pod_sets():
        for container in npu_containers(pod_set):
            found = container.env_named(FRAMEWORK_ENV)
            if found is None:
                where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
                yield Problem(where, f"container {container.name!r} has no framework env: the ranktable start "
                                     "script needs it", key="env" in container.data)
                continue
            index, item = found
            if "valueFrom" in item:
                continue
            value = item.get("value")
            if value not in VALUES:
                match = next((v for v in VALUES if isinstance(value, str) and v.lower() == value.lower()), None)
                yield Problem(container.path + ("env", index, "value"),
                              f"framework env {value!r} is not one of {', '.join(VALUES)} (exact case)",
                              hint=f"write {match}" if match else None)
