"""``compile -o DIR --check``: which files in DIR are stale, missing or orphaned, and the diff.

DIR is refused when a link at it, or at any folder above it, leads out of the repository it sits in
(``manifests -> ../../.kube``: a pull request must not have a runner's files printed as the diff).
Everything read here is read as a regular file of bounded size, without following a symlink and
without waiting on a FIFO: a committed ``out/job.yaml -> /proc/self/environ`` must not print the
environment into a CI log, and a link to ``/dev/zero`` must not fill the memory.  Anything else
in the place of an output (a symlink, a FIFO, a device, a file over the size limit, bytes that are
not UTF-8) is stale: compile would write a regular file there.

An orphan is a file in DIR that ``compile -o`` wrote (its first line is our header, naming the
spec) and that no spec produces any more: its spec is gone, or was read and now gives its job
another name.  Other files in DIR are not ours.
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from .pipeline import CompiledJob
from ..safeio.inside import check_inside
from ..safeio.read import read_regular_bytes
from ..safeio.text import printable
from ..textdiff import of_texts
from .writer import HEADER_PREFIX, HEADER_SUFFIX, planned



class CheckReport:
    """What ``--check`` found: file paths in DIR, and one unified diff per stale or missing file."""

    def __init__(self) -> None:
        self.stale: List[str] = []
        self.missing: List[str] = []
        self.orphans: List[str] = []
        self.diffs: List[str] = []

    @property
    def up_to_date(self) -> bool:
        return not (self.stale or self.missing or self.orphans)

    def as_dict(self) -> Dict[str, Any]:
        return {"upToDate": self.up_to_date, "stale": self.stale, "missing": self.missing,
                "orphans": self.orphans, "diff": "".join(self.diffs)}


def read_regular(path: str, max_bytes: int, head: bool = False) -> Tuple[Optional[str], str]:
    """(text, "") for a regular UTF-8 file of at most ``max_bytes``; else (None, why it was not read).

    ``(None, "")`` means there is nothing at ``path``; see :func:`~ascend_compile.safeio.read.read_regular_bytes`.
    ``head``: read the first ``max_bytes`` only.
    """
    data, why = read_regular_bytes(path, max_bytes, head)
    if data is None:
        return None, why
    try:
        return data.decode("utf-8", "replace" if head else "strict"), ""
    except UnicodeDecodeError:
        return None, "is not UTF-8 text"


def check_outputs(jobs: Sequence[CompiledJob], output_dir: str, max_bytes: int) -> CheckReport:
    """Compare what compile would write into ``output_dir`` with what is there; an
    :class:`~ascend_compile.errors.InputError` (AC013) when ``output_dir`` reaches through a link leading out of
    the repository (nothing there is read, listed or diffed)."""
    check_inside(output_dir)
    report = CheckReport()
    plan = planned(jobs, output_dir)
    for path, text in plan:
        current, why = read_regular(path, max_bytes)
        if current == text:
            continue
        if current is None and not why:
            report.missing.append(path)
            fromfile = "/dev/null"
        else:
            report.stale.append(path)
            fromfile = f"{path} (on disk)" if current is not None else f"{path} (on disk {why}; not read)"
        report.diffs.append(of_texts(current or "", text, printable(fromfile), printable(f"{path} (compiled)")))
    report.orphans = orphans(output_dir, {os.path.basename(path) for path, _ in plan}, [j.source for j in jobs])
    return report


def orphans(output_dir: str, expected: Set[str], sources: Sequence[str]) -> List[str]:
    """Files in ``output_dir`` that ``compile -o`` wrote (our header) and that no spec produces now.

    The header names the spec a file came from.  The file is an orphan when that spec was read in
    this run and no longer produces it (renamed job), or when the spec is gone.  A spec that exists
    but was not part of this run (pre-commit passes only the changed specs) is not judged.
    """
    try:
        names = sorted(os.listdir(output_dir))
    except OSError:
        return []
    found = []
    for name in names:
        if name in expected or not name.endswith((".yaml", ".yml")):
            continue
        path = os.path.join(output_dir, name)
        source = generated_from(path)
        if source is not None and (_same_file_in(source, sources) or not os.path.lexists(source)):
            found.append(path)
    return found


def generated_from(path: str) -> Optional[str]:
    """The spec a generated file names in its header; None for other files and for unusable names."""
    text, _why = read_regular(path, 4096, head=True)
    if text is None or not text.startswith(HEADER_PREFIX):
        return None
    line = text.split("\n", 1)[0][len(HEADER_PREFIX):]
    source, sep, _rest = line.partition(HEADER_SUFFIX)
    if not sep or not source or source.startswith("<") or "\\" in source:  # stdin, or an escaped name
        return None
    return source.replace("/", os.sep)


def _same_file_in(source: str, sources: Sequence[str]) -> bool:
    for other in sources:
        try:
            if os.path.normpath(other) == os.path.normpath(source) or os.path.samefile(other, source):
                return True
        except OSError:
            continue
    return False
