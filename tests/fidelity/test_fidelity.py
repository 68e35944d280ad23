"""The differential test: lint against the real upstream on generated jobs (docs/fidelity.md).

``test_ci_subset_agrees_with_upstream`` judges the CI subset (the full set with
ASCEND_COMPILE_FIDELITY_FULL=1) and fails on any error-level disagreement that
``known.yaml`` does not explain; ``test_the_cluster_snapshot_settles_the_cluster_disagreements``
lints the same jobs against a snapshot of the cluster they were judged on (issue 35).
The other tests need no cluster.
"""
from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import pytest

from tests.fidelity import generator, known, report, runner
from tests.fidelity.cli import DOC
from tests.fidelity.conftest import full_run
from tests.fidelity.mutations import MUTATIONS
from tests.fidelity.parents import samples_missing_reason
from tests.fidelity.verdicts import Result
from tests.integration.controlplane import find_kubectl


_generated: List[generator.Generated] = []  # made once per session: by the batch run below or the fixture


def _generate_once() -> generator.Generated:
    if not _generated:
        _generated.append(generator.generate())
    return _generated[0]


Judged = Tuple[Dict[str, Result], float, List[str], str]


def _judge_early() -> Callable[[Any], Judged]:
    """The oracle's half of the differential test, made at collection and judged on the session's cluster in
    the background (tests/simcluster/session.py), with the cluster's snapshot (its text) taken before any job
    runs: lint runs in the tests themselves."""
    generated = _generate_once()
    jobs = generated.jobs if full_run() else generator.ci_subset(generated.jobs)
    # here, in the main thread: the session's thread looks nothing up and reads no changing environment
    kubectl, env = find_kubectl(), dict(os.environ)

    def judge(cluster: Any) -> Judged:
        started, lines = time.monotonic(), []
        runner.prepare(cluster, jobs)
        if kubectl is None:
            raise RuntimeError("kubectl not found on PATH: no cluster snapshot")
        with tempfile.TemporaryDirectory(prefix="ascend-compile-fidelity-") as folder:
            runner.take_snapshot(cluster, kubectl, Path(folder) / "cluster.yaml", env)
            snapshot = (Path(folder) / "cluster.yaml").read_text(encoding="utf-8")
        judged = runner.unjudged(jobs)
        runner.judge_jobs(cluster, jobs, judged, log=lines.append)
        return judged, time.monotonic() - started, lines, snapshot
    return judge


JUDGED_EARLY = _judge_early


@pytest.fixture(scope="module")
def generated() -> generator.Generated:
    return _generate_once()


def test_generator_makes_enough_jobs_deterministically(generated):
    again = generator.generate()
    assert [j.id for j in again.jobs] == [j.id for j in generated.jobs]
    assert [j.objects for j in again.jobs[-20:]] == [j.objects for j in generated.jobs[-20:]]
    assert len(generated.jobs) >= 500
    assert len(set(j.id for j in generated.jobs)) == len(generated.jobs)
    subset = generator.ci_subset(generated.jobs)
    assert len(subset) >= 100
    assert {j.mutation for j in subset} >= set(MUTATIONS)


def test_every_mutation_changes_something(generated):
    """As sent to the API server: 8.0 is not 8 there (Python's == would call them equal)."""
    def sent(objects):
        return json.dumps(objects, sort_keys=True)

    parents = {j.id: sent(j.objects) for j in generated.jobs if not j.mutation}
    for job in generated.jobs:
        if job.mutation:
            assert sent(job.objects) != parents[job.parent], job.id


def test_doc_matches_the_generator(generated):
    reason = samples_missing_reason()
    if reason:
        pytest.skip(f"{reason}: the generated set is not the one docs/fidelity.md counts")
    text = DOC.read_text(encoding="utf-8")
    found = re.search(r"Generator version (\d+), seed (\d+): \*\*(\d+) jobs\*\* in the full set, (\d+) in the CI", text)
    assert found, "docs/fidelity.md has no generator line; run python -m tests.fidelity run --full"
    assert (int(found[1]), int(found[2])) == (generator.GENERATOR_VERSION, generator.SEED), \
        "docs/fidelity.md is from another generator version; run python -m tests.fidelity run --full"
    assert (int(found[3]), int(found[4])) == (len(generated.jobs), len(generator.ci_subset(generated.jobs))), \
        "docs/fidelity.md counts other jobs than the generator makes; run python -m tests.fidelity run --full"


