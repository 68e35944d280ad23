"""Human-readable report: findings grouped by file, then a summary line."""
from __future__ import annotations

import os
from typing import List, Mapping, Optional, TextIO

from ..catalogue import KUSTOMIZE_PART_NOT_CHECKED, OUTPUT_ERROR
from ..findings import ERROR, INFO, WARNING, Finding
from ..safeio.text import printable
from . import RuleInfo, count

_COLORS = {ERROR: "\033[1;31m", WARNING: "\033[1;33m", INFO: "\033[1;34m"}
_BOLD, _DIM, _RESET = "\033[1m", "\033[2m", "\033[0m"


def use_color(stream: TextIO, color: Optional[bool]) -> bool:
    """``color`` when given (``--color always/never``); else off when ``NO_COLOR`` is set and not empty
    (no-color.org), on when ``FORCE_COLOR`` is (force-color.org: CI logs), else on a terminal only."""
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):
        return False


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def summary(findings: List[Finding], files_checked: Optional[int]) -> str:
    counts = count(findings)
    checked = f" ({_plural(files_checked, 'file')} checked)" if files_checked is not None else ""
    if not findings:
        return f"No problems found{checked}."
    parts = []
    if counts[ERROR]:
        parts.append(_plural(counts[ERROR], "error"))
    if counts[WARNING]:
        parts.append(_plural(counts[WARNING], "warning"))
    if counts[INFO]:
        parts.append(_plural(counts[INFO], "note"))
    files = len({f.file for f in findings})
    text = ", ".join(parts) + f" in {_plural(files, 'file')}{checked}."
    unwritten = sum(1 for f in findings if f.rule == OUTPUT_ERROR)  # an input error too (exit code 2)
    if counts["input"] - unwritten:
        text += f" {_plural(counts['input'] - unwritten, 'input')} could not be read."
    if unwritten:
        text += f" {_plural(unwritten, 'output')} could not be written."
    not_checked = len({f.file for f in findings if f.rule == KUSTOMIZE_PART_NOT_CHECKED})
    if not_checked:  # never silently clean: a file a kustomization named was not linted
        text += (f" {_plural(not_checked, 'file')} NOT CHECKED: a kustomization merges "
                 f"{'it' if not_checked == 1 else 'them'} into objects (AC014).")
    return text


def render(findings: List[Finding], *, stream: TextIO, rules: Optional[Mapping[str, RuleInfo]] = None,
           files_checked: Optional[int] = None, color: Optional[bool] = None, quiet: bool = False,
           tool_version: str = "") -> None:
    paint = use_color(stream, color)

    def c(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if paint else text

    lines: List[str] = []
    previous = None
    for finding in findings:
        if previous is not None and finding.file != previous:
            lines.append("")
        previous = finding.file
        # file names, messages, field paths, object names and hints quote the input (YAML keys and values,
        # names from a cluster's reply): line breaks and control characters in them are escaped, so they can
        # neither start a line of their own (a forged summary) nor drive the terminal. No message is
        # written on several lines.
        where = printable(finding.file) if finding.file else "ascend-compile"
        if finding.line:
            where += f":{finding.line}:{finding.column}"
        severity = c(_COLORS.get(finding.severity, ""), finding.severity)
        message = printable(finding.message)
        lines.append(f"{c(_BOLD, where)}: {severity}: {message} {c(_DIM, '[' + finding.rule + ']')}")
        if finding.path:
            at = printable(finding.field_path) + (f"  ({printable(finding.obj)})" if finding.obj else "")
            lines.append(f"    at: {at}")
        elif finding.obj:
            lines.append(f"    in: {printable(finding.obj)}")
        if finding.hint:
            lines.append(f"    hint: {printable(finding.hint)}")
    if not quiet:
        if lines:
            lines.append("")
        lines.append(summary(findings, files_checked))
    if lines:
        stream.write("\n".join(lines) + "\n")
