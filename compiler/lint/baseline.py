"""``lint --write-baseline FILE`` / ``lint --baseline FILE``: accept the findings a legacy repository has today,
report only new ones.

A finding is known by its identity, not its place: the rule, the file (relative to the repository root, or
the working directory outside a repository),
the object (apiVersion, kind, namespace, name) and the field path (its elements, not their spelling).  Lines are not part of it, so an edit elsewhere in
the file (a comment, another object, reformatting) keeps every entry matched; renaming the object or
moving the field makes the finding new, as it should.  A finding without a field path (a whole-document
problem) is also known by its message.  Input errors (unreadable files), and the findings no setting silences (a
file NOT CHECKED, AC014; a spec error: :func:`~ascend_compile.catalogue.silenceable`), are never baselined.

The baseline file is JSON, sorted and readable in review: one entry per identity, with a ``count`` when
the same identity occurs more than once (matched as a multiset) and the message for the reader.  An
entry that matches nothing any more is *stale*: the finding was fixed, or its object renamed; it is
counted, and ``--write-baseline`` again drops it.  Only the files linted in a run are judged: an entry of
a file the run did not read (pre-commit passes only the changed files) is neither stale nor dropped, and
``--write-baseline`` on such a subset replaces the entries of the files it read and keeps the others.
"""
from __future__ import annotations

import json
import os
from typing import Any, Collection, Dict, FrozenSet, List, Optional, Sequence, Tuple

from ..catalogue import silenceable
from ..findings import Finding

#: 3: the object's apiVersion in its identity (a Volcano Job and a batch/v1 Job of one name were one object).
#: 2: the field path as a list of its elements, the message a field of its own (version 1 joined the path
#: into kubectl's spelling, so ``("spec.foo",)`` and ``("spec", "foo")`` were one identity, and a path could
#: pass for a message).  Files of versions 1 and 2 are still read, matched the way they were written.
VERSION = 3
VERSIONS = (1, 2, 3)
#: an identity as JSON text (hashable; path elements keep their type: ``0`` is not ``"0"``)
Key = str


class BaselineError(ValueError):
    """The baseline file cannot be read or is not a baseline: the message says which and how to fix it."""


def _file(path: str) -> str:
    """The file relative to the repository root (the working directory outside a repository) when it is below
    it, so that a lint from a subfolder matches a baseline written from the root (``./a.yaml`` from ``k8s/``,
    ``/repo/k8s/a.yaml`` -> ``k8s/a.yaml``); another file as given."""
    if path.startswith("<"):  # <stdin>
        return path
    relative = os.path.relpath(os.path.abspath(path), _base(os.getcwd()))
    if not relative.startswith(".."):
        path = relative
    return os.path.normpath(path).replace(os.sep, "/")


_BASES: Dict[str, str] = {}


def _base(cwd: str) -> str:
    """The folder baseline entries are relative to: the repository root above ``cwd``, else ``cwd``."""
    base = _BASES.get(cwd)
    if base is None:
        from ..safeio.inside import repository_root

        base = _BASES[cwd] = repository_root(cwd) or cwd
    return base


def key(finding: Finding, version: int = VERSION) -> Key:
    """What a finding is, for the baseline: rule, file, object, field path and, without a path, message."""
    if version == 1:
        parts: List[Any] = [finding.rule, _file(finding.file), finding.obj,
                            finding.field_path or "message: " + finding.message]
    else:
        parts = [finding.rule, _file(finding.file), finding.obj, list(finding.path),
                 "" if finding.path else finding.message]
        if version >= 3:
            parts.append(finding.api_version)
    return _identity(parts)


def _identity(parts: List[Any]) -> Key:
    return json.dumps(parts, ensure_ascii=False, default=str)


def entries(findings: Sequence[Finding]) -> List[Dict[str, Any]]:
    counts: Dict[Key, int] = {}
    first: Dict[Key, Finding] = {}
    for finding in findings:
        if not silenceable(finding):  # an input error, a file not checked: never accepted
            continue
        k = key(finding)
        counts[k] = counts.get(k, 0) + 1
        first.setdefault(k, finding)
    out = []
    for k in sorted(counts):
        finding = first[k]
        entry: Dict[str, Any] = {"rule": finding.rule, "file": _file(finding.file),
                                 "apiVersion": finding.api_version, "object": finding.obj, "path": json.loads(k)[3]}
        if counts[k] > 1:
            entry["count"] = counts[k]
        entry["message"] = finding.message  # without a path part of the identity; else for the reader
        out.append(entry)
    return out


def dumps(findings: Sequence[Finding], kept: Sequence[Dict[str, Any]] = ()) -> str:
    """The baseline file of ``findings``, with ``kept`` (entries of files this run did not lint) among them."""
    listed = entries(findings) + list(kept)
    listed.sort(key=lambda entry: _entry_key(entry, VERSION) or "")
    return json.dumps({"ascendCompileBaseline": VERSION, "findings": listed}, indent=2, ensure_ascii=False) + "\n"


def file_of(identity: Key) -> str:
    """The file an identity is about (as :func:`_file` wrote it)."""
    return str(json.loads(identity)[1])


def linted_files(paths: Collection[str]) -> FrozenSet[str]:
    """The files of a run, spelled as the baseline spells them."""
    return frozenset(_file(path) for path in paths)


