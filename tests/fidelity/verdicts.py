"""Both verdicts on one job, and whether they agree at the error level.

Upstream says *bad* when it rejects an object, the operator marks the job
Failed, the job never fits in a cluster where nothing else runs, or judged
alone it takes the cluster down (``crashed``: the v6.0.0 scheduler's nil
pointer; a real scheduler crash-loops while the job exists); *good*
when every pod runs.  ``lint`` says *bad* when it reports an error.  A job
still waiting for room when time ran out (``no-room-now``) is inconclusive.

``lint`` judges each job twice: offline (``findings``, the verdict the
report's tables count) and against a snapshot of the oracle's cluster
(``cluster_findings``, ``lint --cluster-snapshot``: the AC9xx rules, which
answer what only the cluster can).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Dict, List, Optional

AGREE_GOOD, AGREE_BAD = "agree-good", "agree-bad"
MISSED = "missed"  # upstream bad, lint no error
FALSE_ERROR = "false-error"  # upstream good, lint error
INCONCLUSIVE = "inconclusive"
DISAGREEMENTS = (MISSED, FALSE_ERROR)
#: the outcome of a job that, judged alone, takes a process of the oracle's cluster down (runner.Clusters): bad, as
#: on a real cluster the scheduler crash-loops while the job exists and nothing is scheduled
CRASHED = "crashed"


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
    outcome: str = ""  # the oracle's: rejected | refused | running | pending; or CRASHED
    room: str = ""
    reason: str = ""
    message: str = ""
    findings: List[LintFinding] = field(default_factory=list)
    digest: str = ""  # of the job's objects: a saved oracle verdict holds only for the same objects
    #: lint's findings against the snapshot of the cluster the oracle judged on; None: not linted so
    cluster_findings: Optional[List[LintFinding]] = None

    @property
    def upstream_bad(self) -> Optional[bool]:
        if self.outcome in ("rejected", "refused", CRASHED):
            return True
        if self.outcome == "running":
            return False
        if self.outcome == "pending" and self.room == "never-fits":
            return True
        return None

    @property
    def errors(self) -> List[str]:
        return _errors(self.findings)

    @property
    def cluster_errors(self) -> List[str]:
        return _errors(self.cluster_findings or [])

    @property
    def warnings(self) -> List[str]:
        return sorted({f.rule for f in self.findings if f.severity == "warning"})

    @property
    def verdict(self) -> str:
        return _verdict(self.upstream_bad, self.errors)

    @property
    def cluster_verdict(self) -> str:
        """The verdict of lint against the cluster snapshot; "" when the job was not linted so."""
        return "" if self.cluster_findings is None else _verdict(self.upstream_bad, self.cluster_errors)

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
        if data.get("cluster_findings") is not None:
            data["cluster_findings"] = [LintFinding(**f) for f in data["cluster_findings"]]
        return cls(**data)


def _errors(findings: List[LintFinding]) -> List[str]:
    return sorted({f.rule for f in findings if f.severity == "error"})


def _verdict(upstream_bad: Optional[bool], errors: List[str]) -> str:
    if upstream_bad is None:
        return INCONCLUSIVE
    if upstream_bad:
        return AGREE_BAD if errors else MISSED
    return FALSE_ERROR if errors else AGREE_GOOD


def digest(objects: List[Dict[str, Any]]) -> str:
    import hashlib
    import json

    return hashlib.sha256(json.dumps(objects, sort_keys=True).encode()).hexdigest()[:16]


def lint_findings(objects: List[Dict[str, Any]], inventory: Any = None, release: str = "") -> List[LintFinding]:
    """``lint`` as ``lint --mindcluster <the oracle's release> --volcano-webhook`` runs it, with the CLI's defaults
    (strict schemas, no project config); with an ``inventory`` (a snapshot read as ``--cluster-snapshot`` reads it),
    as ``lint --cluster-snapshot`` runs: the cluster-aware rules on, the schemas of the cluster's Volcano release when
    lint bundles them.  (The engine's call: the public API takes no target and no snapshot.)  ``release``: the oracle's
    (tests/simcluster/releases.py; "" for its default)."""
    from ascend_compile.lint.oneshot import lint_objects
    from tests.simcluster.releases import DEFAULT, lint_target

    # judged for what the oracle's cluster runs (its release, Volcano's admission webhook registered)
    target = lint_target(release or DEFAULT)
    if inventory is None:
        found = lint_objects(objects, target=target)
    else:
        found = lint_objects(objects, inventory=inventory, volcano_version=inventory.bundled_volcano(),
                             target=target)
    return [LintFinding(f.rule, f.severity, f.message, f.field_path, f.hint) for f in found]
