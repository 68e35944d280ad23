"""JSON report.  The shape is stable; new keys may be added, none removed or renamed::

    {
      "schemaVersion": 1,
      "tool": {"name": "ascend-compile", "version": "0.1.0"},
      "summary": {"filesChecked": 3, "errors": 1, "warnings": 0, "notes": 0, "inputErrors": 0,
                  "filesNotChecked": 0},
      "findings": [
        {
          "rule": "AC101",                  # rule ID
          "ruleName": "unknown-field",
          "severity": "error",              # error | warning | info
          "message": "unknown field \\"replicaSpec\\"",
          "hint": "did you mean \\"replicaSpecs\\"?",   # "" when none
          "file": "job.yaml",               # "<stdin>" for standard input
          "line": 7, "column": 3,           # 1-based; 0 when unknown
          "path": "spec.replicaSpec",       # kubectl-style field path; "" for the whole document
          "pathElements": ["spec", "replicaSpec"],
          "object": "AscendJob/default/resnet",   # "team-a/x (no kind)" without a kind; "" when unknown
          "inputError": false               # true: the input could not be read (exit code 2)
        }
      ]
    }

Findings are sorted by file, line, column and rule.  Text is kept as it is but for the characters that
are not printable (controls, line and paragraph separators, bidirectional marks), which are written as
``\\uXXXX`` escapes: the same strings once parsed, and none reaches a terminal raw.  ``filesChecked`` is
``null`` when the caller did not count files; ``filesNotChecked`` counts the files left out because a
kustomization merges them into objects (AC014).
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional, TextIO

from ..catalogue import KUSTOMIZE_PART_NOT_CHECKED
from ..findings import ERROR, INFO, WARNING, Finding
from ..safeio.text import printable_json
from . import TOOL_NAME, RuleInfo, count, merged_rules

SCHEMA_VERSION = 1


def as_dict(findings: List[Finding], rules: Optional[Mapping[str, RuleInfo]] = None, files_checked: Optional[int] = None,
            tool_version: str = "") -> Dict[str, Any]:
    info = merged_rules(findings, rules)
    counts = count(findings)
    return {
        "schemaVersion": SCHEMA_VERSION,
        "tool": {"name": TOOL_NAME, "version": tool_version},
        "summary": {"filesChecked": files_checked, "errors": counts[ERROR], "warnings": counts[WARNING],
                    "notes": counts[INFO], "inputErrors": counts["input"],
                    "filesNotChecked": len({f.file for f in findings if f.rule == KUSTOMIZE_PART_NOT_CHECKED})},
        "findings": [
            {
                "rule": f.rule,
                "ruleName": info[f.rule].name,
                "severity": f.severity,
                "message": f.message,
                "hint": f.hint,
                "file": f.file,
                "line": f.line,
                "column": f.column,
                "path": f.field_path,
                "pathElements": list(f.path),
                "object": f.obj,
                "inputError": f.input_error,
            }
            for f in findings
        ],
    }


def render(findings: List[Finding], *, stream: TextIO, rules: Optional[Mapping[str, RuleInfo]] = None,
           files_checked: Optional[int] = None, color: Optional[bool] = None, quiet: bool = False,
           tool_version: str = "") -> None:
    stream.write(printable_json(as_dict(findings, rules, files_checked, tool_version)) + "\n")
