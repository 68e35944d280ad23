"""A volume names a ConfigMap or Secret the files do not define, next to one they define under a similar name.

**What.** A pod's non-optional ``configMap`` / ``secret`` volume (or projected source) names an
object that neither the linted files nor the YAML files beside the job's file define, while the
job's own file defines one of the same kind that is evidently this job's (its name ends with
``-<job name>``), that no volume of the job uses, and whose name differs from the named one only
after a common prefix (job ``mindie-b``: ``server-config-mindie-a`` named,
``server-config-mindie-b`` defined). A name the files do not define and that resembles none of
the job's is not reported: it may exist in the cluster. The ranktable ConfigMap
``rings-config-<job>`` is AC503's.

**Why.** The kubelet cannot mount a ConfigMap or Secret that does not exist unless the volume is
``optional: true``: the pod stays in ``ContainerCreating`` ("FailedMount ... not found") and the
job never starts. The files evidently carry the job's ConfigMaps, and the one they carry is not
the one the pod asks for: most likely a job renamed in one place only. Whether the named one
exists in the cluster lint cannot see: a warning.

**How to fix.** Name the object the files define (or define the one named), or mark the volume
``optional: true`` if the pod can run without it.

Failing::

    kind: ConfigMap
    metadata: {name: server-config-mindie-b}
    ---
    kind: Deployment
    metadata: {name: mindie-b}
    ...
    volumes:
    - name: server-config
      configMap: {name: server-config-mindie-a}

Passing::

    volumes:
    - name: server-config
      configMap: {name: server-config-mindie-b}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple

from ...catalogue.citations import Citation, K8S, Place
from ...manifest.values import as_dict, as_list
from ...vocabulary import CONFIG_MAP, RANKTABLE_CONFIGMAP_PREFIX
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef
    from ...findings import Path

CITATION = Citation("SetUpAt", "pkg/volume/configmap/configmap.go", K8S, "Couldn't get configMap %v/%v: %v",
                    also=(Place("SetUpAt", "pkg/volume/secret/secret.go", K8S),))

SECRET = "Secret"
#: the shortest shared prefix that makes two names alike ("a-" is not enough)
_MIN_PREFIX = 4


def _named(source: Dict[str, Any], kind: str) -> Tuple[Optional[str], bool]:
    """(the name a volume or projected source gives, whether it is optional)."""
    name = source.get("name") if kind == CONFIG_MAP else source.get("secretName", source.get("name"))
    return (name if isinstance(name, str) and name else None), source.get("optional") is True


def facts(obj: ObjectContext) -> Any:
    """((path, kind, name) of each required ConfigMap/Secret a volume names, every name the volumes give); None."""
    required: List[Tuple[Path, str, str]] = []
    used: List[str] = []
    for pod_set in obj.pod_sets():
        for i, volume in pod_set.volumes():
            base = pod_set.spec_path + ("volumes", i)
            places = [(base + ("configMap",), CONFIG_MAP, as_dict(volume.get("configMap"))),
                      (base + ("secret",), SECRET, as_dict(volume.get("secret")))]
            for j, item in enumerate(as_list(as_dict(volume.get("projected")).get("sources"))):
                item = as_dict(item)
                places += [(base + ("projected", "sources", j, "configMap"), CONFIG_MAP, as_dict(item.get("configMap"))),
                           (base + ("projected", "sources", j, "secret"), SECRET, as_dict(item.get("secret")))]
            for path, kind, source in places:
                name, optional = _named(source, kind)
                if name is None:
                    continue
                used.append(name)
                if not optional and not (kind == CONFIG_MAP and name.startswith(RANKTABLE_CONFIGMAP_PREFIX)):
                    key = "name" if kind == CONFIG_MAP else "secretName" if "secretName" in source else "name"
                    required.append((path + (key,), kind, name))
    return (required, used) if required else None


def _alike(named: str, defined: str) -> bool:
    """Whether two names differ only after a shared prefix that ends at a '-' (and is not too short)."""
    shared = 0
    for a, b in zip(named, defined):
        if a != b:
            break
        shared += 1
    cut = named.rfind("-", 0, shared + 1)
    return cut + 1 >= _MIN_PREFIX and named[cut + 1:] != defined[cut + 1:]


def judge(ref: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    required, used = fact
    for where, kind, name in required:
        if run.find(kind, name, ref.namespace, near=ref) or run.exists_beside(kind, name, ref.namespace, ref):
            continue
        others = [other.name for other in run.in_file(kind, ref)
                  if other.name.endswith("-" + ref.name) and other.name not in used and _alike(name, other.name)]
        if not others:
            continue
        yield Problem(where, f"the volume names {kind} {name}, which the files do not define, but this file defines "
                             f"{' and '.join(others)}: unless {name} exists in the cluster, the kubelet cannot mount it "
                             "and the pod stays in ContainerCreating")
