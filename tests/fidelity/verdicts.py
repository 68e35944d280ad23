"""Both verdicts on one job, and whether they agree at the error level.

Upstream says *bad* when it rejects an object, the operator marks the job
Failed, or the job never fits in a cluster where nothing else runs; *good*
when every pod runs.  ``lint`` says *bad* when it reports an error.  A job
still waiting for room when time ran out (``no-room-now``) is inconclusive.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

AGREE_GOOD, AGREE_BAD = "agree-good", "agree-bad"
MISSED = "missed"  # upstream bad, lint no error
FALSE_ERROR = "false-error"  # upstream good, lint error
INCONCLUSIVE = "inconclusive"
DISAGREEMENTS = (MISSED, FALSE_ERROR)


@dataclass
class LintFinding:
    rule: str
    severity: str
    message: str
    path: str
    hint: str = ""


@dataclass
class Result:
    id: str
    parent: str
    source: str
    profile: str
    mutation: str
    outcome: str = ""  # the oracle's: rejected | refused | running | pending
    room: str = ""
    reason: str = ""
    message: str = ""
    findings: List[LintFinding] = field(default_factory=list)
    digest: str = ""  # of the job's objects: a saved oracle verdict holds only for the same objects

    @property
    def upstream_bad(self) -> Optional[bool]:
        if self.outcome in ("rejected", "refused"):
            return True
        if self.outcome == "running":
            return False
        if self.outcome == "pending" and self.room == "never-fits":
            return True
        return None

    @property
    def errors(self) -> List[str]:
        return sorted({f.rule for f in self.findings if f.severity == "error"})

    @property
    def warnings(self) -> List[str]:
        return sorted({f.rule for f in self.findings if f.severity == "warning"})

    @property
    def verdict(self) -> str:
        bad = self.upstream_bad
        if bad is None:
            return INCONCLUSIVE
        if bad:
            return AGREE_BAD if self.errors else MISSED
        return FALSE_ERROR if self.errors else AGREE_GOOD

    def upstream_text(self) -> str:
        text = self.outcome + (f" ({self.room})" if self.room else "")
        detail = ": ".join(x for x in (self.reason, self.message) if x)
        return f"{text}: {detail}" if detail else text

    def as_dict(self) -> Dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Result":
        data = dict(data)
        data["findings"] = [LintFinding(**f) for f in data.get("findings") or []]
        return cls(**data)


def digest(objects: List[Dict[str, Any]]) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(objects, sort_keys=True).encode()).hexdigest()[:16]


def lint_findings(objects: List[Dict[str, Any]]) -> List[LintFinding]:
    """``lint`` through the Python API, with the CLI's defaults (strict schemas, no project config)."""
    import ascend_compile

    found = ascend_compile.lint_manifests(objects)
    return [LintFinding(f.rule, f.severity, f.message, f.field_path, f.hint) for f in found]
