"""The job's ranktable ConfigMap is not in the job's namespace: in another one, or nowhere.

**What.** With ``--cluster`` or ``--cluster-snapshot``: a job that needs its
``rings-config-<job>`` ConfigMap (as AC501 says) lands in one namespace, and the
ConfigMap of that name is only in another: defined so in the linted files (an
object that names no namespace lands where the inventory says: ``-n``, else the
context's namespace, else ``default``), or only there in the cluster. Or the pods
mount it and it is nowhere: not in the job's namespace of the cluster, not in the
linted files, not in a YAML file beside the job's (AC501 then says nothing more).

**Why.** A pod mounts ConfigMaps of its own namespace only, and ascend-operator
looks the ConfigMap up in the job's namespace (it skips writing the ranktable
when it is not there): the pods wait in ``ContainerCreating`` for a ConfigMap
that never comes to their namespace. ascend-operator never creates the
ConfigMap either, so one that is nowhere stays missing. Offline, lint cannot tell
where an object that names no namespace lands, or what the cluster has, so AC501
takes it for a match or warns; the inventory knows.

**How to fix.** Put the ConfigMap in the job's namespace (give both the same
``metadata.namespace``), or apply both with the same ``-n``; if it is missing,
add it (``ascend-compile compile`` emits it) and apply it with the job.

Failing::

    kind: AscendJob
    metadata: {name: resnet, namespace: team}
    ---
    kind: ConfigMap
    metadata: {name: rings-config-resnet}   # lands in default

Passing::

    kind: ConfigMap
    metadata: {name: rings-config-resnet, namespace: team}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, List

from ...catalogue.citations import K8S, MC, OP, Citation, Place
from ...vocabulary import CONFIG_MAP, RANKTABLE_CONFIGMAP_PREFIX
from ..rule import Problem
from ._cluster import inventory, names, where
from . import ranktable_configmap

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef


CITATION = Citation("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "configmap \"%s\" not found",
                    also=(Place("getConfigmapFromApiserver", OP + "configmap.go", MC),))


def facts(obj: ObjectContext) -> Any:
    """Whether the job needs its ranktable ConfigMap, and where to say so: AC501's answer (the same question)."""
    return ranktable_configmap.facts(obj)


def judge(job: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    inv = inventory(run)
    home = inv.namespace_of(job.namespace) if inv is not None else None
    if inv is None or home is None:
        return
    wanted = RANKTABLE_CONFIGMAP_PREFIX + job.name
    if inv.has_config_map(home, wanted):
        return
    defined = run.find(CONFIG_MAP, wanted, None)
    if any(inv.namespace_of(ref.namespace) in (home, None) for ref in defined):
        return  # there, or where it lands is not known
    elsewhere = [f"{ref.source} puts it in {inv.namespace_of(ref.namespace)}" for ref in defined]
    if not elsewhere and inv.has_config_map(home, wanted) is False:
        spaces: List[str] = [ns for ns, found in sorted((inv.config_maps or {}).items()) if wanted in found]
        if spaces:
            elsewhere = [f"{where(inv)} has it in {names(spaces)}"]
    if elsewhere:
        yield Problem(fact[0], f"the job lands in namespace {home!r}, but its ranktable ConfigMap {wanted} is not "
                      f"there ({'; '.join(elsewhere)}): pods mount ConfigMaps of their own namespace only, so they "
                      "never start", key=fact[1])
    elif not fact[1] and inv.has_config_map(home, wanted) is False \
            and not run.exists_beside(CONFIG_MAP, wanted, job.namespace, job):
        yield Problem(fact[0], f"the pods mount the ranktable ConfigMap {wanted}, which is not in namespace {home!r} "
                      "of the cluster, nor among the linted files or beside the job's file, and ascend-operator "
                      "never creates it: the kubelet never starts the pods (FailedMount)")
