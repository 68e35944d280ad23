"""GitHub Actions workflow commands: one ``::error``/``::warning``/``::notice`` line per finding.

Escaping follows the Actions runner: in the message ``%``, CR and LF become
``%25``, ``%0D`` and ``%0A``; property values (file, title) also escape
``:`` and ``,`` as ``%3A`` and ``%2C``.  Before that, every piece that can quote the
input (file name, message, field path, hint) has its control characters and line
breaks written as Python escapes (:func:`~ascend_compile.safeio.text.printable`):
the runner passes an ESC through to the log, and a line break of the input would
otherwise show as a line of the annotation.  The only ``%0A`` left are the ones
between the message, its ``at:`` and its ``hint:``.
"""
from __future__ import annotations

from typing import List, Mapping, Optional, TextIO

from ..findings import ERROR, INFO, WARNING, Finding
from ..safeio.text import printable
from . import RuleInfo, merged_rules
from ._text import summary

_COMMAND = {ERROR: "error", WARNING: "warning", INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(finding: Finding, rule_name: str) -> str:
    props = []
    if finding.file:
        props.append(f"file={escape_property(printable(finding.file))}")
    if finding.line:
        props.append(f"line={finding.line}")
        if finding.column:
            props.append(f"col={finding.column}")
    props.append(f"title={escape_property(printable(f'{finding.rule} {rule_name}'))}")
    body = printable(finding.message)
    if finding.path:
        body += f"\nat: {printable(finding.field_path)}"
    if finding.hint:
        body += f"\nhint: {printable(finding.hint)}"
    return f"::{_COMMAND.get(finding.severity, 'warning')} {','.join(props)}::{escape_data(body)}"


def render(findings: List[Finding], *, stream: TextIO, rules: Optional[Mapping[str, RuleInfo]] = None,
           files_checked: Optional[int] = None, color: Optional[bool] = None, quiet: bool = False,
           tool_version: str = "") -> None:
    info = merged_rules(findings, rules)
    lines = [command(f, info[f.rule].name) for f in findings]
    if not quiet:
        lines.append(summary(findings, files_checked))
    if lines:
        stream.write("\n".join(lines) + "\n")
