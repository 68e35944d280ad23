"""``lint --fix`` / ``--diff``: mechanical, safe fixes, made where each finding is, the rest of the file untouched.

A fix replaces or inserts the characters of one YAML node and nothing else, so comments, quoting,
indentation, line ends and key order elsewhere stay byte for byte.  Only fixes whose meaning is certain
are made (what each rule's fix does: its unit's ``fix``; :mod:`.fixing`).  Before a file is changed, its fixed text is
read again and must hold exactly the data of the old text with the fixed fields set, and nothing else;
otherwise the file keeps every finding and is not touched.

Fixes that would touch the same place (two limits added to one container) are made one per run;
``lint --fix`` runs again until nothing more can be fixed.

The same fixes are offered in SARIF (``fixes``), for viewers that apply them.
"""
from __future__ import annotations

import bisect
from typing import Any, Dict, List, Sequence, Tuple

from .fixing import Fix, fixer
from ..findings import Finding

__all__ = ["Lines", "apply", "plan", "sarif_fix"]


def _fixes_for(path: str, text: str, mine: Sequence[Finding]) -> List[Fix]:
    from . import yamledit

    docs = yamledit.compose(text)
    before = _read(text)
    candidates = []
    for finding in mine:
        fix_of = fixer(finding.rule)
        made = fix_of(finding, text, docs) if fix_of is not None else None
        if made is not None:
            candidates.append(made)
    # Most often every fix is right: one check of them all reads the file twice, not twice per fix
    # (a file with hundreds of findings took minutes).  Otherwise they are checked by halves; of two
    # overlapping ones the first is kept.
    apart = _apart(candidates)
    found = _each_right(text, apart, before)
    if len(found) == len(apart):
        return found  # checked together
    return found if found and _only_the_changes(text, found, before) else []


def _apart(fixes: Sequence[Fix]) -> List[Fix]:
    """``fixes`` less each one that overlaps an earlier one kept (the kept ones, apart, are kept in order of
    their starts, so each fix is checked against its neighbours there only: against every one kept cost
    fixes x fixes)."""
    kept: List[Fix] = []
    spans: List[Tuple[int, int]] = []  # the kept ones' (start, end), sorted
    for fix in fixes:
        at = bisect.bisect_right(spans, fix.end, key=lambda span: span[0])
        if at and spans[at - 1][1] >= fix.start:  # the last kept one starting by this one's end reaches it
            continue
        spans.insert(at, (fix.start, fix.end))
        kept.append(fix)
    return kept


def _each_right(text: str, fixes: Sequence[Fix], before: List[Any]) -> List[Fix]:
    """The fixes (apart) that each read back as their changes alone, found by halves: a group that reads
    back right is kept whole, so a file with a few wrong fixes among thousands is read again a few times
    per wrong one, not once per fix."""
    if not fixes:
        return []
    if _only_the_changes(text, fixes, before):
        return list(fixes)
    if len(fixes) == 1:
        return []
    half = len(fixes) // 2
    return _each_right(text, fixes[:half], before) + _each_right(text, fixes[half:], before)


def plan(findings: Sequence[Finding], read: Any) -> Dict[str, List[Fix]]:
    """The fixes per file; ``read(path)`` gives a file's text (files that cannot be read get none)."""
    wanted: Dict[str, List[Finding]] = {}
    for finding in findings:
        if finding.file and not finding.file.startswith("<") and fixer(finding.rule) is not None:
            wanted.setdefault(finding.file, []).append(finding)
    out: Dict[str, List[Fix]] = {}
    for path, mine in sorted(wanted.items()):
        try:
            fixes = _fixes_for(path, read(path), mine)
        except Exception:  # noqa: BLE001 - a file that does not read again is simply not fixed
            continue
        if fixes:
            out[path] = sorted(fixes, key=lambda f: f.start)
    return out


def apply(text: str, fixes: Sequence[Fix]) -> str:
    """``text`` with the fixes made (they never overlap), in one pass (a copy of the text per fix cost fixes x
    characters)."""
    pieces, at = [], 0
    for fix in sorted(fixes, key=lambda f: f.start):
        pieces += [text[at:fix.start], fix.text]
        at = fix.end
    pieces.append(text[at:])
    return "".join(pieces)


def _read(text: str) -> List[Any]:
    """The data of every document (libyaml's loader when there is one: only the data is compared, so
    the pure-Python one, which the edits need for its marks, would only be slower)."""
    import yaml

    from ..yamlio.common import BaseLoader

    return list(yaml.load_all(text, Loader=BaseLoader))


def _only_the_changes(text: str, fixes: Sequence[Fix], before: List[Any]) -> bool:
    """Whether the fixed text reads as the old data (``before``, read from ``text``) with exactly the fixes'
    changes made."""
    import copy

    after = _read(apply(text, fixes))
    expected = copy.deepcopy(before)
    for fix in fixes:
        if not _set(expected, (fix.change.doc,) + tuple(fix.change.path), fix.change.value):
            return False
    return after == expected


def _set(data: Any, path: Sequence[Any], value: Any) -> bool:
    for i, part in enumerate(path[:-1]):
        if isinstance(data, dict):
            if part not in data:
                data[part] = {}
            data = data[part]
        elif isinstance(data, list) and isinstance(part, int) and 0 <= part < len(data):
            data = data[part]
        else:
            return False
    last = path[-1]
    if isinstance(data, list) and last == len(data):
        data.append(value)
    elif isinstance(data, dict) or (isinstance(data, list) and isinstance(last, int) and 0 <= last < len(data)):
        data[last] = value
    else:
        return False
    return True


class Lines:
    """Where each line of a text starts: character offsets to lines and columns, made once per file (counting
    the line ends before each fix cost fixes x characters)."""

    def __init__(self, text: str):
        self._starts = [0]
        end = text.find("\n")
        while end >= 0:
            self._starts.append(end + 1)
            end = text.find("\n", end + 1)

    def position(self, index: int) -> Tuple[int, int]:
        """1-based line and column of a character offset."""
        line = bisect.bisect_right(self._starts, index)
        return line, index - self._starts[line - 1] + 1


def sarif_fix(fix: Fix, location: Dict[str, Any], lines: Lines) -> Dict[str, Any]:
    """A SARIF fix of the file at ``location`` (its result's artifactLocation), whose lines are ``lines``."""
    (line, column), (end_line, end_column) = lines.position(fix.start), lines.position(fix.end)
    return {"description": {"text": fix.description},
            "artifactChanges": [{"artifactLocation": dict(location), "replacements": [{
                "deletedRegion": {"startLine": line, "startColumn": column, "endLine": end_line,
                                  "endColumn": end_column},
                "insertedContent": {"text": fix.text}}]}]}
