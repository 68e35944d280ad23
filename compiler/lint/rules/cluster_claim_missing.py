"""A pod mounts a PersistentVolumeClaim that does not exist in the job's namespace of the cluster.

**What.** With ``--cluster`` or ``--cluster-snapshot``: a volume's
``persistentVolumeClaim.claimName`` names no PVC of the object's namespace
(when the inventory read that namespace). An object that names no namespace
lands where ``kubectl`` puts it: ``-n``, else the context's namespace, else
``default``, as the live read or the snapshot records it.

**Why.** The scheduler's VolumeBinding step refuses to place a pod whose claim
is missing ("persistentvolumeclaim ... not found"), so the job stays Pending
(the simulated cluster shows it). Which claims exist is the cluster's, so
this rule runs only against a cluster inventory.

**How to fix.** Create the claim first (with the job, or ask the cluster's
administrator), or mount a claim the namespace has (the message lists them).

Failing::

    volumes:
    - name: output
      persistentVolumeClaim: {claimName: resnet50-output}   # not in the namespace

Passing::

    volumes:
    - name: output
      persistentVolumeClaim: {claimName: shared-output}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, K8S
from ...manifest.values import as_dict
from ..rule import Problem
from ._cluster import inventory, names

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("PreFilter", "pkg/scheduler/framework/plugins/volumebinding/volume_binding.go", K8S,
                    "persistentvolumeclaim \"%s\" not found")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    namespace = inv.namespace_of(obj.namespace) if inv is not None else None
    if inv is None or namespace is None or inv.has_claim(namespace, "") is None:
        return
    for pod_set in obj.pod_sets():
        for i, volume in pod_set.volumes():
            claim = as_dict(volume.get("persistentVolumeClaim")).get("claimName")
            if isinstance(claim, str) and claim and inv.has_claim(namespace, claim) is False:
                have = sorted((inv.claims or {}).get(namespace, ()))
                yield Problem(pod_set.spec_path + ("volumes", i, "persistentVolumeClaim", "claimName"),
                              f"{pod_set.role}: PersistentVolumeClaim {claim!r} does not exist in namespace "
                              f"{namespace!r} (its claims: {names(have)}): the pods are never placed")
