"""``lint --fix`` / ``--diff``, and SARIF ``fixes``: loaded only when asked for (or for SARIF with a fixable
finding)."""
from __future__ import annotations

import difflib
import json
import os
import sys
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from ..findings import Finding


def read(path: str) -> str:
    """A file's text exactly as its bytes say (no newline translation); a BOM file is left alone."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(b"\xef\xbb\xbf"):
        raise ValueError("a byte-order mark: not rewritten")
    return data.decode("utf-8")


def fixes(findings: Sequence[Finding]) -> Dict[str, List[Any]]:
    from .. import autofix

    return autofix.plan(findings, read)


def diff(plan: Dict[str, List[Any]]) -> int:
    """``--diff``: the changes ``--fix`` would make, as a unified diff; 1 when there are any."""
    from .. import autofix

    for path, mine in plan.items():
        before = read(path)
        after = autofix.apply(before, mine)
        old, new = (path, path) if os.path.isabs(path) else (f"a/{path}", f"b/{path}")
        sys.stdout.writelines(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                                   fromfile=old, tofile=new))
    count = sum(len(m) for m in plan.values())
    sys.stderr.write(f"{count} finding(s) in {len(plan)} file(s) can be fixed; --fix makes the changes (a fix at a "
                     "place another one changes is shown and made in a further round)\n")
    return 1 if count else 0


#: at most this many rounds of --fix (fixes at the same place wait for the next round; each round lints again)
ROUNDS = 5


def fix(findings: Sequence[Finding], lint_again: Callable[[], Tuple[Any, int]]) -> Optional[Tuple[Any, int]]:
    """``--fix``: fix, lint again, and again while fixes are left; the last lint's findings and file count
    (None when nothing was fixed)."""
    count, changed = 0, set()  # type: int, Set[str]
    result: Optional[Tuple[Any, int]] = None
    for _ in range(ROUNDS):
        plan = fixes(findings)
        if not plan:
            break
        count += write(plan)
        changed.update(plan)
        result = lint_again()
        findings = result[0]
    sys.stderr.write(f"fixed {count} finding(s) in {len(changed)} file(s)\n")
    return result


def write(plan: Dict[str, List[Any]]) -> int:
    """Each file rewritten in place (the fixed spans only, atomically); the number of fixes."""
    from .. import autofix

    for path, mine in plan.items():
        after = autofix.apply(read(path), mine).encode("utf-8")
        temporary = f"{path}.ascend-compile-fix{os.getpid()}"
        with open(temporary, "wb") as handle:
            handle.write(after)
        os.chmod(temporary, os.stat(path).st_mode & 0o7777)
        os.replace(temporary, path)
    return sum(len(m) for m in plan.values())


def sarif(findings: Sequence[Finding], rules: Optional[Dict[str, Any]], plan: Dict[str, List[Any]]) -> None:
    """The SARIF report, each fixable result carrying its ``fixes``."""
    from .. import autofix
    from .._version import __version__
    from ..report import _sarif, sort_findings

    ordered = sort_findings(findings)
    document = _sarif.as_dict(ordered, rules, __version__)
    by_finding = {id(fix.finding): fix for mine in plan.values() for fix in mine}
    for finding, result in zip(ordered, document["runs"][0]["results"]):
        made = by_finding.get(id(finding))
        if made is not None:
            result["fixes"] = [autofix.sarif_fix(made, _sarif.artifact_uri(finding.file), read(finding.file))]
    json.dump(document, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
