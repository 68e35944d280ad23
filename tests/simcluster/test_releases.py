"""Each job shape of tests/simcluster/release_shapes.py gets, on each supported release's own simulated cluster, the
verdict the table records for that release: the plugin and operator of the release decide, nothing else differs
(the same nodes, Volcano v1.12.0's controllers and webhooks, tests/simcluster/releases.py).

The shapes are judged in one oracle batch per release, each on a cluster of that release started for it after the
session cluster's batches (tests/simcluster/session.py); every shape sits in namespaces of its own.
"""
from __future__ import annotations

from typing import Any, Callable, Dict

import pytest

from tests.simcluster.cluster import SimCluster
from tests.simcluster.oracle import Verdict, judge_manifests
from tests.simcluster.release_shapes import SHAPES, differing
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


def JUDGED_EARLY() -> Dict[str, Callable[[SimCluster], Any]]:  # noqa: N802 - the session's attribute name
    return {release: _judge_all for release in SUPPORTED}


def test_at_least_ten_shapes_differ_between_releases() -> None:
    assert len(differing()) >= 10, [s.id for s in differing()]


@pytest.mark.parametrize("release", SUPPORTED)
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: s.id)
def test_the_release_gives_the_shape_its_recorded_verdict(judged_early, shape, release) -> None:
    verdict = judged_early[release][shape.id]
    assert verdict_of(verdict) == shape.verdicts[release], f"MindCluster {release}: {verdict.line()}"
