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

from ..safeio.inside import repository_root

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
    """The real paths of the files ``kustomization`` merges or reads as data, and of those it lists as resources.

    Only paths in or below the kustomization's own folder count, once links are followed: kustomize refuses
    any other file (``../manifests/job.yaml``, ``/etc/x.yaml``, a link out of the folder), so a kustomization
    elsewhere cannot make discovery leave a manifest out.
    """
    content = _load(kustomization)
    if not isinstance(content, dict):
        return set(), set()
    folder = os.path.dirname(kustomization) or "."
    inside = os.path.realpath(folder)
    found = {real for field, keys in _PART_FIELDS.items() for path in _paths(content.get(field), keys)
             for real in [_real(folder, path)] if _below(real, inside)}
    return found, {_real(folder, path) for path in _paths(content.get("resources"), ("",))}


def _load(path: str) -> Any:
    import yaml

    from ..errors import InputError
    from ..yamlio.reading import read_text

    try:  # bounded, and never waiting on a FIFO
        return yaml.load(read_text(path, _MAX_BYTES), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (InputError, yaml.YAMLError, RecursionError):
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


def _below(real: str, folder: str) -> bool:
    return real.startswith(folder.rstrip(os.sep) + os.sep)


class Kustomizations:
    """The kustomizations met so far, and the files they merge into objects (see :mod:`.kustomize`)."""

    def __init__(self) -> None:
        self.parts: Dict[str, str] = {}  # real path of a part -> the kustomization that lists it (first met)
        self.objects: Set[str] = set()  # real paths of the files the kustomizations list as resources
        self._read: Set[str] = set()  # real paths of the folders looked at
        self._upward: Set[str] = set()  # absolute paths of the folders whose folders above were looked at
        self.walked_files: List[str] = []  # the kustomization files a walk met (and did not read as objects)

    def read_upward(self, folder: str) -> None:
        """Read the kustomizations of ``folder`` and of the folders above it up to its repository's root: one of
        them may list a file below it (a patch in ``overlays/prod/patches/``); kustomize reads no file outside its
        kustomization's folder.  Never above the root config discovery finds (a folder above the repository is
        not the project's), and without a root, ``folder``'s own only."""
        self.read_folder(folder)
        for above in dict.fromkeys((os.path.abspath(folder), os.path.realpath(folder))):
            root = repository_root(above)
            while root is not None and above != root and above not in self._upward \
                    and os.path.dirname(above) != above:
                self._upward.add(above)
                above = os.path.dirname(above)
                self.read_folder(above if os.path.isabs(folder) else os.path.relpath(above))

    def read_folder(self, folder: str, names: Any = None) -> None:
        real = os.path.realpath(folder)
        if real in self._read:
            return
        self._read.add(real)
        path = kustomization_in(folder, names)
        found, objects = listed(path) if path else (set(), set())
        for part in sorted(found):
            self.parts.setdefault(part, path)
        self.objects |= objects

    def merged_in(self) -> Dict[str, str]:
        """Real path of a part -> the kustomization that lists it; a file any kustomization lists as a resource is
        a whole object, not a part."""
        return {part: path for part, path in self.parts.items() if part not in self.objects}
