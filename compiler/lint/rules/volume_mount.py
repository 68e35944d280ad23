"""A container mounts a volume its pod does not define, or a pod defines a volume name twice.

**What.** Every ``volumeMounts[].name`` of a container (and init container)
must be the ``name`` of a volume in the same pod template's ``volumes``, and
each volume name appears once there.

**Why.** Kubernetes' pod validation refuses a pod whose mount names no volume,
or whose volumes share a name. For a Volcano Job the admission webhook validates
each task's pod template with that same validation and rejects the job; for an
AscendJob the operator's pod creation is refused by the API server every time,
so the job never gets pods.

**How to fix.** Add the volume to the pod template's ``volumes``, or fix the
mount's name.

Failing::

    containers:
    - name: ascend
      volumeMounts: [{name: data, mountPath: /data}]
    volumes:
    - {name: dataset, hostPath: {path: /data}}

Passing::

    containers:
    - name: ascend
      volumeMounts: [{name: dataset, mountPath: /data}]
    volumes:
    - {name: dataset, hostPath: {path: /data}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Any, Iterator, List, Optional, Set

from ...catalogue.citations import Citation, K8S, K8V, Place, VC, VCJ
from ...manifest.values import as_list
from ..rule import Problem
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import PodSet

CITATION = Citation("validateTaskTemplate", VCJ, VC, "spec.task[%d].template.spec.containers[%d].volumeMounts[%d].name: "
                                                      "Not found: \"%s\"; spec.volumes[%d].name: Duplicate value",
                    also=(Place("ValidateVolumeMounts", K8V, K8S),
                          Place("ValidatePodTemplate", K8V, K8S)))


def _duplicates(pod_set: PodSet) -> Iterator[Problem]:
    seen: Set[Optional[str]] = set()
    for i, volume in pod_set.volumes():
        name = volume.get("name")
        if isinstance(name, str) and name in seen:
            yield Problem(pod_set.spec_path + ("volumes", i, "name"),
                          f"the {pod_set.role} pods define volume {name!r} twice; Kubernetes refuses the pod")
        seen.add(name if isinstance(name, str) else None)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        names = pod_set.volume_names()
        if len(names) < len(pod_set.volumes()):  # a name twice, or one that is no string
            yield from _duplicates(pod_set)
        for where, container in pod_containers(pod_set):
            mounts = container.get("volumeMounts")
            if not mounts or _all_defined(mounts, names):
                continue  # most containers: every mount names a volume of the pod
            for m, mount in enumerate(as_list(mounts)):
                name = mount.get("name") if isinstance(mount, dict) else None
                if isinstance(name, str) and name not in names:
                    yield Problem(where + ("volumeMounts", m, "name"),
                                  f"container {container.get('name')!r} of {pod_set.role} mounts volume "
                                  f"{name!r}, which the pod template's volumes do not define")


def _all_defined(mounts: List[Any], names: AbstractSet[Any]) -> bool:
    """Whether every mount names one of ``names`` (one set test); False (look one by one) when a mount is odd."""
    try:
        return {mount["name"] for mount in mounts} <= names
    except (KeyError, TypeError):
        return False
