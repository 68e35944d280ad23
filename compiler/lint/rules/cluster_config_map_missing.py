"""A pod mounts a ConfigMap that does not exist in the job's namespace of the cluster.

**What.** With ``--cluster`` or ``--cluster-snapshot``: a ``configMap`` volume
(or a ``projected`` volume's ``configMap`` source) names a ConfigMap the
object's namespace does not have, and does not say ``optional: true`` (an
object that names no namespace lands in ``-n``, else the context's namespace,
else ``default``, as the live read or the snapshot records it). The
ranktable and reset ConfigMaps (``rings-config-<job>``, ``reset-config-<job>``)
are left to AC501 and AC505, which look for them beside the job; so is a
ConfigMap the same lint run defines.

**Why.** The kubelet does not start a container whose ConfigMap volume is
missing: the pod is placed and stays ``ContainerCreating`` (FailedMount) for
ever. (The simulated cluster's kwok nodes mount nothing, so it cannot show
this; the rule follows what a kubelet does.)

**How to fix.** Create the ConfigMap first (apply it with the job), mount one
the namespace has, or mark the volume ``optional: true`` if the pods can do
without it.

Failing::

    volumes:
    - name: config
      configMap: {name: train-config}     # not in the namespace

Passing::

    volumes:
    - name: config
      configMap: {name: train-config, optional: true}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Tuple

from ...catalogue.citations import Citation, K8S
from ...findings import Path
from ...manifest.values import as_dict, as_list
from ...vocabulary import RANKTABLE_CONFIGMAP_PREFIX, RESET_CONFIGMAP_PREFIX
from ..rule import Problem
from ._cluster import inventory, names

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "configmap \"%s\" not found")


def facts(obj: ObjectContext) -> Any:
    """The object's own namespace (None: it names none) and (role, path, name) of each ConfigMap the pods need;
    None when they need none."""
    needed = [(pod_set.role, pod_set.spec_path + ("volumes", i) + path, name)
              for pod_set in obj.pod_sets() for i, volume in pod_set.volumes() for path, name in _config_maps(volume)
              if not name.startswith((RANKTABLE_CONFIGMAP_PREFIX, RESET_CONFIGMAP_PREFIX))]
    return (obj.namespace, needed) if needed else None


def _config_maps(volume: Dict[str, Any]) -> List[Tuple[Path, str]]:
    out: List[Tuple[Path, str]] = []
    sources: List[Tuple[Path, Dict[str, Any]]] = [(("configMap",), as_dict(volume.get("configMap")))] \
        if "configMap" in volume else []
    for j, source in enumerate(as_list(as_dict(volume.get("projected")).get("sources"))):
        if isinstance(source, dict) and "configMap" in source:
            sources.append((("projected", "sources", j, "configMap"), as_dict(source.get("configMap"))))
    for path, ref in sources:
        name = ref.get("name")
        if isinstance(name, str) and name and ref.get("optional") is not True:
            out.append((path + ("name",), name))
    return out


def judge(ref: Any, fact: Any, run: Any) -> Iterator[Problem]:
    inv = inventory(run)
    own, needed = fact
    namespace = inv.namespace_of(own) if inv is not None else None
    if inv is None or namespace is None or inv.has_config_map(namespace, "") is None:
        return
    for role, path, name in needed:
        if inv.has_config_map(namespace, name) is False and not run.find("ConfigMap", name, own):
            have = sorted((inv.config_maps or {}).get(namespace, ()))
            yield Problem(path, f"{role}: ConfigMap {name!r} does not exist in namespace {namespace!r} (its "
                          f"ConfigMaps: {names(have)}) and this run does not define it: the pods never start")
