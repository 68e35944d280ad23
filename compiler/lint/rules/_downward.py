"""Kubernetes' checks of the downward API, for AC708: field and resource selectors, downwardAPI volume files.

Each check yields ``(path below the checked mapping, what is wrong, how to fix it)``; AC708's unit adds
who reads it (an env var, a volume file) and where.  The facts come from kubernetes
``pkg/apis/core/validation/validation.go`` (validateObjectFieldSelector, validateContainerResourceFieldSelector,
validateContainerResourceDivisor, validateDownwardAPIVolumeFile, ValidateLocalNonReservedPath) and
``pkg/apis/core/pods/helpers.go`` (ConvertDownwardAPIFieldLabel).
"""
from __future__ import annotations

import re
from decimal import Decimal
from typing import Any, Dict, FrozenSet, Iterator, List, Optional, Set, Tuple

from ...findings import Path
from ...manifest.quantity import canonical
from ._labels import KEY_FORM, key_problem

Found = Tuple[Path, str, str]

#: the plain paths env may read (validEnvDownwardAPIFieldPathExpressions; spec.host is the old name of
#: spec.nodeName, still converted)
ENV_FIELD_PATHS = frozenset({"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.host",
                             "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP",
                             "status.podIPs"})
#: the plain paths a downwardAPI volume file may read (validVolumeDownwardAPIFieldPathExpressions)
VOLUME_FIELD_PATHS = frozenset({"metadata.name", "metadata.namespace", "metadata.uid", "metadata.labels",
                                "metadata.annotations"})
#: the maps both may read one key of, as ``<map>['<key>']``
FIELD_MAPS = ("metadata.labels", "metadata.annotations")
#: what a resourceFieldRef may read, as Kubernetes lists it, and any hugepages size
RESOURCES = ("limits.cpu", "limits.memory", "limits.ephemeral-storage", "requests.cpu", "requests.memory",
             "requests.ephemeral-storage")
HUGEPAGES = ("requests.hugepages-", "limits.hugepages-")
_BYTES = ("1", "1k", "1M", "1G", "1T", "1P", "1E", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi", "1Ei")
#: the divisors each resource takes, as Kubernetes writes them back
DIVISORS: Dict[str, Tuple[str, ...]] = {"cpu": ("1m", "1"), "memory": _BYTES, "ephemeral-storage": _BYTES}
_FLOAT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)[eE][-+]?[0-9]+$")  # go-yaml's float, with an exponent


def split_subscript(path: str) -> Optional[Tuple[str, str]]:
    """``(map, key)`` of ``<map>['<key>']``, else None (fieldpath.SplitMaybeSubscriptedPath)."""
    if not path.endswith("']") or "['" not in path:
        return None
    head, key = path[:-2].split("['", 1)
    return (head, key) if head else None


def field_path_problem(path: str, plain: FrozenSet[str]) -> Optional[str]:
    """Why Kubernetes refuses ``path`` as a fieldRef's fieldPath where the ``plain`` paths are allowed: None when
    it takes it, "" when the path is not one it exposes there, else what is wrong with the key."""
    split = split_subscript(path)
    if split is None:
        return None if path in plain else ""
    head, key = split
    if head not in FIELD_MAPS:
        return ""
    kind = head.split(".")[1][:-1]  # label, annotation
    if key_problem(key, annotation=kind == "annotation") is None:
        return None
    return f"its {kind} key {key!r} is not a valid key ({KEY_FORM})"


def field_ref(ref: Dict[str, Any], plain: FrozenSet[str], reader: str) -> Iterator[Found]:
    """What Kubernetes refuses in a fieldRef that ``reader`` (env, a downwardAPI volume) reads."""
    version, path = ref.get("apiVersion") or "v1", ref.get("fieldPath")
    if path is None or path == "":
        yield ("fieldPath",), "has a fieldRef without a fieldPath", "name the pod field to read in fieldPath"
    elif isinstance(version, str) and version != "v1":
        yield (("apiVersion",), f"reads a fieldRef of apiVersion {version!r} (only v1 is served)",
               "write apiVersion: v1, or leave it out")
    elif isinstance(path, str):
        why = field_path_problem(path, plain)
        if why == "":
            yield (("fieldPath",), f"reads {path!r}, which is not exposed to {reader}",
                   f"use one of {', '.join(sorted(plain - {'spec.host'}))} or <map>['<key>'] of "
                   f"{' or '.join(FIELD_MAPS)} (single quotes)")
        elif why:
            yield ("fieldPath",), f"reads {path!r}: {why}", "write the key as it is on the pod"


