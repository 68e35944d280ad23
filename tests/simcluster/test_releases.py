"""Each job shape of tests/simcluster/release_shapes.py gets, on each supported release's own simulated cluster, the
verdict the table records for that release (observed there: the test fails when a release's behaviour changes); and
lint, with that release as its target, finds an error exactly where that cluster refuses the job or never places it.

The plugin and operator of the release decide, nothing else differs (the same nodes, Volcano v1.12.0's controllers
and webhooks, tests/simcluster/releases.py).  The shapes are judged in one oracle batch per release, each on a
cluster of that release started for it (tests/simcluster/session.py, ``JUDGED_ON_RELEASES``); every shape sits in
namespaces of its own.  Those clusters are the module's own, so its tests run in the second pytest process.
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

import pytest

from ascend_compile import releases as targets
from ascend_compile.lint.oneshot import lint_objects
from tests.fidelity import runner
from tests.integration.controlplane import find_kubectl
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


#: shapes whose verdict rests on a fact of the cluster, which lint knows only from its snapshot: the queue the job
#: names does not exist; the only nodes the pods select are labelled half (the default handler refuses them up to
#: v26.0.1), which the manifest cannot show (it selects them by the simulation's profile label); every node the pod
#: selects has more free NPUs than the handler its policy picks takes (AC904)
NEEDS_THE_CLUSTER = frozenset({"acjob-missing-queue", "no-accelerator-type-half-910",
                               "schedule-policy-chip1-node2-on-a3-16-x8"})


class Judged(dict):  # type: ignore[type-arg]
    """shape id -> the release cluster's verdict; ``snapshot``: the text of that cluster's ``cluster snapshot``,
    taken before any shape ran."""

    snapshot = ""


def _judge_all_with(kubectl: Optional[str], env: Dict[str, str], release: str) -> Callable[[SimCluster], Judged]:
    def judge(sim: SimCluster) -> Judged:
        if kubectl is None:
            raise RuntimeError("kubectl not found on PATH: no cluster snapshot")
        judged = Judged()
        with tempfile.TemporaryDirectory(prefix="ascend-compile-releases-") as folder:
            runner.take_snapshot(sim, kubectl, Path(folder) / "cluster.yaml", env)
            judged.snapshot = (Path(folder) / "cluster.yaml").read_text(encoding="utf-8")
        manifests = {shape.id: shape.manifests() for shape in SHAPES if release not in shape.unjudged}
        judged.update({v.case: v for v in judge_manifests(manifests, sim=sim, round_timeout=60)})
        return judged
    return judge


def JUDGED_ON_RELEASES() -> Dict[str, Callable[[SimCluster], Any]]:  # noqa: N802 - the session's attribute name
    # here, in the main thread: the session's thread looks nothing up and reads no changing environment
    kubectl, env = find_kubectl(), dict(os.environ)
    return {release: _judge_all_with(kubectl, env, release) for release in SUPPORTED}


def lint_errors(shape: Shape, release: str, inventory: Any = None) -> List[str]:
    """The rules lint reports at error for the shape's objects, with ``release`` as the target it was given (and the
    cluster's ``inventory``, when given, as with ``--cluster-snapshot``)."""
    found = lint_objects(shape.manifests(), target=targets.Target(release, True, "tests/simcluster/test_releases.py"),
                         inventory=inventory)
    return sorted({f"{f.rule}: {f.message}" for f in found if f.severity == "error"})


def _inventory(judged: Judged) -> Any:
    with tempfile.TemporaryDirectory(prefix="ascend-compile-releases-") as folder:
        path = Path(folder) / "cluster.yaml"
        path.write_text(judged.snapshot, encoding="utf-8")
        return runner.read_snapshot(path)


def test_at_least_ten_shapes_differ_between_releases() -> None:
    assert len(differing()) >= 10, [s.id for s in differing()]


def test_every_verdict_of_the_table_was_observed() -> None:
    unobserved = [(s.id, r) for s in SHAPES for r in SUPPORTED if r not in s.observed and not s.unjudged.get(r)]
    assert not unobserved
    assert all(set(s.verdicts) == set(s.judged_on()) and not set(s.observed) & set(s.unjudged) for s in SHAPES)


#: every (shape, release) judged, with the ids ``<shape>-<release>``
JUDGED = [pytest.param(s, r, id=f"{s.id}-{r}") for s in SHAPES for r in s.judged_on()]


@pytest.mark.parametrize("shape, release", JUDGED)
def test_the_release_gives_the_shape_its_recorded_verdict(judged_early, shape, release) -> None:
    verdict = judged_early[release][shape.id]
    assert verdict_of(verdict) == shape.verdicts[release], f"MindCluster {release}: {verdict.line()}"


@pytest.mark.parametrize("shape, release", JUDGED)
def test_lint_for_the_release_errs_where_its_cluster_refuses(judged_early, shape, release) -> None:
    """Offline where the manifest says all that decides the verdict; with the cluster's own snapshot (as
    ``lint --cluster-snapshot``) for the shapes whose verdict rests on the cluster (NEEDS_THE_CLUSTER)."""
    verdict = judged_early[release][shape.id]
    refused = verdict_of(verdict) != "placed"
    inventory = _inventory(judged_early[release]) if shape.id in NEEDS_THE_CLUSTER else None
    errors = lint_errors(shape, release, inventory)
    assert bool(errors) == refused, (f"MindCluster {release}: the cluster says {verdict.line()}; lint --mindcluster "
                                     f"{release}{' with its snapshot' if inventory else ''} says at error: "
                                     f"{errors or 'nothing'}")


@pytest.mark.parametrize("shape, release", [p for p in JUDGED if p.values[0].id not in NEEDS_THE_CLUSTER])
def test_the_cluster_snapshot_changes_no_offline_verdict(judged_early, shape, release) -> None:
    """The inventory is truth and adds nothing false: with the release cluster's snapshot, lint errs on the same
    shapes as offline."""
    inventory = _inventory(judged_early[release])
    assert bool(lint_errors(shape, release, inventory)) == bool(lint_errors(shape, release))


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