def test_known_disagreements_are_well_formed():
    """At most one entry explains a job's disagreement on a release (entries of one match and verdict hold for
    releases apart)."""
    entries = known.load()
    held = [(e.match, e.verdict, release) for e in entries for release in e.releases]
    assert len(set(held)) == len(held)
    assert all(e.reason and e.releases for e in entries)


@pytest.fixture(scope="module")
def linted(judged_early, generated, tmp_path_factory) -> List[Result]:
    """The judged jobs linted offline and against the snapshot of their cluster, with the oracle's verdicts."""
    jobs = generated.jobs if full_run() else generator.ci_subset(generated.jobs)
    judged, _elapsed, _progress, snapshot = judged_early
    path = tmp_path_factory.mktemp("fidelity") / "cluster.yaml"
    path.write_text(snapshot, encoding="utf-8")
    results = runner.with_verdicts(runner.lint_all(jobs, runner.read_snapshot(path)), judged)
    runner.save(results, runner.cache_dir() / "results-test.json")  # for a look at a failure
    return results


@pytest.mark.fidelity_oracle
def test_ci_subset_agrees_with_upstream(judged_early, linted):
    _judged, elapsed, progress, _snapshot = judged_early
    print("\n".join(progress), file=sys.stderr)
    results = linted
    left = report.unexplained(results, known.load())
    lines = "\n".join(f"{r.id}: {r.verdict}: upstream {r.upstream_text()[:200]}; lint errors {r.errors or 'none'}"
                      for r in left)
    print(f"fidelity: {len(results)} jobs in {elapsed:.0f}s, {len(left)} unexplained disagreements")
    assert not left, f"{len(left)} error-level disagreements not in tests/fidelity/known.yaml:\n{lines}"
    assert sum(r.verdict == "inconclusive" for r in results) <= len(results) // 20, \
        "the oracle ran out of time on too many jobs: " + \
        ", ".join(r.id for r in results if r.verdict == "inconclusive")


@pytest.mark.fidelity_oracle
def test_the_cluster_snapshot_settles_the_cluster_disagreements(linted):
    """Issue 35: every job of the set whose disagreement ``known.yaml`` explains as ``cluster`` (a queue, PVC,
    host-arch, handler's node size or switch topology that only the cluster knows) agrees with upstream when linted
    against the snapshot of the cluster it was judged on, and no job that agreed offline disagrees with it (no false
    error the inventory brings).  Offline, lint stays silent on those jobs (the test above holds their entries)."""
    assert [r.id for r in linted if any(f.rule.startswith("AC9") for f in r.findings)] == []  # offline: silent
    entries = known.load()
    cluster_kind = [r for r in linted
                    if getattr(known.explain(entries, r.id, r.verdict, errors=r.errors), "kind", "") == "cluster"]
    assert cluster_kind, "no job of the set has a disagreement known.yaml explains as cluster: this proves nothing"
    assert [r for r in cluster_kind if r.cluster_verdict != "agree-bad"] == [], \
        [(r.id, r.cluster_verdict, r.upstream_text()[:120]) for r in cluster_kind if r.cluster_verdict != "agree-bad"]
    short = report.inventory_problems(linted, entries)
    assert not short, "\n".join(f"{r.id}: {why}: upstream {r.upstream_text()[:160]}; errors with the snapshot "
                                f"{r.cluster_errors}" for r, why in short)
    print(f"fidelity: {len(cluster_kind)} cluster disagreements settled by the snapshot: "
          + ", ".join(sorted({r.mutation or r.parent for r in cluster_kind})))
