"""Pods of a distributed job do not take whole nodes (convention on 8- and 16-NPU servers).

**What.** In a job of several pods on a profile that lists
``npusPerPod.multiPodRecommended`` (Atlas 800 910, 910B module-8/16, A3),
each NPU pod should request a whole node (8 or 16). Reported only where the
job's total can be split into whole nodes: two pods of 2 NPUs on 8-NPU
servers (upstream's multi-node 910B inference sample) have no whole-node
layout of more than one pod, so nothing is said.

**Why.** The scheduler accepts partial nodes, but the upstream samples ("The
number of NPUs in the requests field is 8 in an N-node scenario") and graceful
fault tolerance assume whole nodes; partial nodes fragment the cluster and slow
HCCL across servers. A convention, so |severity|.

**How to fix.** Use fewer pods with a whole node each, or suppress with a reason.

Failing::

    Worker:
      replicas: 4
      ...  requests: {huawei.com/Ascend910: 4}   # on module-910b-8

Passing::

    Worker:
      replicas: 2
      ...  requests: {huawei.com/Ascend910: 8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MD
from ...catalogue import NOT_FULL_NODE
from ...releases import PLUGIN_STACKS
from ..rule import Problem
from ._util import npu_request_path
from .npu_count import pod_set_violations

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("", "samples/train/basic-training/ranktable/yaml (request comments)", MD)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, violation in pod_set_violations(obj, run, NOT_FULL_NODE):
        yield Problem(npu_request_path(pod_set), f"{pod_set.role}: {violation.message}")
