"""SARIF 2.1.0 report (for GitHub code scanning and other SARIF viewers).

One run; ``tool.driver.rules`` lists every known rule (input, schema and any
the caller passes), each with id, name, short and full description, help
text and default level.  Results point at the file: inside a repository (the
root ``.git`` or ``.ascend-compile-root`` marks, as for the project config) a
URI relative to its root with ``uriBaseId`` ``%SRCROOT%``, whatever folder lint
ran from, so code scanning maps it to the file; elsewhere a relative URI when
the path is relative, a ``file://`` URI otherwise; and, when known, the line and
column.  ``partialFingerprints`` hold a hash of rule, file, object and field
path, so a finding keeps its identity when lines move.
"""
from __future__ import annotations

import hashlib
import os
from typing import Any, Dict, List, Mapping, Optional, TextIO
from urllib.parse import quote

from ..findings import ERROR, INFO, WARNING, Finding
from ..safeio.text import printable_json
from . import INFORMATION_URI, TOOL_NAME, RuleInfo, in_repository, merged_rules, repository_root

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {ERROR: "error", WARNING: "warning", INFO: "note"}


def artifact_uri(path: str) -> str:
    if not path:
        return "unknown"
    if path == "<stdin>":
        return "stdin"
    if os.path.isabs(path):
        posix = path.replace(os.sep, "/")
        return "file://" + quote(posix if posix.startswith("/") else "/" + posix)
    return quote(path.replace(os.sep, "/"))


#: the base of every repository-relative URI (the name GitHub code scanning resolves to the checkout)
SRCROOT = "%SRCROOT%"


def artifact_location(path: str, root: Optional[str]) -> Dict[str, Any]:
    """A SARIF artifactLocation: relative to the repository ``root`` (with its uriBaseId) when the file is in it."""
    inside = in_repository(path, root)
    if inside is not None:
        return {"uri": quote(inside), "uriBaseId": SRCROOT}
    return {"uri": artifact_uri(path)}


def _rule_descriptor(rule: RuleInfo) -> Dict[str, Any]:
    rationale = rule.rationale
    if rule.summary and rationale.startswith(rule.summary):  # a catalogue entry's documentation opens with it
        rationale = rationale[len(rule.summary):].strip()
    full = " ".join(part for part in (rule.summary, rationale) if part) or rule.name
    help_text = full + (f" Fix: {rule.hint}" if rule.hint else "")
    descriptor = {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "fullDescription": {"text": full},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": _LEVEL.get(rule.severity, "warning")},
    }
    if rule.help_uri:
        descriptor["helpUri"] = rule.help_uri
    return descriptor


def _fingerprint(finding: Finding) -> str:
    key = "\x1f".join((finding.rule, finding.file, finding.obj, finding.field_path,
                       "" if finding.path else finding.message))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def as_dict(findings: List[Finding], rules: Optional[Mapping[str, RuleInfo]] = None, tool_version: str = "") -> Dict[str, Any]:
    info = merged_rules(findings, rules)
    root = repository_root()
    ordered = sorted(info)
    index: Dict[str, int] = {rule_id: i for i, rule_id in enumerate(ordered)}
    results = []
    for f in findings:
        text = f.message
        if f.path:
            text += f" (at {f.field_path})"
        if f.hint:
            text += f". Hint: {f.hint}"
        location: Dict[str, Any] = {"artifactLocation": artifact_location(f.file, root)}
        if f.line > 0:
            region = {"startLine": f.line}
            if f.column > 0:
                region["startColumn"] = f.column
            location["region"] = region
        result = {
            "ruleId": f.rule,
            "ruleIndex": index[f.rule],
            "level": _LEVEL.get(f.severity, "warning"),
            "message": {"text": text},
            "locations": [{"physicalLocation": location}],
            "partialFingerprints": {"ascendCompileFinding/v1": _fingerprint(f)},
        }
        if f.path or f.obj:
            result["properties"] = {"fieldPath": f.field_path, "object": f.obj}
        results.append(result)
    run: Dict[str, Any] = {
        "tool": {"driver": {
            "name": TOOL_NAME,
            "version": tool_version,
            "informationUri": INFORMATION_URI,
            "rules": [_rule_descriptor(info[rule_id]) for rule_id in ordered],
        }},
    }
    if root:  # described, not spelled out: the same report on every machine, and the consumer knows its checkout
        run["originalUriBaseIds"] = {SRCROOT: {"description": {"text": "the root of the repository linted"}}}
    run.update({"columnKind": "unicodeCodePoints", "results": results})
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


def render(findings: List[Finding], *, stream: TextIO, rules: Optional[Mapping[str, RuleInfo]] = None,
           files_checked: Optional[int] = None, color: Optional[bool] = None, quiet: bool = False,
           tool_version: str = "") -> None:
    stream.write(printable_json(as_dict(findings, rules, tool_version)) + "\n")  # no control character raw
