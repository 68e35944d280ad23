"""What a kustomization says about the files beside it: which are parts of objects, not objects.

A folder that kustomize builds holds three sorts of YAML: its kustomization file (kustomize's build
file: no object to apply), whole objects (``resources:``), and parts that kustomize merges into them
(``patches:`` and the other fields of :data:`_PART_FIELDS`).  A patch names an object and a few of its
fields; linted as a whole object it would be missing everything it leaves to the base.  File discovery
asks this module which files to leave out of a run, and names the kustomization that says so.
"""
from __future__ import annotations

import os
from typing import Any, Dict, Iterator, List, Set, Tuple

#: the names kustomize looks for in a folder, in its order
KUSTOMIZATION_FILES = ("kustomization.yaml", "kustomization.yml", "Kustomization")

#: kustomization fields whose entries name files that are parts of objects or data, not objects:
#: field -> the keys of an entry that hold a path ("" when the entry is the path itself)
_PART_FIELDS: Dict[str, Tuple[str, ...]] = {
    "patches": ("path",),
    "patchesStrategicMerge": ("",),
    "patchesJson6902": ("path",),
    "replacements": ("path",),
    "configMapGenerator": ("files", "envs", "env"),
    "secretGenerator": ("files", "envs", "env"),
    "helmCharts": ("valuesFile", "additionalValuesFiles"),
    "configurations": ("",),  # transformer configurations (kubebuilder's kustomizeconfig.yaml): no objects
    "openapi": ("path",),  # a schema of the kinds kustomize merges
}
#: the most of a kustomization file read (a larger one is not a kustomization anyone writes by hand)
_MAX_BYTES = 1 << 20


def kustomization_in(folder: str, names: Any = None) -> str:
    """The path of ``folder``'s kustomization file, or "" (``names``: the folder's entry names, when listed)."""
    for name in KUSTOMIZATION_FILES:
        if names is not None:
            if name in names:
                return os.path.join(folder, name)
        elif os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return ""


def parts(kustomization: str) -> List[str]:
    """The real paths of the files ``kustomization`` merges or reads as data, sorted; none when it cannot be read.

    A file it also lists under ``resources:`` is an object, and not among them.
    """
    found, objects = listed(kustomization)
    return sorted(found - objects)


def listed(kustomization: str) -> Tuple[Set[str], Set[str]]:
    """The real paths of the files ``kustomization`` merges or reads as data, and of those it lists as resources."""
    content = _load(kustomization)
    if not isinstance(content, dict):
        return set(), set()
    folder = os.path.dirname(kustomization) or "."
    found = {_real(folder, path) for field, keys in _PART_FIELDS.items()
             for path in _paths(content.get(field), keys)}
    return found, {_real(folder, path) for path in _paths(content.get("resources"), ("",))}


def _load(path: str) -> Any:
    import yaml

    try:
        with open(path, "rb") as handle:
            data = handle.read(_MAX_BYTES + 1)
        if len(data) > _MAX_BYTES:
            return None
        return yaml.load(data.decode("utf-8"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, UnicodeDecodeError, yaml.YAMLError, RecursionError):
        return None


def _paths(entries: Any, keys: Tuple[str, ...]) -> Iterator[str]:
    """The file paths among a field's entries (inline patches, URLs and odd values are not paths)."""
    if isinstance(entries, (str, dict)):
        entries = [entries]
    if not isinstance(entries, list):
        return
    for entry in entries:
        for key in keys:
            value = entry if key == "" else entry.get(key) if isinstance(entry, dict) else None
            for path in value if isinstance(value, list) else [value]:
                if isinstance(path, str) and path and "\n" not in path and "://" not in path:
                    yield path.split("=", 1)[1] if "=" in path and key == "files" else path


def _real(folder: str, path: str) -> str:
    return os.path.realpath(os.path.join(folder, path))
