"""The differential test: lint against the real upstream on generated jobs (docs/fidelity.md).

``test_ci_subset_agrees_with_upstream`` judges the CI subset (the full set with
ASCEND_COMPILE_FIDELITY_FULL=1) and fails on any error-level disagreement that
``known.yaml`` does not explain.  The other tests need no cluster.
"""
from __future__ import annotations

import json
import re
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import pytest

from tests.fidelity import generator, known, report, runner
from tests.fidelity.cli import DOC
from tests.fidelity.conftest import full_run
from tests.fidelity.mutations import MUTATIONS
from tests.fidelity.parents import samples_missing_reason
from tests.fidelity.verdicts import Result


_generated: List[generator.Generated] = []  # made once per session: by the batch run below or the fixture


def _generate_once() -> generator.Generated:
    if not _generated:
        _generated.append(generator.generate())
    return _generated[0]


def _judge_early() -> Callable[[Any], Tuple[Dict[str, Result], float, List[str]]]:
    """The oracle's half of the differential test, made at collection and judged on the session's cluster in
    the background (tests/simcluster/session.py): lint runs in the test itself."""
    generated = _generate_once()
    jobs = generated.jobs if full_run() else generator.ci_subset(generated.jobs)

    def judge(cluster: Any) -> Tuple[Dict[str, Result], float, List[str]]:
        started, lines = time.monotonic(), []
        judged = runner.unjudged(jobs)
        runner.judge_jobs(cluster, jobs, judged, log=lines.append)
        return judged, time.monotonic() - started, lines
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
    entries = known.load()
    assert len({(e.match, e.verdict) for e in entries}) == len(entries)
    assert all(e.reason for e in entries)


@pytest.mark.fidelity_oracle
def test_ci_subset_agrees_with_upstream(judged_early, generated):
    jobs = generated.jobs if full_run() else generator.ci_subset(generated.jobs)
    judged, elapsed, progress = judged_early
    print("\n".join(progress), file=sys.stderr)
    results = runner.with_verdicts(runner.lint_all(jobs), judged)
    runner.save(results, runner.cache_dir() / "results-test.json")  # for a look at a failure
    left = report.unexplained(results, known.load())
    lines = "\n".join(f"{r.id}: {r.verdict}: upstream {r.upstream_text()[:200]}; lint errors {r.errors or 'none'}"
                      for r in left)
    print(f"fidelity: {len(results)} jobs in {elapsed:.0f}s, {len(left)} unexplained disagreements")
    assert not left, f"{len(left)} error-level disagreements not in tests/fidelity/known.yaml:\n{lines}"
    assert sum(r.verdict == "inconclusive" for r in results) <= len(results) // 20, \
        "the oracle ran out of time on too many jobs: " + \
        ", ".join(r.id for r in results if r.verdict == "inconclusive")
