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
runs no code) that records its full key and is read only under it, as a regular file of bounded size, from
folders that are ours up to the cache root (:func:`~ascend_compile.datacache.read_file`); an entry whose
shape or types are not what this version writes is not used (:func:`_result`).  Anything unexpected, a
directory that other users may write, or any error reading or writing makes the cache step aside: the run
is the same, only slower.  The directory
is safe to delete at any time; a run that writes to it removes the directories other versions have
not written to for a week (:func:`~ascend_compile.datacache.prune_other_versions`).
"""
from __future__ import annotations

import marshal
import os
import time
from typing import Any, Dict, List, Optional, Tuple

from ..datacache import key_directory, prune_other_versions, read_file, usable, write_file
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
        self.root = root
        self.key = key
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
        except Exception:  # noqa: BLE001 - not what this version writes, whatever it is: not cached
            return None
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
        if not usable(self.directory, create=False, root=self.root):
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
        if not usable(self.directory, create=True, root=self.root):
            return
        prune_other_versions(os.path.dirname(self.directory))
        for number, changes in self._dirty.items():
            path = self._path(number)
            entries = self._read_shard(path)
            entries.update(changes)
            if len(entries) > MAX_ENTRIES_PER_SHARD:
                newest = sorted(entries.items(), key=lambda item: item[1][0], reverse=True)
                entries = dict(newest[:MAX_ENTRIES_PER_SHARD])
            write_file(path, self.key, entries, root=self.root)
        self._dirty.clear()

    def _touch(self, digest: str, entry: Any) -> None:
        self._dirty.setdefault(_shard_of(digest), {})[digest] = (self._now, entry)

    def _shard(self, digest: str) -> Dict[str, Tuple[int, Any]]:
        number = _shard_of(digest)
        if number not in self._shards:
            self._shards[number] = self._read_shard(self._path(number))
        return self._shards[number]

    def _read_shard(self, path: str) -> Dict[str, Tuple[int, Any]]:
        """The shard's entries: each (time, entry) under a digest; what has another shape is left out."""
        loaded = read_file(path, self.key, root=self.root) or {}
        return {digest: value for digest, value in loaded.items()
                if type(digest) is str and type(value) is tuple and len(value) == 2 and type(value[0]) is int}

    def _path(self, number: int) -> str:
        return os.path.join(self.directory, f"{number:02x}.cache")


def _shard_of(digest: str) -> int:
    return int(digest[:2], 16) % SHARDS


# --------------------------------------------------------------------------- FileResult <-> plain data


def _entry(result: FileResult) -> Any:
    """``result`` as plain data (None when it holds something marshal cannot store, e.g. a date in a path)."""
    if any(f.file != result.source for f in result.findings) or any(r.source != result.source for r in result.refs):
        return None
    findings = tuple((f.rule, f.severity, f.message, f.path, f.hint, f.line, f.column, f.obj, f.input_error,
                      f.extra, f.api_version) for f in result.findings)
    refs = tuple((r.kind, r.name, r.namespace, r.labels, r.obj, r.prefix, r.entry, r.origin, r.order[1], r.ignored,
                  r.api_version) for r in result.refs)
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
    """The result an entry stores; ValueError when any part of it is not what :func:`_entry` writes."""
    _check_entry(entry)
    findings_data, refs_data, facts, plain = entry
    findings: List[Finding] = [
        Finding(rule, severity, message, tuple(path), hint, source, line, column, obj, input_error, tuple(extra),
                api_version)
        for rule, severity, message, path, hint, line, column, obj, input_error, extra, api_version in findings_data]
    refs = [ObjectRef(kind, name, namespace, source, labels, obj, tuple(prefix), entry_index,
                      None if origin is None else tuple(origin), ((file_order, entry_index), number),
                      frozenset(ignored), api_version)
            for kind, name, namespace, labels, obj, prefix, entry_index, origin, number, ignored, api_version
            in refs_data]
    directives = None
    if plain is not None:
        from .suppress import FileDirectives

        directives = FileDirectives(lines={line: set(ids) for line, ids in plain[0].items()},
                                    whole_file=set(plain[1]))
    return FileResult(source, findings, refs, [tuple(fact) for fact in facts], directives, digest)


_FINDING_TYPES = (str, str, str, tuple, str, int, int, str, bool, tuple, str)
_SEVERITIES = frozenset(("error", "warning", "info"))


def _check_entry(entry: Any) -> None:
    """Raise ValueError unless ``entry`` has the shape and types :func:`_entry` writes (a planted or damaged entry
    must be "not cached", never a wrong finding or a crash)."""
    from ..catalogue import get

    def need(ok: Any) -> None:
        if not ok:
            raise ValueError("not a cache entry of this version")

    need(type(entry) is tuple and len(entry) == 4)
    findings_data, refs_data, facts, plain = entry
    need(type(findings_data) is tuple and type(refs_data) is tuple and type(facts) is tuple)
    for finding in findings_data:
        need(type(finding) is tuple and len(finding) == len(_FINDING_TYPES)
             and all(type(value) is kind for value, kind in zip(finding, _FINDING_TYPES)))
        need(finding[1] in _SEVERITIES and get(finding[0]) is not None and finding[5] >= 0 and finding[6] >= 0)
        need(all(type(step) in (str, int) for step in finding[3]))
        need(all(type(pair) is tuple and len(pair) == 2 and all(type(part) is str for part in pair)
                 for pair in finding[9]))
    for ref in refs_data:
        need(type(ref) is tuple and len(ref) == 11)
        kind, name, namespace, labels, obj, prefix, entry_index, origin, number, ignored, api_version = ref
        need(type(kind) is str and type(name) is str and (namespace is None or type(namespace) is str)
             and type(api_version) is str
             and type(labels) is dict and type(obj) is str and type(prefix) is tuple and type(entry_index) is int
             and type(number) is int and type(ignored) in (frozenset, set, tuple, list))
        need(origin is None or (type(origin) is tuple and len(origin) == 3 and all(type(n) is int for n in origin)))
    for fact in facts:
        need(type(fact) is tuple and len(fact) == 3 and type(fact[0]) is str and get(fact[0]) is not None
             and type(fact[1]) is int)
    if plain is not None:
        need(type(plain) is tuple and len(plain) == 2 and type(plain[0]) is dict and type(plain[1]) is frozenset)
        need(all(type(line) is int and type(ids) is frozenset for line, ids in plain[0].items()))