def resource_ref(ref: Dict[str, Any], volume: bool) -> Iterator[Found]:
    """What Kubernetes refuses in a resourceFieldRef (a volume file's must name its container)."""
    resource = ref.get("resource")
    if volume and not ref.get("containerName"):
        yield (("containerName",), "has a resourceFieldRef without a containerName",
               "name the container whose resources the file shows")
    elif resource is None or resource == "":
        yield ("resource",), "has a resourceFieldRef without a resource", f"read one of {', '.join(RESOURCES)}"
    elif isinstance(resource, str) and resource not in RESOURCES and not resource.startswith(HUGEPAGES):
        yield (("resource",), f"reads the resource {resource!r}, which is not exposed",
               f"read one of {', '.join(RESOURCES)} (or requests./limits.hugepages-<size>)")
    divisor = ref.get("divisor")
    if divisor is None or not isinstance(resource, str):
        return
    allowed = (DIVISORS[resource.partition(".")[2]] if resource in RESOURCES
               else DIVISORS["memory"] if resource.startswith(HUGEPAGES) else None)
    texts = _written_back(divisor)
    if allowed is not None and texts and not any(text in allowed or text == "0" for text in texts):
        yield (("divisor",), f"divides {resource} by {divisor!r}, a divisor not taken for it",
               f"use a divisor of {', '.join(allowed)}")


def _written_back(divisor: Any) -> Set[str]:
    """How Kubernetes may write the divisor back: a plain ``1e3`` reaches it as the string "1e3" from one
    client, as the number 1000 from kubectl (whose YAML reader takes it for a float); either may be meant."""
    text = canonical(divisor)
    if text is None:
        return set()
    if isinstance(divisor, str) and _FLOAT.match(divisor.strip()):
        number = canonical(format(Decimal(divisor.strip()), "f"))
        return {text, number} if number is not None else {text}
    return {text}


def volume_file_path(path: Any) -> Optional[str]:
    """Why Kubernetes refuses ``path`` as a volume file's path (ValidateLocalNonReservedPath), or None."""
    if path is None or path == "":
        return "has no path"
    if not isinstance(path, str):
        return None
    if path.startswith("/"):
        return "has an absolute path"
    if ".." in path.split("/"):
        return "has a path with a '..' element"
    return "has a path that starts with '..'" if path.startswith("..") else None


def volume_files(volume: Dict[str, Any]) -> Iterator[Tuple[Path, Dict[str, Any]]]:
    """(path below the volume, item) of every downwardAPI file of a volume: a downwardAPI or projected one."""
    holders: List[Tuple[Path, Any]] = [(("downwardAPI",), volume.get("downwardAPI"))]
    projected = volume.get("projected")
    if isinstance(projected, dict) and isinstance(projected.get("sources"), list):
        holders += [(("projected", "sources", i, "downwardAPI"), s.get("downwardAPI"))
                    for i, s in enumerate(projected["sources"]) if isinstance(s, dict)]
    for below, holder in holders:
        items = holder.get("items") if isinstance(holder, dict) else None
        for number, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, dict):
                yield below + ("items", number), item


def volume_file(item: Dict[str, Any]) -> Iterator[Found]:
    """What Kubernetes refuses in one downwardAPI volume file."""
    why = volume_file_path(item.get("path"))
    if why:
        yield ("path",), why, "give a relative path inside the volume, without '..'"
    field, resource = item.get("fieldRef"), item.get("resourceFieldRef")
    if field is not None and resource is not None:
        yield (), "has both a fieldRef and a resourceFieldRef", "keep one of them (one file per field)"
    elif field is None and resource is None:
        yield (), "has neither a fieldRef nor a resourceFieldRef", "say which field or resource the file shows"
    if isinstance(field, dict):
        for below, message, hint in field_ref(field, VOLUME_FIELD_PATHS, "a downwardAPI volume"):
            yield ("fieldRef",) + below, message, hint
    elif field is None and isinstance(resource, dict):
        for below, message, hint in resource_ref(resource, volume=True):
            yield ("resourceFieldRef",) + below, message, hint
