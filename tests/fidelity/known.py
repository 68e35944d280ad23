"""The known disagreements (``known.yaml``): which job ids, which direction, and why."""
from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from pathlib import Path
from typing import List, Optional

import yaml

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

    def covers(self, job_id: str, verdict: str) -> bool:
        return verdict == self.verdict and fnmatch.fnmatchcase(job_id, self.match)


def load(path: Path = KNOWN_FILE) -> List[Known]:
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    entries = [Known(str(e["match"]), str(e["verdict"]), str(e["kind"]), " ".join(str(e["reason"]).split()))
               for e in data]
    for entry in entries:
        if entry.kind not in KINDS or entry.verdict not in ("missed", "false-error"):
            raise ValueError(f"{path.name}: entry {entry.match!r}: kind must be one of {sorted(KINDS)}, "
                             f"verdict missed or false-error")
    return entries


def explain(entries: List[Known], job_id: str, verdict: str) -> Optional[Known]:
    return next((e for e in entries if e.covers(job_id, verdict)), None)