def write(path: str, findings: Sequence[Finding], linted: Optional[Collection[str]] = None,
          max_bytes: int = 0) -> Tuple[int, int]:
    """Write the baseline of ``findings`` to ``path`` (atomically, never through a link); return the number
    of findings in it and the number of entries kept from the baseline already there: those of files not
    in ``linted`` (the run's files, :func:`linted_files`; None: every entry is replaced).  Raises
    :class:`~ascend_compile.errors.InputError` (AC013) when it cannot be written, :class:`BaselineError`
    when the baseline there is of an older version and holds entries of other files (they would be lost).
    A file there that is not a baseline is replaced whole; a link is refused by the writer, and so is a path
    reaching through a link out of the repository (nothing there is read either)."""
    from ..safeio.inside import check_inside
    from ..safeio.write import write_file

    check_inside(path)
    kept: List[Dict[str, Any]] = []
    if linted is not None and os.path.isfile(path) and not os.path.islink(path):
        try:
            version, listed = _read(path, max_bytes)
        except BaselineError:  # not a baseline (yet): replaced whole, as before
            version, listed = VERSION, []
        kept = [entry for entry in listed if isinstance(entry, dict) and entry.get("file") not in linted]
        if kept and version != VERSION:  # its entries cannot be carried into this version: they would be lost
            raise BaselineError(f"baseline {path} is version {version}: write it again from every file (lint the "
                                f"whole repository with --write-baseline {path}) before updating part of it")
    write_file(path, dumps(findings, kept))
    return sum(1 for f in findings if silenceable(f)), len(kept)


def load(path: str, max_bytes: int = 0) -> Accepted:
    """The identities a baseline file accepts, with how many of each.  The file is read as any named
    file is: a regular file (a link to ``/dev/zero`` or a FIFO is refused), at most ``max_bytes`` (0: the
    default input limit)."""
    version, listed = _read(path, max_bytes)
    accepted: Dict[Key, int] = {}
    for index, entry in enumerate(listed):
        k = _entry_key(entry, version)
        count = entry.get("count", 1) if isinstance(entry, dict) else None
        if k is None or not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BaselineError(f"baseline {path}: findings[{index}] needs rule, file and object (strings), "
                                + ("" if version < 3 else "apiVersion (a string), ") + "path "
                                + ("(a string)" if version == 1 else "(a list of keys and indexes) and message (a string)")
                                + " and a count of at least 1; write it again with --write-baseline")
        accepted[k] = accepted.get(k, 0) + count
    return Accepted(version, accepted)


def _read(path: str, max_bytes: int = 0) -> Tuple[int, List[Any]]:
    """(format version, the entries as written) of a baseline file; :class:`BaselineError` when it is none."""
    from ..errors import InputError
    from ..yamlio.common import DEFAULT_MAX_BYTES
    from ..safeio.inside import check_inside
    from ..yamlio.reading import read_text

    check_inside(path)  # a folder above it linked out of the repository: an InputError (AC013), nothing read
    if not os.path.lexists(path):
        raise BaselineError(f"baseline {path} does not exist; create it with --write-baseline {path}")
    try:
        data = json.loads(read_text(path, max_bytes or DEFAULT_MAX_BYTES))
    except InputError as exc:
        problem = exc.findings[0]
        raise BaselineError(f"cannot read the baseline {path}: it {problem.message}"
                            + (f" ({problem.hint})" if problem.hint else "")) from None
    except ValueError as exc:
        raise BaselineError(f"baseline {path} is not JSON ({exc}); write it again with --write-baseline") from None
    version = data.get("ascendCompileBaseline") if isinstance(data, dict) else None
    if version not in VERSIONS or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path} is not an ascend-compile baseline (version {VERSION}); "
                            f"write it with --write-baseline {path}")
    return int(version), list(data["findings"])


def _entry_key(entry: Any, version: int) -> Optional[Key]:
    """The identity an entry records, as :func:`key` gives it for a finding of that version; None if malformed."""
    if not isinstance(entry, dict):
        return None
    rule, file, obj, path = (entry.get(name) for name in ("rule", "file", "object", "path"))
    if not all(isinstance(v, str) for v in (rule, file, obj)):
        return None
    if version == 1:
        return _identity([rule, file, obj, path]) if isinstance(path, str) else None
    message = entry.get("message")
    if not isinstance(path, list) or not isinstance(message, str) \
            or not all(isinstance(e, (str, int)) and not isinstance(e, bool) for e in path):
        return None
    parts: List[Any] = [rule, file, obj, path, "" if path else message]
    if version >= 3:
        api_version = entry.get("apiVersion")
        if not isinstance(api_version, str):
            return None
        parts.append(api_version)
    return _identity(parts)


class Accepted:
    """A baseline as read: its format version and how many of each identity it accepts."""

    def __init__(self, version: int, counts: Dict[Key, int]):
        self.version, self.counts = version, counts


class Split:
    """Findings split by a baseline: the new ones, the baselined ones, how many entries are stale, and how many
    are of files the run did not lint (not judged)."""

    def __init__(self, new: List[Finding], baselined: List[Finding], stale: int, elsewhere: int = 0):
        self.new, self.baselined, self.stale, self.elsewhere = new, baselined, stale, elsewhere


def split(findings: Sequence[Finding], accepted: Accepted, linted: Optional[Collection[str]] = None) -> Split:
    """``linted``: the run's files (:func:`linted_files`); entries of other files are neither matched nor stale
    (None: every entry is judged)."""
    left = {k: n for k, n in accepted.counts.items() if linted is None or file_of(k) in linted}
    elsewhere = sum(accepted.counts.values()) - sum(left.values())
    new: List[Finding] = []
    baselined: List[Finding] = []
    for finding in sorted(findings, key=Finding.sort_key):
        k = key(finding, accepted.version)
        if silenceable(finding) and left.get(k, 0) > 0:
            left[k] -= 1
            baselined.append(finding)
        else:
            new.append(finding)
    return Split(new, baselined, sum(left.values()), elsewhere)
