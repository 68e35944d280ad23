"""A container requests more than one ``huawei.com/*`` NPU resource.

**What.** A container should request one NPU resource type only
(``huawei.com/Ascend910`` *or* ``huawei.com/npu`` ...).

**Why.** ascend-operator and the Volcano plugin read only the *first* resource
containing ``huawei.com/`` (map order, so effectively random), and
``ASCEND_VISIBLE_DEVICES`` can name only one annotation; the other request is
ignored by the scheduling rules but still consumed. The job is accepted and
runs, not as intended: a warning.

HAMi's vNPU companions of the resource (``huawei.com/Ascend910B3-memory``,
``-core`` beside ``huawei.com/Ascend910B3``) are part of one request for
HAMi's device plugin, not a second resource, and are not reported here
(AC316 says that MindCluster's nodes offer no such resource).

**How to fix.** Keep one NPU resource per container.

Failing::

    requests: {huawei.com/Ascend910: 8, huawei.com/Ascend310P: 1}

Passing::

    requests: {huawei.com/Ascend910: 8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, OP, PL, Place
from ..rule import Problem
from ...manifest.values import hami_companions

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("getContainerResourceReq", OP + "utils.go", MC,
                    also=(Place("GetVCJobReqNPUTypeFromJobInfo", PL + "plugin/job.go", MC),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for container in pod_set.containers():
            for section in ("requests", "limits"):
                amounts = container.npu_amounts(section)
                if len(amounts) < 2:
                    continue
                companions = hami_companions(amounts)
                names = [name for name in amounts if name not in companions]
                for extra in names[1:]:
                    yield Problem(container.path + ("resources", section, extra),
                                  f"container {container.name!r} {section} a second NPU resource {extra} "
                                  f"(besides {names[0]}); only the first is scheduled", key=True)
