"""A ranktable Volcano Job runs a ``train_start.sh`` with a ``framework`` env no start script accepts, or without one.

**What.** In a Volcano Job that reads a file ranktable (labelled ``ring-controller.atlas``,
with several NPU pods or a ranktable volume) and asks for more than one NPU in all, a
container that requests NPUs and runs a file named ``train_start.sh``:

- with env ``framework`` set to anything but exactly ``PyTorch``, ``MindSpore`` or
  ``Tensorflow`` (e.g. ``pytorch``): |severity|;
- without env ``framework``: info.

Containers that run anything else are not reported: the variable is read by some of
upstream's sample start scripts only; no MindCluster component reads an env of that name
(ascend-operator reads the ``framework`` *label* of an AscendJob, not an env).

**Why.** A manifest names its script by a file name only, so lint cannot know which
script, or which revision of it, runs. Upstream's sample start scripts that read the
variable (the basic-training ranktable ``train_start.sh`` in every revision since 2023, and
its PyTorch fault-rescheduling and fault-tolerance copies) compare it case-sensitively
against those three spellings and, on any other value, log an error and end without
training; a value set but misspelt matters only to such a script, and every script that
reads it rejects it: a warning. Those scripts also exit 1 ("framework is null") when the
variable is missing and the ranktable lists more than one device, but upstream's MindSpore
fault-rescheduling and fault-tolerance samples run a script of the same name that never
reads it (their Volcano Jobs set no ``framework`` env): a missing variable is therefore
only a note that says what happens if the script is the basic-training one. The simulated
cluster runs no container command.

**How to fix.** Spell it as the script compares it (``PyTorch``, ``MindSpore`` or
``Tensorflow``); if the container runs upstream's basic-training ranktable script, set it
to the framework of the image.

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

from ...catalogue.citations import Citation, MC, MD, Place
from ...findings import INFO
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import FRAMEWORK_ENV, FRAMEWORK_ENV_VALUES, START_SCRIPT
from ..rule import Problem
from ._util import command_text, npu_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("", "samples/train/basic-training/ranktable/train_start.sh (framework null check and the case-sensitive "
                        "comparisons; every revision 2023-06 to 2026-05, blob 73b10192 on branch_v6.0.0 to branch_v26.0.0)",
                    MD,
                    also=(Place("", "samples/train/resumable-training/fault-rescheduling/withRanktable/pytorch/*/"
                                    "train_start.sh (reads framework)", MD),
                          Place("", "samples/train/resumable-training/fault-rescheduling/withRanktable/mindspore/*/"
                                    "train_start.sh (does not read framework)", MD),
                          Place("", "samples/train/resumable-training/fault-tolerance/ranktable/mindspore/*/"
                                    "train_start.sh (does not read framework)", MD),
                          Place("GetJobFramework", "component/ascend-operator/pkg/api/v1/defaults.go", MC)))

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
                yield Problem(where, f"container {container.name!r} runs {START_SCRIPT} without env framework: if "
                                     f"that is upstream's basic-training ranktable {START_SCRIPT} (or one of its "
                                     "PyTorch resumable-training copies), it exits 1 (\"framework is null\") on a "
                                     "ranktable of more than one device; upstream's MindSpore resumable-training "
                                     "scripts of that name do not read it",
                              key="env" in container.data, severity=INFO,
                              hint=f"if the script reads it, set env framework to one of {', '.join(VALUES)}")
                continue
            index, item = found
            if "valueFrom" in item:
                continue
            value = item.get("value")
            if value not in VALUES:
                match = next((v for v in VALUES if isinstance(value, str) and v.lower() == value.lower()), None)
                yield Problem(container.path + ("env", index, "value"),
                              f"env framework {value!r} is not one of {', '.join(VALUES)} (exact case): upstream's "
                              f"sample start scripts that read it (the basic-training ranktable {START_SCRIPT} "
                              "and its PyTorch copies) compare it exactly, log \"framework error\" and end "
                              "without training",
                              hint=f"write {match}" if match else None)
