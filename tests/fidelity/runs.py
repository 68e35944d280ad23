"""The oracle's verdicts of a fidelity run, as a file: the committed evidence of each release's full run.

A full run on release R writes ``tests/fidelity/runs/R.jsonl`` and the snapshot it took of its cluster,
``tests/fidelity/runs/cluster-R.yaml``; ``report`` lints the jobs again against them (docs/testing.md).  The
CI-subset run writes the same two files into the cache (:func:`tests.fidelity.runner.cache_dir`).

The verdicts file holds the oracle's side only, one JSON object a line: first the run's metadata
(``{"run": {...}}``), then one line a job, sorted by id, with the digest of the objects it judged and its verdict
(outcome, room, reason and the message cut to :data:`MESSAGE` characters).  lint's findings are not kept:
``report`` computes them with the checkout it runs.  The same verdicts give the same bytes.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from tests.fidelity.verdicts import Result

RUNS_DIR = Path(__file__).resolve().parent / "runs"
#: characters of a verdict's message kept: the report shows at most the first 160 of the upstream text
MESSAGE = 240
#: what a job's line holds
FIELDS = ("id", "digest", "outcome", "room", "reason", "message")


def verdicts_file(release: str, folder: Optional[Path] = None, prefix: str = "") -> Path:
    """The verdicts of the run on ``release`` in ``folder`` (the committed runs' by default)."""
    return (folder or RUNS_DIR) / f"{prefix}{release}.jsonl"


def snapshot_file(release: str, folder: Optional[Path] = None, prefix: str = "") -> Path:
    """The snapshot of the cluster of the run on ``release``, beside its verdicts."""
    return (folder or RUNS_DIR) / f"cluster-{prefix}{release}.yaml"


def _line(data: Dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def render(results: Sequence[Result], meta: Dict[str, Any]) -> str:
    """The file's text: ``meta`` (JSON values), then each result's verdict, sorted by id."""
    lines = [_line({"run": meta})]
    for result in sorted(results, key=lambda r: r.id):
        row = {name: getattr(result, name) for name in FIELDS}
        row["message"] = row["message"][:MESSAGE]
        lines.append(_line(row))
    return "\n".join(lines) + "\n"


def save(path: Path, results: Sequence[Result], meta: Dict[str, Any]) -> None:
    """Write the file whole (a temporary file beside it, renamed into place)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(render(results, meta), encoding="utf-8")
    partial.replace(path)


def load(path: Path) -> Tuple[List[Result], Dict[str, Any]]:
    """The verdicts (as results without lint's findings and without the job's parent, profile and mutation) and
    the run's metadata."""
    lines = path.read_text(encoding="utf-8").splitlines()
    meta = json.loads(lines[0])["run"]
    results = []
    for line in lines[1:]:
        row = json.loads(line)
        results.append(Result(row["id"], "", "", "", "", outcome=row["outcome"], room=row["room"],
                              reason=row["reason"], message=row["message"], digest=row["digest"]))
    return results, meta
