"""The pods name a PriorityClass the cluster does not have.

**What.** With ``--cluster`` or ``--cluster-snapshot``: a pod template's
``priorityClassName``, or a Volcano Job's ``spec.priorityClassName`` (which its
controller gives every pod whose template names none), is not among the
cluster's PriorityClasses. ``system-cluster-critical`` and
``system-node-critical`` exist on every cluster.

**Why.** The API server's priority admission refuses every pod that names a
PriorityClass it cannot find: the job's controller never gets a pod created, and the job never runs.

**How to fix.** Name a PriorityClass the cluster has (``kubectl get
priorityclasses``), have it created first, or leave ``priorityClassName`` out.

Failing::

    spec:
      priorityClassName: high-priority     # the cluster has: low, normal

Passing::

    spec:
      priorityClassName: normal
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import K8S, VC, Citation, Place
from ...vocabulary import VOLCANO_JOB
from ..rule import Problem
from ._cluster import inventory, names, where

if TYPE_CHECKING:
    from ...inventory.model import Inventory
    from ..context import ObjectContext, RunContext


CITATION = Citation("Admit", "plugin/pkg/admission/priority/admission.go", K8S, "no PriorityClass with name %v was found",
                    also=(Place("createJobPod", "pkg/controllers/job/job_controller_util.go", VC),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.priority_classes is None:
        return
    pod_sets = [p for p in obj.pod_sets() if p.replicas > 0]
    for pod_set in pod_sets:
        name = pod_set.spec.get("priorityClassName")
        if isinstance(name, str) and name and not inv.has_priority_class(name):
            yield Problem(pod_set.spec_path + ("priorityClassName",), f"{pod_set.role}: {_missing(inv, name)}")
    name = obj.spec.get("priorityClassName") if obj.kind == VOLCANO_JOB else None
    if isinstance(name, str) and name and not inv.has_priority_class(name) and any(
            not p.spec.get("priorityClassName") for p in pod_sets):
        yield Problem(("spec", "priorityClassName"), f"the job's pods (those whose template names none): "
                      f"{_missing(inv, name)}")


def _missing(inv: Inventory, name: str) -> str:
    return (f"PriorityClass {name!r} does not exist in {where(inv)} (its PriorityClasses: "
            f"{names(sorted(inv.priority_classes or ()))}): the API server refuses every pod, the job never runs")
