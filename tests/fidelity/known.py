"""The known disagreements (``known.yaml``): which job ids, which direction, on which releases, and why."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Collection, List, Optional, Tuple

import yaml

from tests.simcluster.releases import DEFAULT, SUPPORTED

KNOWN_FILE = Path(__file__).resolve().parent / "known.yaml"
#: what an entry says the disagreement is
KINDS = {
    "lint-bug": "lint is wrong here (a rule to fix)",
    "simulation": "the simulated cluster differs from a real one here",
    "cluster": "depends on the cluster (what nodes, queues or software it has), which lint cannot know offline "
               "(against a snapshot of the cluster it must agree)",
    "oracle": "the oracle's verdict is not what a user sees",
    "investigate": "not understood yet: listed so CI stays green while it is looked into",
}


@dataclass(frozen=True)
class Known:
    match: str  # fnmatch pattern on the job id
    verdict: str  # missed | false-error
    kind: str
    reason: str
    #: the supported releases it holds for (every one unless the entry says ``releases:``)
    releases: Tuple[str, ...] = SUPPORTED
    #: a false-error entry with ``errors:`` explains a job only where every error lint reports is one of these
    #: rules: the mechanism is the rule's, whatever job carries it, and another rule's false error stays unexplained
    errors: Tuple[str, ...] = ()

    def covers(self, job_id: str, verdict: str, release: str = DEFAULT, errors: Collection[str] = ()) -> bool:
        if self.errors and not (errors and set(errors) <= set(self.errors)):
            return False
        return verdict == self.verdict and release in self.releases and fnmatch.fnmatchcase(job_id, self.match)


def release_span(value: Any, where: str) -> Tuple[str, ...]:
    """The supported releases an entry's ``releases:`` names: a list of releases, or a span ``"v6.0.0-v7.3.2"``
    (both ends included, in the order of tests/simcluster/releases.py); absent: every one."""
    if value is None:
        return SUPPORTED
    ends = [part.strip() for part in value.split("-")] if isinstance(value, str) else None
    names = ends or ([str(v) for v in value] if isinstance(value, list) else [])
    if not names or len(ends or ()) > 2 or any(n not in SUPPORTED for n in names):
        raise ValueError(f"{where}: releases {value!r}: a list of releases or a span 'first-last', each one of "
                         f"{', '.join(SUPPORTED)}")
    if ends:
        first, last = SUPPORTED.index(ends[0]), SUPPORTED.index(ends[-1])
        if first > last:
            raise ValueError(f"{where}: releases {value!r}: the span's first release comes after its last")
        return SUPPORTED[first:last + 1]
    return tuple(r for r in SUPPORTED if r in names)


def load(path: Path = KNOWN_FILE) -> List[Known]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    entries = [Known(str(e["match"]), str(e["verdict"]), str(e["kind"]), " ".join(str(e["reason"]).split()),
                     release_span(e.get("releases"), f"{path.name}: entry {e['match']!r}"),
                     tuple(str(rule) for rule in e.get("errors") or ()))
               for e in data]
    for entry in entries:
        if entry.kind not in KINDS or entry.verdict not in ("missed", "false-error"):
            raise ValueError(f"{path.name}: entry {entry.match!r}: kind must be one of {sorted(KINDS)}, "
                             f"verdict missed or false-error")
        if entry.errors and entry.verdict != "false-error":
            raise ValueError(f"{path.name}: entry {entry.match!r}: errors: names the rules of a false error; a "
                             "missed job has none")
    return entries


def explain(entries: List[Known], job_id: str, verdict: str, release: str = DEFAULT,
            errors: Collection[str] = ()) -> Optional[Known]:
    """The entry that explains ``job_id``'s ``verdict`` on ``release`` (the simulated cluster's default unless said),
    lint having reported ``errors`` (rule ids) on it."""
    return next((e for e in entries if e.covers(job_id, verdict, release, errors)), None)
