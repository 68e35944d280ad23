"""``lint --fix`` / ``--diff``: mechanical, safe fixes, made where each finding is, the rest of the file untouched.

A fix replaces or inserts the characters of one YAML node and nothing else, so comments, quoting,
indentation, line ends and key order elsewhere stay byte for byte.  Only fixes whose meaning is certain
are made (what each rule's fix does: :mod:`.autofix_rules`).  Before a file is changed, its fixed text is
read again and must hold exactly the data of the old text with the fixed fields set, and nothing else;
otherwise the file keeps every finding and is not touched.

Fixes that would touch the same place (two limits added to one container) are made one per run;
``lint --fix`` runs again until nothing more can be fixed.

The same fixes are offered in SARIF (``fixes``), for viewers that apply them.
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from .autofix_rules import FIXERS, Change, Fix
from ..findings import Finding

__all__ = ["apply", "plan", "sarif_fix"]


def _fixes_for(path: str, text: str, mine: Sequence[Finding]) -> List[Fix]:
    from . import yamledit

    docs = yamledit.compose(text)
    before = _read(text)
    candidates = [fix for fix in (FIXERS[finding.rule](finding, text, docs) for finding in mine) if fix is not None]
    # Most often every fix is right: one check of them all reads the file twice, not twice per fix
    # (a file with hundreds of findings took minutes).  Otherwise each is checked alone, as the
    # first of two overlapping ones is kept.
    apart = _apart(candidates)
    if apart and _only_the_changes(text, apart, before):
        return apart
    found: List[Fix] = []
    for fix in candidates:
        if not any(_overlap(fix, other) for other in found) and _only_the_changes(text, [fix], before):
            found.append(fix)
    return found if found and _only_the_changes(text, found, before) else []


def _apart(fixes: Sequence[Fix]) -> List[Fix]:
    """``fixes`` less each one that overlaps an earlier one."""
    kept: List[Fix] = []
    for fix in fixes:
        if not any(_overlap(fix, other) for other in kept):
            kept.append(fix)
    return kept


def _overlap(a: Fix, b: Fix) -> bool:
    return a.start <= b.end and b.start <= a.end


def plan(findings: Sequence[Finding], read: Any) -> Dict[str, List[Fix]]:
    """The fixes per file; ``read(path)`` gives a file's text (files that cannot be read get none)."""
    wanted: Dict[str, List[Finding]] = {}
    for finding in findings:
        if finding.rule in FIXERS and finding.file and not finding.file.startswith("<"):
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
    """``text`` with the fixes made (they never overlap)."""
    out = text
    for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
        out = out[:fix.start] + fix.text + out[fix.end:]
    return out


def _read(text: str) -> List[Any]:
    import yaml

    return list(yaml.load_all(text, Loader=yaml.SafeLoader))


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


def _position(text: str, index: int) -> Tuple[int, int]:
    """1-based line and column of a character offset."""
    line_start = text.rfind("\n", 0, index) + 1
    return text.count("\n", 0, index) + 1, index - line_start + 1


def sarif_fix(fix: Fix, location: Dict[str, Any], text: str) -> Dict[str, Any]:
    """A SARIF fix of the file at ``location`` (its result's artifactLocation)."""
    (line, column), (end_line, end_column) = _position(text, fix.start), _position(text, fix.end)
    return {"description": {"text": fix.description},
            "artifactChanges": [{"artifactLocation": dict(location), "replacements": [{
                "deletedRegion": {"startLine": line, "startColumn": column, "endLine": end_line,
                                  "endColumn": end_column},
                "insertedContent": {"text": fix.text}}]}]}
