"""Issue 35's acceptance: every disagreement that ``tests/fidelity/known.yaml`` explains as ``cluster`` (one only the
cluster can settle; the jobs of the last full run, docs/fidelity.md) is predicted by the cluster-aware lint, both from ``--cluster`` (the live simulated cluster) and from a
snapshot of it (``cluster snapshot``), with an error of the AC9xx rules; without an inventory lint says none.

The cluster is the one the fidelity run judges on: the simulated nodes, the queues the jobs name (but the one
the queue-unknown mutation invents), and the jobs' namespaces (a cluster a job runs on has its namespace)."""
from __future__ import annotations

import fnmatch
import json
import re
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.fidelity.generator import generate
from tests.fidelity.known import load as load_known
from tests.fidelity.runner import prepare
from tests.simcluster.cluster import SimCluster

FIDELITY = ROOT / "docs" / "fidelity.md"


def _cluster_jobs() -> List[Any]:
    """The jobs of the last full fidelity run (docs/fidelity.md) that upstream refused or never scheduled and lint
    missed, for a reason ``known.yaml`` calls ``cluster``: each entry's own disagreements (its pattern may match
    jobs upstream runs, e.g. a mutation that takes the label away)."""
    entries = [e for e in load_known() if e.kind == "cluster" and e.verdict == "missed"]
    assert entries, "known.yaml has no cluster entries"
    rows = re.findall(r"^\| `([^`]+)` \| missed \|.*\| cluster: ", FIDELITY.read_text(encoding="utf-8"), re.MULTILINE)
    for entry in entries:  # every entry explains a disagreement of the run, or it proves nothing here
        assert any(fnmatch.fnmatchcase(job_id, entry.match) for job_id in rows), entry.match
    jobs = {job.id: job for job in generate().jobs}
    missing = sorted(set(rows) - set(jobs))
    assert not missing, f"docs/fidelity.md names jobs the generator no longer makes: {missing}"
    return [jobs[job_id] for job_id in rows]


def _write(jobs: List[Any], folder: Path) -> Dict[str, str]:
    """One file per job, each in a folder of its own (a file beside a job's counts as applied with it: AC501 and
    AC915 look there); its id by file name."""
    ids = {}
    for number, job in enumerate(jobs):
        path = folder / f"job-{number:03d}" / "job.yaml"
        path.parent.mkdir()
        path.write_text(yaml.safe_dump_all(job.objects, sort_keys=False), encoding="utf-8")
        ids[str(path)] = job.id
    return ids


def _runs(ids: Dict[str, str]) -> List[List[str]]:
    """The job files in as few lint runs as no run holds two objects of one kind and name (jobs mutated from one
    parent share names: linted together, one's ConfigMap would stand in for another's)."""
    runs: List[List[str]] = []
    taken: List[set] = []
    for path in ids:
        names = {(d.get("kind"), (d.get("metadata") or {}).get("name"))
                 for d in yaml.safe_load_all(Path(path).read_text(encoding="utf-8")) if isinstance(d, dict)}
        for run, seen in zip(runs, taken):
            if not names & seen:
                run.append(path)
                seen |= names
                break
        else:
            runs.append([path])
            taken.append(set(names))
    return runs


def _errors(args: List[str], ids: Dict[str, str], env: Dict[str, str]) -> Dict[str, List[str]]:
    found: Dict[str, List[str]] = {job: [] for job in ids.values()}
    for paths in _runs(ids):
        proc = run_cli("lint", "--no-cache", "--format", "json", *paths, *args, env=env, timeout=600)
        assert proc.returncode in (0, 1), proc.stderr
        data = json.loads(proc.stdout)
        for finding in data["findings"] if isinstance(data, dict) else data:
            if finding["severity"] == "error" and finding["rule"].startswith("AC9"):
                found[ids[finding["file"]]].append(f"{finding['rule']}: {finding['message']}")
    return found


@pytest.fixture(scope="module")
def prepared(sim: SimCluster, tmp_path_factory: pytest.TempPathFactory) -> Any:
    jobs = _cluster_jobs()
    prepare(sim, jobs)
    folder = tmp_path_factory.mktemp("cluster-jobs")
    ids = _write(jobs, folder)
    env = {"KUBECONFIG": str(sim.kubeconfig)}
    snapshot = folder / "cluster.yaml"
    taken = run_cli("cluster", "snapshot", "-o", str(snapshot), env=env, timeout=300)
    assert taken.returncode == 0, taken.stderr
    return ids, env, snapshot


@pytest.mark.parametrize("source", ["--cluster", "--cluster-snapshot"])
def test_every_cluster_disagreement_is_predicted(prepared: Any, source: str) -> None:
    ids, env, snapshot = prepared
    found = _errors(["--cluster"] if source == "--cluster" else ["--cluster-snapshot", str(snapshot)], ids, env)
    missed = sorted(job for job, errors in found.items() if not errors)
    assert missed == [], f"{len(missed)} of {len(found)} jobs without a cluster-aware error: {missed}"


def test_without_an_inventory_no_cluster_rule_speaks(prepared: Any) -> None:
    ids, env, _snapshot = prepared
    assert not any(_errors([], ids, env).values())
