"""The lint result cache (like ruff's): a file whose text has not changed is not parsed or checked again.

What is stored, for each file text (by its digest), is the file's :class:`~.results.FileResult`:
everything that depends on that text alone.  Cross-object rules are judged again on every run, from
the stored facts and refs of every file, and the files beside a job are read again when a rule
looks there; so a result never depends on another file's old content.  Everything else a result
depends on is in the cache's key (:func:`~.fingerprint.settings_digest`): the tool's version and
code, its schemas, the hardware profiles, the project config and the options.  A new key starts an
empty cache; a version never reads another version's entries.

Layout: ``<root>/lint/<version>-<key>/<shard>.cache``, 64 shards by digest, so that a run over one changed file
reads and writes one small shard.  Each shard is a :mod:`marshal` dump of plain data (loading it
runs no code); anything unexpected in it, a directory that other users may write, or any error
reading or writing makes the cache step aside: the run is the same, only slower.  The directory
is safe to delete at any time; a run that writes to it removes the directories other versions have
not written to for a week (:func:`~ascend_compile.datacache.prune_other_versions`).
"""
from __future__ import annotations

import marshal
import os
import time
from typing import Any, Dict, List, Optional, Tuple

from ..datacache import key_directory, prune_other_versions, usable
from ..findings import Finding
from .index import ObjectRef
from .results import FileResult

FORMAT = 2
SHARDS = 64
#: entries kept per shard; the least recently used go first
MAX_ENTRIES_PER_SHARD = 2000
#: a used entry's time is written again only when it is older than this (a warm run writes nothing)
_REFRESH_SECONDS = 24 * 3600


class ResultCache:
    """The stored results of one key (one version, config, profile set and option set)."""

    def __init__(self, root: str, key: str):
        self.directory = key_directory(os.path.join(root, "lint"), key)
        self._shards: Dict[int, Dict[str, Tuple[int, Any]]] = {}
        self._dirty: Dict[int, Dict[str, Tuple[int, Any]]] = {}
        self._now = int(time.time())

    def get(self, digest: str, source: str, file_order: Any) -> Optional[FileResult]:
        found = self._shard(digest).get(digest)
        if found is None:
            return None
        try:
            result = _result(found[1], source, digest, file_order)
        except (TypeError, ValueError, IndexError):
            return None  # not what this version writes: ignore it
        if self._now - found[0] > _REFRESH_SECONDS:
            self._touch(digest, found[1])
        return result

    def put(self, digest: str, result: FileResult) -> None:
        entry = _entry(result)
        if entry is not None:
            self._shard(digest)[digest] = (self._now, entry)
            self._touch(digest, entry)

    def stored(self) -> bool:
        """Whether this key's directory holds any shard (an empty cache answers nothing: no file need be looked up)."""
        if not usable(self.directory, create=False):
            return False
        try:
            with os.scandir(self.directory) as entries:
                return any(entry.name.endswith(".cache") for entry in entries)
        except OSError:
            return False

    def touched(self, digest: str) -> bool:
        """Whether :meth:`get` found the entry old and marked it to be written again (with this run's time)."""
        return digest in self._dirty.get(_shard_of(digest), {})

    def save(self) -> None:
        """Write the shards this run changed (merged with what other runs wrote meanwhile)."""
        if not self._dirty:
            return
        if not usable(self.directory, create=True):
            return
        prune_other_versions(os.path.dirname(self.directory))
        for number, changes in self._dirty.items():
            path = self._path(number)
            entries = _read_shard(path)
            entries.update(changes)
            if len(entries) > MAX_ENTRIES_PER_SHARD:
                newest = sorted(entries.items(), key=lambda item: item[1][0], reverse=True)
                entries = dict(newest[:MAX_ENTRIES_PER_SHARD])
            _write_shard(path, entries)
        self._dirty.clear()

    def _touch(self, digest: str, entry: Any) -> None:
        self._dirty.setdefault(_shard_of(digest), {})[digest] = (self._now, entry)

    def _shard(self, digest: str) -> Dict[str, Tuple[int, Any]]:
        number = _shard_of(digest)
        if number not in self._shards:
            ours = usable(self.directory, create=False)
            self._shards[number] = _read_shard(self._path(number)) if ours else {}
        return self._shards[number]

    def _path(self, number: int) -> str:
        return os.path.join(self.directory, f"{number:02x}.cache")


def _shard_of(digest: str) -> int:
    return int(digest[:2], 16) % SHARDS


def _read_shard(path: str) -> Dict[str, Tuple[int, Any]]:
    try:
        with open(path, "rb") as handle:
            loaded = marshal.loads(handle.read())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(loaded, tuple) and len(loaded) == 2 and loaded[0] == FORMAT and isinstance(loaded[1], dict)):
        return {}
    return loaded[1]


def _write_shard(path: str, entries: Dict[str, Tuple[int, Any]]) -> None:
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "wb") as handle:
            handle.write(marshal.dumps((FORMAT, entries)))
        os.replace(temporary, path)
    except OSError:
        try:
            os.unlink(temporary)
        except OSError:
            pass


# --------------------------------------------------------------------------- FileResult <-> plain data


def _entry(result: FileResult) -> Any:
    """``result`` as plain data (None when it holds something marshal cannot store, e.g. a date in a path)."""
    if any(f.file != result.source for f in result.findings) or any(r.source != result.source for r in result.refs):
        return None
    findings = tuple((f.rule, f.severity, f.message, f.path, f.hint, f.line, f.column, f.obj, f.input_error,
                      f.extra) for f in result.findings)
    refs = tuple((r.kind, r.name, r.namespace, r.labels, r.obj, r.prefix, r.entry, r.origin, r.order[1], r.ignored)
                 for r in result.refs)
    directives = result.directives
    plain = None if directives is None else \
        ({line: frozenset(ids) for line, ids in directives.lines.items()}, frozenset(directives.whole_file))
    entry = (findings, refs, tuple(result.facts), plain)
    try:
        marshal.dumps(entry)
    except ValueError:
        return None
    return entry


def _result(entry: Any, source: str, digest: str, file_order: Any) -> FileResult:
    findings_data, refs_data, facts, plain = entry
    findings: List[Finding] = [
        Finding(rule, severity, message, tuple(path), hint, source, line, column, obj, input_error, tuple(extra))
        for rule, severity, message, path, hint, line, column, obj, input_error, extra in findings_data]
    refs = [ObjectRef(kind, name, namespace, source, labels, obj, tuple(prefix), entry_index,
                      None if origin is None else tuple(origin), ((file_order, entry_index), number),
                      frozenset(ignored))
            for kind, name, namespace, labels, obj, prefix, entry_index, origin, number, ignored in refs_data]
    directives = None
    if plain is not None:
        from .suppress import FileDirectives

        directives = FileDirectives(lines={line: set(ids) for line, ids in plain[0].items()},
                                    whole_file=set(plain[1]))
    return FileResult(source, findings, refs, [tuple(fact) for fact in facts], directives, digest)
