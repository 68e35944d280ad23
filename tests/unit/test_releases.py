"""The release table (compiler/releases.py): every fact covers every supported release exactly once, the target is
chosen flag > config > cluster > default, and version texts map to releases as clusters spell them."""
from __future__ import annotations

import pytest

from ascend_compile import releases
from ascend_compile.config import ClusterSettings, ProjectConfig, target_of


@pytest.mark.parametrize("name", sorted(releases.FACTS))
def test_each_fact_covers_every_release_once(name: str) -> None:
    fact = releases.FACTS[name]
    covered = [release for first, last, _ in fact.spans
               for release in releases.RELEASES[releases.RELEASES.index(first):releases.RELEASES.index(last) + 1]]
    assert covered == list(releases.RELEASES), f"{name}: spans must cover {releases.RELEASES} in order, once each"
    assert fact.shown.strip(), f"{name}: say where each span was shown"


@pytest.mark.parametrize("text, release", [
    ("v7.3.2", "v7.3.2"), ("7.3.2", "v7.3.2"), ("volcano-npu_v7.0.RC1", "v7.0.RC1"), ("v7.0.rc1", "v7.0.RC1"),
    ("ascend-operator:v26.0.1-arm64", "v26.0.1"), ("v7.2.RC1", None), ("volcano-npu_v6.0.RC1", None), ("", None),
    ("latest", None)])
def test_release_of_reads_the_spellings_clusters_use(text: str, release: str) -> None:
    assert releases.release_of(text) == release


def test_span_text_joins_consecutive_releases() -> None:
    assert releases.span_text(["v26.1.0", "v7.3.2", "v26.0.1"]) == "v7.3.2-v26.1.0"
    assert releases.span_text(["v6.0.0", "v26.1.0"]) == "v6.0.0, v26.1.0"
    assert releases.span_text([]) == ""


def test_the_flag_beats_the_config_which_beats_the_cluster() -> None:
    config = ProjectConfig(path="/repo/.ascend-compile.yaml", cluster=ClusterSettings("v7.0.RC1", True))
    cluster = {"ascend-plugin": "volcano-npu_v7.3.2"}
    assert target_of(config, "v26.0.1", None, cluster).release == "v26.0.1"
    chosen = target_of(config, None, None, cluster)
    assert (chosen.release, chosen.given, chosen.volcano_webhook) == ("v7.0.RC1", True, True)
    assert "cluster.mindcluster in /repo/.ascend-compile.yaml" in chosen.source
    from_cluster = target_of(ProjectConfig(), None, False, cluster, "--cluster-snapshot s.yaml")
    assert (from_cluster.release, from_cluster.given, from_cluster.volcano_webhook) == ("v7.3.2", True, False)
    assert "s.yaml" in from_cluster.source


def test_an_unsupported_cluster_version_falls_back_to_the_default_and_says_so() -> None:
    chosen = target_of(ProjectConfig(), None, None, {"ascend-plugin": "v7.2.RC1"}, "the live cluster")
    assert (chosen.release, chosen.given) == (releases.DEFAULT_RELEASE, False)
    assert "'v7.2.RC1', not a supported release" in chosen.source


def test_the_default_is_the_newest_release_and_not_given() -> None:
    chosen = target_of(ProjectConfig())
    assert (chosen.release, chosen.given) == (releases.RELEASES[-1], False)
    assert chosen.volcano == releases.VOLCANO_OF[releases.RELEASES[-1]]


def test_a_qualifier_names_the_releases_only_when_no_target_was_given() -> None:
    name = sorted(releases.FACTS)[0]
    holds = releases.releases_where(name, bool)
    unknown = releases.Target()
    if 0 < len(holds) < len(releases.RELEASES):
        assert unknown.qualifier(name, bool) == f" (MindCluster {releases.span_text(holds)})"
    assert releases.Target("v7.3.2", True, "--mindcluster v7.3.2").qualifier(name, bool) == ""
