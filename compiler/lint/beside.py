"""Objects in YAML files beside the linted ones: found by reading the few files that can hold them.

pre-commit lints only the changed files, so a job's ranktable ConfigMap may sit in an unchanged
file in the same folder.  Reading and parsing every YAML file of that folder made one changed file in
a folder of 2,000 seventeen times slower than the file alone; here a lookup reads:

1. the files whose *name* contains the object's name (``rings-config-resnet.yaml``, ``resnet.yaml``),
   parsed first, since that is where people put it;
2. then the bytes of the other files, once per folder, and parses only those that contain the
   object's name (or a backslash: a double-quoted YAML string can spell a name with escapes).

A file of the run itself is never read again (compared by what the path resolves to: a symlink to a
linted file is the linted file).  Files that cannot be read or parsed are skipped: they are not part
of the run, so their problems are not this run's to report; a file linked out of its repository
(``cm.yaml -> ~/.kube/config``) is not read at all.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

_SUFFIXES = (".yaml", ".yml")


class Beside:
    """Lookups of objects beside the files of one run (each folder listed and read at most once)."""

    def __init__(self, linted: Sequence[str], max_bytes: int):
        self._linted_names: Optional[Set[str]] = None  # made on the first lookup: most runs make none
        self._linted_ids: Optional[Set[Tuple[int, int]]] = None
        self._linted = list(linted)
        self._max_bytes = max_bytes
        self._listing: Dict[str, List[str]] = {}
        self._bytes: Dict[str, Optional[bytes]] = {}
        self._objects: Dict[str, List[Dict[str, Any]]] = {}

    def exists(self, kind: str, name: str, namespace: Optional[str], source: str) -> bool:
        if not _is_path(source) or not os.path.isfile(source):
            return False
        files = self._files(os.path.dirname(os.path.abspath(source)))
        by_name = [path for path in files if name and name in os.path.basename(path)]
        if any(_defines(self._parsed(path), kind, name, namespace) for path in by_name):
            return True
        needle = name.encode("utf-8", "surrogatepass")
        for path in files:
            if path in by_name:
                continue
            data = self._read(path)
            if data is not None and (needle in data or b"\\" in data) \
                    and _defines(self._parsed(path), kind, name, namespace):
                return True
        return False

    def _files(self, directory: str) -> List[str]:
        """The YAML files of ``directory`` that this run does not lint, sorted by name."""
        if directory not in self._listing:
            try:
                with os.scandir(directory) as entries:
                    found = sorted(entry.path for entry in entries
                                   if entry.name.endswith(_SUFFIXES) and _is_file(entry))
            except OSError:
                found = []
            if self._linted_names is None:
                self._linted_names = {os.path.abspath(source) for source in self._linted if _is_path(source)}
            self._listing[directory] = [path for path in found if path not in self._linted_names]
        return self._listing[directory]

    def _read(self, path: str) -> Optional[bytes]:
        if path not in self._bytes:
            self._bytes[path] = _read_bytes(path, self._max_bytes)
        return self._bytes[path]

    def _parsed(self, path: str) -> List[Dict[str, Any]]:
        if path not in self._objects:
            self._objects[path] = [] if self._is_linted(path) else _load(path, self._max_bytes)
            self._bytes.pop(path, None)
        return self._objects[path]

    def _is_linted(self, path: str) -> bool:
        if self._linted_ids is None:
            self._linted_ids = {ident for ident in map(_identity, self._linted) if ident is not None}
        return _identity(path) in self._linted_ids


def _defines(objects: List[Dict[str, Any]], kind: str, name: str, namespace: Optional[str]) -> bool:
    return any(data.get("kind") == kind and isinstance(data.get("metadata"), dict)
               and data["metadata"].get("name") == name
               and (namespace is None or data["metadata"].get("namespace") in (None, namespace))
               for data in objects)


def _load(path: str, max_bytes: int) -> List[Dict[str, Any]]:
    from ..errors import InputError
    from ..yamlio.parsing import iter_documents
    from ..yamlio.reading import read_text

    try:
        return [doc.data for doc in iter_documents(read_text(path, max_bytes), path) if isinstance(doc.data, dict)]
    except InputError:
        return []


def _read_bytes(path: str, max_bytes: int) -> Optional[bytes]:
    """The file's bytes (None when it is no regular file, unreadable or over the limit: a file beside a linted one
    linked to ``/dev/stdin`` or a FIFO is skipped, not read; so is one linked out of its repository, as
    :func:`_load` finds it refused)."""
    from ..safeio.inside import outside_link
    from ..safeio.read import read_regular_bytes

    return None if outside_link(path) else read_regular_bytes(path, max_bytes, follow=True)[0]


def _is_file(entry: os.DirEntry) -> bool:  # type: ignore[type-arg]
    try:
        return entry.is_file()
    except OSError:
        return False


def _identity(path: str) -> Optional[Tuple[int, int]]:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _is_path(source: str) -> bool:
    return bool(source) and not source.startswith("<") and source != "-"
