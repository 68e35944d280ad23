"""``lint --fix`` / ``--diff``, and SARIF ``fixes``: loaded only when asked for (or for SARIF with a fixable
finding)."""
from __future__ import annotations

import json
import os
import stat
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from ..findings import Finding
from ..safeio.text import printable_json


def read(path: str) -> str:
    """A file's text exactly as its bytes say (no newline translation); a BOM file is left alone."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError("a byte-order mark: not rewritten")
    return data.decode("utf-8")


def check_roots(paths: Sequence[str]) -> None:
    """``--fix``/``--diff``: refuse (AC013) a path given that reaches through a link leading out of the repository
    (``k8s -> ../outside``), before anything there is read, diffed or rewritten."""
    from ..safeio.inside import check_inside

    for path in paths:
        if path != "-":
            check_inside(path)


#: per file, the text the fixes were planned on and the fixes (their offsets are into that text)
Plan = Dict[str, Tuple[str, List[Any]]]


def fixes(findings: Sequence[Finding]) -> Plan:
    from ..lint import autofix

    texts: Dict[str, str] = {}

    def remembered(path: str) -> str:
        texts[path] = read(path)
        return texts[path]

    return {path: (texts[path], mine) for path, mine in autofix.plan(findings, remembered).items()}


def diff(plan: Plan, fix_given: bool = False) -> int:
    """``--diff``: the changes ``--fix`` would make, as a unified diff, writing nothing (also with ``--fix``:
    ``fix_given``, as ruff's ``--fix --diff``); 1 when there are any."""
    from ..lint import autofix
    from ..textdiff import of_edits

    for path, (before, mine) in plan.items():
        old, new = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
        spans = [(fix.start, fix.end, len(fix.text)) for fix in mine]  # sorted by start (autofix.plan)
        sys.stdout.write(of_edits(before, autofix.apply(before, mine), spans, old, new))
    count = sum(len(m) for _text, m in plan.values())
    how = "--diff changed nothing; run without --diff to make the changes" if fix_given else "--fix makes the changes"
    sys.stderr.write(f"{count} finding(s) in {len(plan)} file(s) can be fixed; {how} (a fix at a "
                     "place another one changes is shown and made in a further round)\n")
    return 1 if count else 0


#: at most this many rounds of --fix (fixes at the same place wait for the next round; each round lints again)
ROUNDS = 5


def fix(findings: Sequence[Finding], lint_again: Callable[[], Tuple[Any, int]],
        roots: Sequence[str]) -> Optional[Tuple[Any, int]]:
    """``--fix``: fix, lint again, and again while fixes are left; the last lint's findings and file count
    (None when nothing was fixed).  Only files whose real path is inside ``roots`` (the paths on the command
    line) are written; raises :class:`~ascend_compile.errors.InputError` (AC013) for one that is not."""
    count, changed = 0, set()  # type: int, Set[str]
    result: Optional[Tuple[Any, int]] = None
    for _ in range(ROUNDS):
        plan = fixes(findings)
        if not plan:
            break
        count += write(plan, roots)
        changed.update(plan)
        result = lint_again()
        findings = result[0]
    sys.stderr.write(f"fixed {count} finding(s) in {len(changed)} file(s)\n")
    return result


def write(plan: Plan, roots: Sequence[str]) -> int:
    """Each file rewritten (the fixed spans only), all of them or none; the number of fixes.

    Every file is checked first: inside ``roots`` and reached through no link out of the repository, not a link (:mod:`ascend_compile.safeio.write` refuses
    one), and holding exactly the text the fixes were planned on (an edit since then moves the offsets)."""
    from ..lint import autofix
    from ..safeio.inside import check_inside, refusal
    from ..safeio.write import check_target, write_files

    out = []
    for path, (text, mine) in plan.items():
        check_inside(path, roots, "lint --fix changes only files inside the paths it is given: name the file's "
                                  "own path to fix it")
        check_target(path)  # a link is refused, not rewritten
        if not _unchanged(path, text.encode("utf-8")):
            raise refusal(path, "changed since it was linted: its fixes were planned on the old text, so it is "
                                "not changed", "run lint --fix again")
        out.append((path, autofix.apply(text, mine)))
    write_files(out)
    return sum(len(m) for _text, m in plan.values())


def _unchanged(path: str, planned: bytes) -> bool:
    """Whether the file (not a link, a FIFO or a device) still holds exactly ``planned``."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        return False
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return handle.read(len(planned) + 1) == planned


def sarif(findings: Sequence[Finding], rules: Optional[Dict[str, Any]], plan: Plan) -> None:
    """The SARIF report, each fixable result carrying its ``fixes``."""
    from ..lint import autofix
    from .._version import __version__
    from ..report import _sarif, sort_findings

    ordered = sort_findings(findings)
    document = _sarif.as_dict(ordered, rules, __version__)
    lines = {path: autofix.Lines(text) for path, (text, _mine) in plan.items()}
    by_finding = {id(fix.finding): (fix, lines[path]) for path, (_text, mine) in plan.items() for fix in mine}
    for finding, result in zip(ordered, document["runs"][0]["results"]):
        made = by_finding.get(id(finding))
        if made is not None:
            where = result["locations"][0]["physicalLocation"]["artifactLocation"]
            result["fixes"] = [autofix.sarif_fix(made[0], where, made[1])]
    sys.stdout.write(printable_json(document) + "\n")
