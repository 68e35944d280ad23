"""A pod template of an NPU job sets ``nodeName``: its pods are bound at creation and get no NPUs.

**What.** A pod template that Volcano should place (a job's, or one that says
``schedulerName: volcano``) and that requests NPUs sets ``spec.nodeName``.
This is |severity|.

**Why.** A pod created with ``spec.nodeName`` is bound from the start: the
kubelet of that node runs it, and no scheduler places it. Volcano counts such a
pod as already bound, never pending (a Pending pod with a node name counts as
``Bound``), so its allocation, and with it the Ascend plugin that picks the NPUs
and writes them into the pod's device annotation (``huawei.com/Ascend910:
Ascend910-0,...``), never runs. On the simulated cluster an AscendJob whose
Master and Worker name two module-910b-8 nodes shows Running, with both pods
Running and no device annotation: the containers see no NPU (``ascend-compile
why`` says "running without NPUs"). To choose nodes, select them instead.

**How to fix.** Remove ``nodeName``; select the nodes with ``nodeSelector``
(``kubernetes.io/hostname: <node>`` for one node) or node affinity, which the
scheduler honours while it picks the NPUs.

Failing::

    spec:
      nodeName: node-7
      containers:
      - name: ascend
        resources:
          limits: {huawei.com/Ascend910: 8}

Passing::

    spec:
      nodeSelector:
        kubernetes.io/hostname: node-7
      containers:
      - name: ascend
        resources:
          limits: {huawei.com/Ascend910: 8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, VC
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("getTaskStatus", "pkg/scheduler/api/helpers.go", VC)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.npu_pod_sets():
        node = pod_set.spec.get("nodeName")
        if node and obj.volcano_places(pod_set):
            yield Problem(pod_set.spec_path + ("nodeName",),
                          f"{pod_set.role} names nodeName {node!r}: its pods are bound at creation, so the scheduler "
                          "never places them and assigns them no NPUs (they run without the device annotation)")
