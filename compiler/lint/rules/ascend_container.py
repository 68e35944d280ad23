"""An AscendJob replica has no container named ``ascend``, or it has no image.

**What.** Each replica's pod template needs at least one container, one of
them named exactly ``ascend``, with a non-empty ``image``.

**Why.** ascend-operator injects its environment into, and reads the NPU request
from, the container named ``ascend``; it refuses the job without it, and a
replica without containers or an ``ascend`` container without an image (reasons
``InvalidReplicaSpec``/``InvalidContainer``).


**How to fix.** Rename the training container to ``ascend`` and give it an image.

Failing::

    containers:
    - name: pytorch
      image: my/train:1.0

Passing::

    containers:
    - name: ascend
      image: my/train:1.0
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, Place, REFUSED, VAL
from ...vocabulary import CONTAINER_NAME
from ..rule import Problem
from ._release import operator_refusal
from ._util import ascend_container

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateContainer", VAL, MC, "... There is no container named ascend",
                    also=(*REFUSED, Place("validContainerNum", VAL, MC),
                          Place("", "component/ascend-common/api/default_name.go", MC)))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        containers = pod_set.containers()
        if not containers:
            yield Problem(pod_set.spec_path + ("containers",),
                          f"{pod_set.role} replicaSpec has no containers", key=True)
            continue
        container = ascend_container(pod_set)
        if container is None:
            names = ", ".join(repr(c.name) for c in containers)
            yield Problem(containers[0].path + ("name",),
                          f"{pod_set.role} replicaSpec has no container named {CONTAINER_NAME} "
                          f"(found {names}): {operator_refusal(run)}")
            continue
        image = container.data.get("image")
        if not isinstance(image, str) or not image.strip():
            yield Problem(container.path + ("image",),
                          f"the {CONTAINER_NAME} container of {pod_set.role} has no image",
                          key="image" in container.data)
