"""``lint --baseline`` / ``--write-baseline``: the lint run's findings against a baseline, then reported.

Loaded only when one of the two options is given, so a plain ``lint`` pays nothing for it.
"""
from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Sequence

from ..findings import Finding
from ..safeio.text import printable_json


class BaselineUsage(Exception):
    """Both options at once, or an unusable baseline file: a usage/input error (exit 2)."""


def write(path: str, findings: Sequence[Finding], files: int, linted: Any = None, max_bytes: int = 0) -> int:
    """Record the findings of the files linted (keeping the baseline's entries of other files); exit 0 (2 if
    an input could not be read: it is not in the baseline)."""
    from ..lint import baseline
    from ..findings import EXIT_INPUT

    try:
        recorded, kept = baseline.write(path, findings, linted, max_bytes)
    except baseline.BaselineError as exc:
        raise BaselineUsage(str(exc)) from None
    unreadable = [f for f in findings if f.input_error]
    left = len({f.file for f in unreadable})
    unread = f" ({left} of them could not be read: their findings are not in it)" if left else ""
    others = f", kept {kept} entr{'y' if kept == 1 else 'ies'} of files not linted in this run" if kept else ""
    sys.stderr.write(f"wrote baseline {path}: {recorded} finding(s) in {files} file(s){unread}{others}; "
                     f"lint --baseline {path} now reports only new ones\n")
    if unreadable:
        from ..report import render

        render(unreadable, "text", stream=sys.stderr, files_checked=files)
        return EXIT_INPUT
    return 0


def report(path: str, findings: Sequence[Finding], fmt: str, rules: Optional[Dict[str, Any]], files: int,
           quiet: bool, max_bytes: int = 0, linted: Any = None) -> List[Finding]:
    """Report what the baseline does not accept; return those findings (they set the exit code)."""
    from ..lint import baseline
    from ..report import render, sort_findings

    try:
        accepted = baseline.load(path, max_bytes)
    except baseline.BaselineError as exc:
        raise BaselineUsage(str(exc)) from None
    part = baseline.split(findings, accepted, linted)
    summary = (f"baseline {path}: {len(part.baselined)} finding(s) baselined (not shown), {part.stale} stale "
               f"entr{'y' if part.stale == 1 else 'ies'}" +
               (f" (fixed or renamed: --write-baseline {path} drops them)" if part.stale else "") +
               (f"; {part.elsewhere} entr{'y' if part.elsewhere == 1 else 'ies'} of files not linted in this run "
                "(kept, not judged)" if part.elsewhere else ""))
    if fmt == "sarif":
        from ..report import _sarif

        both = sort_findings([*part.new, *part.baselined])
        known = {id(f) for f in part.baselined}
        document = _sarif.as_dict(both, rules, _version())
        run = document["runs"][0]
        for finding, result in zip(both, run["results"]):
            result["baselineState"] = "unchanged" if id(finding) in known else "new"
        run["properties"] = {"baseline": {"file": path, "baselined": len(part.baselined), "stale": part.stale}}
        sys.stdout.write(printable_json(document) + "\n")
    elif fmt == "json":
        from ..report import _json, repository_paths

        document = _json.as_dict(sort_findings(repository_paths(part.new)), rules, files, _version())
        document["summary"].update({"baselined": len(part.baselined), "staleBaselineEntries": part.stale})
        sys.stdout.write(printable_json(document) + "\n")
    else:
        render(part.new, fmt, rules=rules, stream=sys.stdout, files_checked=files, quiet=quiet)
    sys.stderr.write(summary + "\n")
    return part.new


def _version() -> str:
    from .._version import __version__

    return __version__
