"""Reporters shared by ``validate``, ``lint`` and ``compile``.

:func:`render` writes a list of :class:`~ascend_compile.findings.Finding` in one of
four formats; each format lives in its own module, imported only when used:

``text``    grouped by file: ``file:line:col: severity: message [ID]``, then
            the field path and hint on indented lines, and a summary line.
            Coloured only when the stream is a terminal and ``NO_COLOR`` is
            unset (``color=True/False`` overrides).
``json``    a stable document, described in :mod:`ascend_compile.report._json`.
``sarif``   SARIF 2.1.0 with ``tool.driver.rules`` metadata, for code-scanning
            uploads.
``github``  GitHub Actions workflow commands (``::error file=...::message``),
            which show up as annotations on the pull request.

Rule metadata comes from the rule catalogue (:mod:`ascend_compile.catalogue`):
``rules`` (a mapping of rule ID to :class:`RuleInfo`, e.g. :func:`catalogue_rules`
for every rule, as ``lint`` passes) says which rules a SARIF run describes; IDs
it lacks fall back to the input and schema rules (:func:`default_rules`), and
any other ID seen gets its catalogue entry.
"""
from __future__ import annotations

import importlib
import os
import sys
from typing import TYPE_CHECKING, Dict, Iterable, List, Mapping, Optional, TextIO

from ..findings import ERROR, INFO, WARNING, Finding
from ..records import NamedTuple

if TYPE_CHECKING:
    from ..catalogue import Entry

FORMATS = ("text", "json", "sarif", "github")
_MODULES = {"text": "_text", "json": "_json", "sarif": "_sarif", "github": "_github"}

TOOL_NAME = "ascend-compile"
INFORMATION_URI = "https://github.com/ascend-compile/ascend-compile"


class RuleInfo(NamedTuple):
    """What a reporter needs to know about one rule."""

    id: str
    name: str
    severity: str = ERROR
    summary: str = ""
    rationale: str = ""
    hint: str = ""
    help_uri: str = ""


def rule_info(entry: "Entry") -> RuleInfo:
    """A catalogue entry as the reporters take it."""
    from ..lint.registry import documentation, summary

    return RuleInfo(id=entry.id, name=entry.name, severity=entry.severity, summary=summary(entry),
                    rationale=documentation(entry), hint=entry.hint, help_uri=entry.help_uri)


def catalogue_rules(origins: Optional[Iterable[str]] = None) -> Dict[str, RuleInfo]:
    """Every rule of the catalogue (or those of the given origins), for SARIF's rule list."""
    from ..catalogue import entries

    wanted = None if origins is None else set(origins)
    return {e.id: rule_info(e) for e in entries() if wanted is None or e.origin in wanted}


def default_rules() -> Dict[str, RuleInfo]:
    """Metadata for the input-error (AC00x) and schema (AC1xx) rules."""
    from ..catalogue import INPUT, SCHEMA

    return catalogue_rules((INPUT, SCHEMA))


def merged_rules(findings: Iterable[Finding], rules: Optional[Mapping[str, RuleInfo]]) -> Dict[str, RuleInfo]:
    """``rules`` plus defaults, plus the catalogue's entry (or a bare one) for any other rule ID seen in ``findings``."""
    from ..catalogue import get

    merged = default_rules()
    if rules:
        merged.update(rules)
    for finding in findings:
        if finding.rule not in merged:
            entry = get(finding.rule)
            merged[finding.rule] = rule_info(entry) if entry and entry.id == finding.rule \
                else RuleInfo(finding.rule, finding.rule, finding.severity)
    return merged


def sort_findings(findings: Iterable[Finding]) -> List[Finding]:
    return sorted(findings, key=lambda f: f.sort_key())


def count(findings: Iterable[Finding]) -> Dict[str, int]:
    counts = {ERROR: 0, WARNING: 0, INFO: 0, "input": 0}
    for finding in findings:
        counts[finding.severity] = counts.get(finding.severity, 0) + 1
        if finding.input_error:
            counts["input"] += 1
    return counts


def repository_root() -> Optional[str]:
    """The root of the repository the command runs in (None outside one)."""
    from ..safeio.inside import repository_root as find

    return find(os.getcwd())


def in_repository(path: str, root: Optional[str]) -> Optional[str]:
    """``path`` relative to the repository ``root``, with ``/`` separators; None when it is not inside it (or is
    standard input, or there is no root)."""
    if not (root and path and path != "<stdin>"):
        return None
    absolute = os.path.abspath(path)
    if not absolute.startswith(root.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(absolute, root).replace(os.sep, "/")


def repository_paths(findings: Iterable[Finding]) -> List[Finding]:
    """The findings with each file inside the repository named relative to its root, whatever folder the command
    ran from (GitHub annotations and CI logs need that); files elsewhere keep the name they were given."""
    root = repository_root()
    shown = []
    for finding in findings:
        inside = in_repository(finding.file, root)
        shown.append(finding if inside is None else finding.at(inside, finding.line, finding.column))
    return shown


def render(findings: Iterable[Finding], fmt: str = "text", rules: Optional[Mapping[str, RuleInfo]] = None,
           stream: Optional[TextIO] = None, *, files_checked: Optional[int] = None,
           color: Optional[bool] = None, quiet: bool = False, tool_version: Optional[str] = None) -> None:
    """Write ``findings`` to ``stream`` (stdout by default) in format ``fmt``."""
    if fmt not in _MODULES:
        raise ValueError(f"unknown report format {fmt!r}; choose one of {', '.join(FORMATS)}")
    out = sys.stdout if stream is None else stream
    if tool_version is None:
        from .._version import __version__ as tool_version
    module = importlib.import_module(f"{__name__}.{_MODULES[fmt]}")
    if fmt != "sarif":  # SARIF names the files relative to the root itself, with its uriBaseId
        findings = repository_paths(findings)
    module.render(sort_findings(findings), rules=rules, stream=out, files_checked=files_checked,
                  color=color, quiet=quiet, tool_version=tool_version)


__all__ = ["FORMATS", "RuleInfo", "catalogue_rules", "default_rules", "merged_rules", "render", "repository_paths", "repository_root", "in_repository", "rule_info",
           "sort_findings", "count"]
