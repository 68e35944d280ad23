"""``lint`` over command-line paths: discover, read, reuse cached results, lint the rest, finish the run.

Each file is linted on its own (:meth:`~.engine.Linter.lint_file`), by this process or, for a large
run, by forked workers (:mod:`ascend_compile.files.parallel`); with a result cache (:mod:`.cache`) a file
whose text did not change is not parsed at all.  Then :meth:`~.engine.Linter.finish` judges the
cross-object rules over every file's objects.  The findings are the same whichever way each file
was read: the tests compare them.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..errors import InputError
from ..findings import Finding, sort_key
from ..yamlio.parsing import iter_documents
from ..yamlio.reading import display_name, read_text
from .engine import Linter
from .fingerprint import text_digest
from .results import FileResult, SpecCheck


def lint_paths(paths: Sequence[str], registry: Any = None, config: Any = None, *,
               include: Sequence[str] = (), exclude: Sequence[str] = (), max_bytes: Optional[int] = None,
               strict: bool = True, volcano_version: Optional[str] = None, disable: Sequence[str] = (),
               strict_kinds: bool = False, jobs: Optional[int] = None, cache_dir: Optional[str] = None,
               left_out: Optional[List[Finding]] = None, specs: Optional[SpecCheck] = None,
               inventory: Any = None, target: Any = None) -> Tuple[List[Finding], int]:
    """Discover, read and lint ``paths``; returns (findings, number of files read).

    ``jobs`` sets the number of processes (default: one per core once there are at least 64 files
    to lint); ``cache_dir`` turns the result cache on (see :func:`ascend_compile.datacache.default_root`).
    Discovery's notes and warnings (AC007-AC009, AC014, AC015) obey the settings as the other findings do;
    ``left_out``, when given,
    receives the notes of what was left out on purpose whatever the settings (see
    :meth:`~ascend_compile.files.discovery.Discovery.left_out`).  ``specs`` checks job specs as compile does (see
    :class:`~.engine.Linter`); ``target`` is the release judged for (:class:`~ascend_compile.releases.Target`).
    """
    from ..files.discovery import discover
    from ..yamlio.common import DEFAULT_MAX_BYTES
    from .beside import Beside
    from .locate import Locator

    found = discover(paths, include=include, exclude=exclude)
    linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable,
                    strict_kinds=strict_kinds, specs=specs, inventory=inventory, target=target)
    limit = max_bytes or DEFAULT_MAX_BYTES
    reader = _Reader(linter, limit, _open_cache(cache_dir, linter, limit) if cache_dir else None)
    if left_out is not None:
        left_out.extend(found.left_out())
    results = _walked_non_manifests(reader.read(found.paths, jobs), found.walked(), linter)
    beside = Beside([result.source for result in results], limit)
    findings = linter.configure(found.findings) + linter.finish(results, None, beside, Locator(reader.texts, limit))
    if reader.cache is not None:
        reader.cache.save()
    return sorted(findings, key=sort_key), len(found.paths)


def _walked_non_manifests(results: List[FileResult], walked: Set[str], linter: Linter) -> List[FileResult]:
    """Each walked file that holds no manifest gets one note instead of its AC107 errors (see discovery), unless
    the settings silence it."""
    from ..files.discovery import no_manifest_in, not_a_manifest

    # a new result: the cache keeps what the file says (named, it is an error)
    return [FileResult(result.source, linter.configure([not_a_manifest(result.source)]), result.refs, result.facts,
                       result.directives, result.digest)
            if result.source in walked and no_manifest_in(result.findings, any(ref.kind for ref in result.refs))
            else result for result in results]


class _Reader:
    """Turns the run's paths into FileResults: from the cache, in this process, or in workers."""

    def __init__(self, linter: Linter, limit: int, cache: Any):
        self.linter = linter
        self.limit = limit
        self.cache = cache
        self.texts: Dict[str, str] = {}  # texts of files linted here whose objects cross-object rules judge

    def read(self, paths: Sequence[str], jobs: Optional[int]) -> List[FileResult]:
        from ..files.parallel import chunks, fork_map, workers_for
        from ..yamlio.common import STDIN

        results: List[Optional[FileResult]] = [None] * len(paths)
        todo = list(enumerate(paths))
        known: Dict[int, Tuple[str, str]] = {}  # number -> (text, digest) of a file this process looked up
        if self.cache is not None and self.cache.stored():
            todo = self._look_up(todo, results, known)
        files = [(number, path) for number, path in todo if path != STDIN]
        workers = workers_for(len(files), jobs) if files else 1
        if workers > 1:
            _preload(self.linter)
        done = fork_map(_worker_share, chunks(files, workers), workers,
                        (self.linter, self.limit, self.cache, known)) if workers > 1 else None
        if done is not None:
            todo = [(number, path) for number, path in todo if path == STDIN]  # only this process can read our stdin
            for part in done:
                for number, result, store in part:
                    results[number] = result
                    if result.facts and number in known:  # to place cross-object findings without reading it again
                        self.texts[result.source] = known[number][0]
                    if store:
                        self.cache.put(result.digest, result)
        for number, path in todo:
            results[number] = self._here(number, path, known.get(number))
        return [result for result in results if result is not None]

    def _look_up(self, todo: List[Tuple[int, str]], results: List[Optional[FileResult]],
                 known: Dict[int, Tuple[str, str]]) -> List[Tuple[int, str]]:
        """Answer from the cache what it holds, here; return what is left to lint (with its text in ``known``).

        Only when the cache holds something: a warm run then reads and digests its files in this
        process, which costs less than starting workers and sending every result back; the files
        left to lint are handed to the workers (forked: they inherit the texts read here).
        """
        left = []
        for number, path in todo:
            text, digest, cached = self._cached(path, number)
            if cached is not None:
                results[number] = cached
                continue
            left.append((number, path))
            if text is not None:
                known[number] = (text, digest)
        return left

    def _here(self, number: int, path: str, known: Optional[Tuple[str, str]] = None) -> FileResult:
        """One file in this process: from the cache, else linted (and stored).  ``known``: its (text, digest), looked up already."""
        text, digest = known if known is not None else (None, "")
        if self.cache is not None and known is None:
            text, digest, cached = self._cached(path, number)
            if cached is not None:
                return cached
        result = self._lint_here(number, path, text, digest)
        if self.cache is not None and result.digest:
            self.cache.put(result.digest, result)
        return result

    def _cached(self, path: str, number: int) -> Tuple[Optional[str], str, Optional[FileResult]]:
        """(the text, its digest, the stored result or None)."""
        try:
            text = read_text(path, self.limit)
        except InputError as exc:  # not read again: standard input can be read once
            return None, "", FileResult(display_name(path), list(exc.findings), [], [])
        digest = text_digest(text)
        result = self.cache.get(digest, display_name(path), number)
        if result is not None and result.facts:
            self.texts[result.source] = text  # to place cross-object findings (stdin cannot be read again)
        return text, digest, result

    def _lint_here(self, number: int, path: str, text: Optional[str], digest: str) -> FileResult:
        result, text = lint_file_at(self.linter, path, number, self.limit, text, digest)
        if result.facts and text is not None:
            self.texts[result.source] = text
        return result


