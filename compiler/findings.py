"""The one record every check produces, and the exit-code policy built on it.

A :class:`Finding` carries a rule ID, a severity, a plain-words message, an
optional fix hint, the field path inside the object, and the source location
(file, 1-based line and column) of the YAML node it is about.  Schema errors,
lint rules, compile-time refusals and input errors all become Findings, so
every reporter (text, json, sarif, github) handles one shape.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence, Tuple, Union

from .records import record

PathElement = Union[str, int]
Path = Tuple[PathElement, ...]

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)
_RANK = {INFO: 0, WARNING: 1, ERROR: 2}

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3
#: the ``extra`` entry that marks a finding as our own bug (a rule that crashed): exit code 3, never 1
INTERNAL = ("internal", "true")
#: the ``extra`` key of the value a rule says ``lint --fix`` writes (when the rule knows it and the file does not)
FIX_VALUE = "fix"


def describe_object(kind: object, namespace: object, name: object) -> str:
    """How a finding names its object (``Finding.obj``): ``Kind/namespace/name``, without the parts not set;
    ``namespace/name (no kind)`` for an object without a kind (a snippet, a manifest that lost its first
    lines), and "" for one with neither: its file and line say where it is."""
    where = [str(part) for part in (namespace, name) if part]
    if isinstance(kind, str) and kind:
        return "/".join([kind, *where])
    return f"{'/'.join(where)} (no kind)" if name else ""


def describe_document(data: Any) -> str:
    """:func:`describe_object` of a parsed document (its ``kind`` and ``metadata``; "" for a non-mapping)."""
    if not isinstance(data, dict):
        return ""
    meta = data.get("metadata")
    if not isinstance(meta, dict):
        meta = {}
    return describe_object(data.get("kind"), meta.get("namespace"), meta.get("name") or meta.get("generateName"))


def format_path(path: Sequence[PathElement]) -> str:
    """Render a field path as kubectl does: ``spec.containers[0].image``."""
    out = []
    for element in path:
        if isinstance(element, int):
            out.append(f"[{element}]")
        elif out and ("." in element or "/" in element or " " in element or not element):
            out.append(f"[{element!r}]")
        elif not out:
            out.append(element)
        else:
            out.append("." + element)
    return "".join(out)


@record(frozen=True)
class Finding:
    rule: str
    severity: str
    message: str
    path: Path = ()
    hint: str = ""
    file: str = ""
    line: int = 0
    column: int = 0
    # Which object the finding is about, e.g. "AscendJob/default/resnet".
    obj: str = ""
    # True for problems reading the input itself (exit code 2, not 1).
    input_error: bool = False
    extra: Tuple[Tuple[str, str], ...] = ()
    # The object's apiVersion: with ``obj``, which object it is (a Volcano Job and a batch/v1 Job of one name
    # are two); not printed, a baseline's identity.
    api_version: str = ""

    @property
    def internal(self) -> bool:
        """A bug in ascend-compile, reported as a finding so the other findings still show."""
        return INTERNAL in self.extra

    @property
    def field_path(self) -> str:
        return format_path(self.path)

    def at(self, file: str, line: int, column: int) -> "Finding":
        from dataclasses import replace

        return replace(self, file=file, line=line, column=column)

    def sort_key(self) -> Tuple[str, int, int, str, str]:
        return sort_key(self)


def sort_key(finding: "Finding") -> Tuple[str, int, int, str, str]:
    """The order findings are reported in: file, line, column, rule, message."""
    return (finding.file, finding.line, finding.column, finding.rule, finding.message)


def severity_at_least(severity: str, threshold: str) -> bool:
    return _RANK[severity] >= _RANK[threshold]


def exit_code(findings: Iterable[Finding], fail_on: str = ERROR) -> int:
    """0 clean, 1 findings at or above ``fail_on``, 2 when any input could not be read, 3 for our own bug."""
    code = EXIT_CLEAN
    for finding in findings:
        if finding.internal:
            return EXIT_INTERNAL
        if finding.input_error:
            code = EXIT_INPUT
        elif code != EXIT_INPUT and severity_at_least(finding.severity, fail_on):
            code = EXIT_FINDINGS
    return code
