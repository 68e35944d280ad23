"""Each job shape of tests/simcluster/release_shapes.py gets, on each supported release's own simulated cluster, the
verdict the table records for that release (observed there: the test fails when a release's behaviour changes); and
lint, with that release as its target, finds an error exactly where that cluster refuses the job or never places it.

The plugin and operator of the release decide, nothing else differs (the same nodes, Volcano v1.12.0's controllers
and webhooks, tests/simcluster/releases.py).  The shapes are judged in one oracle batch per release, each on a
cluster of that release started for it (tests/simcluster/session.py, ``JUDGED_ON_RELEASES``); every shape sits in
namespaces of its own.  Those clusters are the module's own, so its tests run in the second pytest process.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List

import pytest

from ascend_compile import releases as targets
from ascend_compile.lint.oneshot import lint_objects
from tests.simcluster.cluster import SimCluster
from tests.simcluster.oracle import Verdict, judge_manifests
from tests.simcluster.release_shapes import SHAPES, Shape, differing
from tests.simcluster.releases import SUPPORTED


def verdict_of(verdict: Verdict) -> str:
    """The table's word for an oracle verdict (release_shapes.VERDICTS)."""
    if verdict.outcome == "running":
        return "placed"
    if verdict.outcome == "pending":
        return "pending" if verdict.room == "never-fits" else f"pending ({verdict.room})"
    return verdict.outcome  # refused (by the operator) | rejected (at admission)


def _judge_all(sim: SimCluster) -> Dict[str, Verdict]:
    manifests = {shape.id: shape.manifests() for shape in SHAPES}
    return {v.case: v for v in judge_manifests(manifests, sim=sim, round_timeout=60)}


def JUDGED_ON_RELEASES() -> Dict[str, Callable[[SimCluster], Any]]:  # noqa: N802 - the session's attribute name
    return {release: _judge_all for release in SUPPORTED}


def lint_errors(shape: Shape, release: str) -> List[str]:
    """The rules lint reports at error for the shape's objects, with ``release`` as the target it was given."""
    found = lint_objects(shape.manifests(), target=targets.Target(release, True, "tests/simcluster/test_releases.py"))
    return sorted({f"{f.rule}: {f.message}" for f in found if f.severity == "error"})


def test_at_least_ten_shapes_differ_between_releases() -> None:
    assert len(differing()) >= 10, [s.id for s in differing()]


def test_every_verdict_of_the_table_was_observed() -> None:
    unobserved = [(s.id, r) for s in SHAPES for r in SUPPORTED if r not in s.observed]
    assert not unobserved


@pytest.mark.parametrize("release", SUPPORTED)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_the_release_gives_the_shape_its_recorded_verdict(judged_early, shape, release) -> None:
    verdict = judged_early[release][shape.id]
    assert verdict_of(verdict) == shape.verdicts[release], f"MindCluster {release}: {verdict.line()}"


@pytest.mark.parametrize("release", SUPPORTED)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_lint_for_the_release_errs_where_its_cluster_refuses(judged_early, shape, release) -> None:
    verdict = judged_early[release][shape.id]
    refused = verdict_of(verdict) != "placed"
    errors = lint_errors(shape, release)
    assert bool(errors) == refused, (f"MindCluster {release}: the cluster says {verdict.line()}; lint --mindcluster "
                                     f"{release} says at error: {errors or 'nothing'}")


@pytest.mark.parametrize("release", SUPPORTED)
def test_the_operator_refusal_is_a_warning_event_before_v26_0_1_and_a_failed_condition_from_it(judged_early,
                                                                                                 release) -> None:
    verdict = judged_early[release]["acjob-two-masters"]
    if SUPPORTED.index(release) < SUPPORTED.index("v26.0.1"):
        # no condition: the job waits without pods; the operator's refusal is its Warning event alone
        assert (verdict.outcome, verdict.reason) == ("pending", "ReplicaTypeError"), verdict.line()
        assert any("ReplicaTypeError" in event and "must be only 1" in event for event in verdict.events), \
            verdict.events
    else:
        assert (verdict.outcome, verdict.reason) == ("refused", "JobValidFailed"), verdict.line()