def _preload(linter: Linter) -> None:
    """What every worker would load for its first file (the rule units, the profiles), loaded once before they fork."""
    _ = linter.rules
    profiles = getattr(linter.profiles, "all", None)
    if profiles is not None:
        profiles()


def _worker_share(state: Tuple[Linter, int, Any, Dict[int, Tuple[str, str]]],
                  part: List[Tuple[int, str]]) -> List[Tuple[int, FileResult, bool]]:
    """A worker's share: (number, result, whether the parent should store it) of each file.

    With a result cache the worker looks each file up in its own copy of it (forked from the parent's),
    so a run that fills an empty cache reads and digests its files on every core; a file the parent
    looked up already (``known``: its text and digest) is only linted.  What the parent stores are the
    new results and the old entries used again (their time is written anew).  A result whose objects have
    facts carries its text's digest: the parent may read the file again to place a cross-object finding.
    """
    linter, limit, cache, known = state
    out: List[Tuple[int, FileResult, bool]] = []
    for number, path in part:
        text = None
        if number in known:
            text, digest = known[number]
            result = lint_file_at(linter, path, number, limit, text, digest)[0]
            out.append((number, result, bool(result.digest)))
            continue
        if cache is not None:
            try:
                text = read_text(path, limit)
            except InputError as exc:
                out.append((number, FileResult(display_name(path), list(exc.findings), [], []), False))
                continue
            digest = text_digest(text)
            cached = cache.get(digest, display_name(path), number)
            if cached is not None:
                out.append((number, cached, cache.touched(digest)))
                continue
            result = lint_file_at(linter, path, number, limit, text, digest)[0]
            out.append((number, result, bool(result.digest)))
            continue
        result = lint_file_at(linter, path, number, limit, text, "", digest_if_facts=True)[0]
        out.append((number, result, False))
    return out


def lint_file_at(linter: Linter, path: str, number: int, limit: int, text: Optional[str], digest: str,
                 digest_if_facts: bool = False) -> Tuple[FileResult, Optional[str]]:
    """Read, parse and lint one file: its result (and its text, None if it could not be read).

    The result carries ``digest`` (the text's, when the caller knows it), or with ``digest_if_facts`` the
    text's digest when its objects have facts (only those files may be read again, to place a finding).
    """
    name = display_name(path)
    try:
        if text is None:
            text = read_text(path, limit)
    except InputError as exc:
        return FileResult(name, list(exc.findings), [], []), None
    docs: List[Any] = []
    errors: List[Finding] = []
    try:
        for doc in iter_documents(text, name):
            docs.append(doc)
    except InputError as exc:
        errors = list(exc.findings)  # the documents before the error are still linted
    entries = [(doc.data, doc, (number, entry)) for entry, doc in enumerate(docs)]
    result = linter.lint_file(name, entries, text, digest=digest)
    if digest_if_facts and result.facts and not digest:
        result.digest = text_digest(text)
    result.findings.extend(errors)
    return result, text


def _open_cache(root: str, linter: Linter, limit: int) -> Any:
    """The cache for this run's settings, or None when they cannot be named (a profile registry of the caller's own)."""
    from ..hardware.profiles import ProfileRegistry
    from .cache import ResultCache
    from .fingerprint import code_digest, files_digest, settings_digest

    if not isinstance(linter.profiles, ProfileRegistry):
        return None
    parts = [code_digest(), files_digest(linter.profiles.files()), linter.config, sorted(linter.disabled),
             sorted(linter.severity.items()), linter.strict, linter.volcano_version, linter.strict_kinds, linter.schema,
             linter.specs is not None, limit, tuple(linter.target)]
    if linter.inventory is not None:  # the results depend on the cluster too (a plain run's key is unchanged)
        parts.append(_inventory_digest(linter.inventory))
    key = settings_digest(*parts)
    return ResultCache(root, key)


def _inventory_digest(inventory: Any) -> str:
    """What of the cluster inventory the results depend on: the snapshot it would be."""
    from ..datacache import digest
    from ..inventory.snapshot import dump

    return digest(dump(inventory).encode("utf-8"))
