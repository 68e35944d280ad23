"""``lint --fix`` / ``--diff``: mechanical, safe fixes, made where each finding is, the rest of the file untouched.

A fix replaces the exact characters of one YAML node and nothing else, so comments, quoting, indentation and
key order elsewhere stay byte for byte.  Only fixes whose meaning is certain are made:

* AC102 (wrong-type) on a plain scalar where the schema wants a string (``value: 600``, a label
  ``version: 1.10``): the text as written, double-quoted, so the string is exactly what the user typed
  (``"1.10"``, not the float's ``1.1``).

The same fixes are offered in SARIF (``fixes``), for viewers that apply them.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .catalogue import WRONG_TYPE
from .findings import Finding

#: the rules this module can fix (the lint path asks before importing it)
FIXABLE = (WRONG_TYPE,)
_SCALAR_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                "tag:yaml.org,2002:null")
_WANTS_STRING = "expected a string"


class Fix:
    """Replace text[start:end] (1-based line/column from (line, column) to (end_line, end_column)) by ``text``."""

    def __init__(self, finding: Finding, start: int, end: int, span: Tuple[int, int, int, int], text: str):
        self.finding, self.start, self.end, self.text = finding, start, end, text
        self.line, self.column, self.end_line, self.end_column = span

    @property
    def description(self) -> str:
        return f"quote the value as a string: {self.text}"


def _walk(node: Any, path: Sequence[Any]) -> Any:
    import yaml

    for part in path:
        if isinstance(node, yaml.MappingNode):
            node = next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == part), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            return None
        if node is None:
            return None
    return node


def _fix_for(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    import yaml

    if finding.rule != WRONG_TYPE or _WANTS_STRING not in finding.message or not finding.path:
        return None
    for doc in docs:
        node = _walk(doc.node, finding.path)
        if not isinstance(node, yaml.ScalarNode) or node.style not in (None, "") or node.tag not in _SCALAR_TAGS:
            continue
        start, end = node.start_mark, node.end_mark
        if (start.line + 1, start.column + 1) != (finding.line, finding.column):
            continue
        written = text[start.index:end.index]
        if not written or "\n" in written:
            return None
        return Fix(finding, start.index, end.index, (start.line + 1, start.column + 1, end.line + 1, end.column + 1),
                   json.dumps(written))
    return None


def plan(findings: Sequence[Finding], read: Any) -> Dict[str, List[Fix]]:
    """The fixes per file; ``read(path)`` gives a file's text (files that cannot be read get none)."""
    from .yamlio import load_documents

    wanted: Dict[str, List[Finding]] = {}
    for finding in findings:
        if finding.rule in FIXABLE and finding.file and not finding.file.startswith("<"):
            wanted.setdefault(finding.file, []).append(finding)
    out: Dict[str, List[Fix]] = {}
    for path, mine in sorted(wanted.items()):
        try:
            text = read(path)
            docs = load_documents(text, path)
        except Exception:  # noqa: BLE001 - a file that does not read again is simply not fixed
            continue
        fixes = [fix for fix in (_fix_for(f, text, docs) for f in mine) if fix is not None]
        if fixes:
            out[path] = sorted(fixes, key=lambda f: f.start)
    return out


def apply(text: str, fixes: Sequence[Fix]) -> str:
    """``text`` with the fixes made (they never overlap: each is one scalar)."""
    out = text
    for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
        out = out[:fix.start] + fix.text + out[fix.end:]
    return out


def sarif_fix(fix: Fix, uri: str) -> Dict[str, Any]:
    return {"description": {"text": fix.description},
            "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": [{
                "deletedRegion": {"startLine": fix.line, "startColumn": fix.column, "endLine": fix.end_line,
                                  "endColumn": fix.end_column},
                "insertedContent": {"text": fix.text}}]}]}
