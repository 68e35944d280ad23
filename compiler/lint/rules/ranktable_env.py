"""A ranktable Volcano Job's NPU container lacks ``XDL_IP`` or ``POD_UID``.

**What.** In a Volcano Job that reads a file ranktable (labelled ``ring-controller.atlas``,
with several NPU pods or a ranktable volume), every container
requesting NPUs should set ``XDL_IP`` (fieldRef ``status.hostIP``) and
``POD_UID`` (fieldRef ``metadata.uid``).

**Why.** The upstream start scripts (``train_start.sh``, ``utils.sh``, ``rank_table.sh``)
find the pod's own entry in ``hccl.json`` by these values (``server_id`` / ``host_ip``);
without them multi-node training cannot work out its rank. AscendJob pods get their rank
from operator-injected env instead. A convention of those scripts (custom scripts may not
need them), not of upstream's components, which accept and run the job: info.

**How to fix.** Add both env entries as in the samples.

Failing::

    env:
    - name: framework
      value: PyTorch

Passing::

    env:
    - name: XDL_IP
      valueFrom: {fieldRef: {fieldPath: status.hostIP}}
    - name: POD_UID
      valueFrom: {fieldRef: {fieldPath: metadata.uid}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MD, Place
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import HOST_IP_FIELD, POD_UID_ENV, POD_UID_FIELD, XDL_IP_ENV
from ..rule import Problem
from ._util import npu_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("", "samples/train/basic-training/ranktable/train_start.sh", MD,
                    also=(Place("", "samples/train/basic-training/ranktable/utils.sh and rank_table.sh", MD),))

REQUIRED = ((XDL_IP_ENV, HOST_IP_FIELD), (POD_UID_ENV, POD_UID_FIELD))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.uses_file_ranktable():
        return
    for pod_set in obj.pod_sets():
        for container in npu_containers(pod_set):
            missing = [name for name, _ in REQUIRED if container.env_named(name) is None]
            if missing:
                where = container.path + ("env",) if "env" in container.data else container.path + ("name",)
                yield Problem(where, f"container {container.name!r} has no {' or '.join(missing)} env: the "
                                     "ranktable start scripts need it", key="env" in container.data)
