"""``profiles`` and ``explain`` show per-release facts (issue 44): for a profile, whether each supported MindCluster
release's plugin has its handler and the NPU counts it takes; for a rule, the releases it is proven on and the facts
it rests on with their value per release.  Text and JSON."""
from __future__ import annotations

import json
from typing import Any, Dict, List

from tests.checkout import run_cli as cli


def _json(*args: str) -> Any:
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _span_of(spans: List[Dict[str, Any]], release: str) -> Dict[str, Any]:
    from ascend_compile import releases

    order = releases.RELEASES
    for span in spans:
        first, _, last = span["releases"].partition("-v")
        last = "v" + last if last else first
        if order.index(first) <= order.index(release) <= order.index(last):
            return span
    raise AssertionError(f"{release} in no span of {spans}")


def test_profiles_show_gives_the_a3_servers_handler_and_counts_per_release() -> None:
    from ascend_compile import releases

    spans = _json("profiles", "show", "module-a3-16", "--format", "json")["releases"]
    assert [s["releases"] for s in spans] == ["v6.0.0", "v7.0.RC1", "v7.3.2-v26.1.0"]
    # v6.0.0 has no handler for it: nothing is counted
    assert "module-a3-16" in releases.value("handlers-absent", "v6.0.0")
    assert spans[0]["handler"].startswith("none") and spans[0]["multiPod"] is None
    # v7.0.RC1 takes only the fact's count a pod in a distributed job, v7.3.2 on any even count up to 16
    assert spans[1]["multiPod"] == list(releases.value("module-a3-16-distributed-per-pod", "v7.0.RC1"))
    assert 8 in spans[2]["multiPod"] and 8 not in spans[1]["multiPod"]


def test_profiles_json_and_text_show_the_card_handlers_older_maximum() -> None:
    from ascend_compile import releases

    card = next(p for p in _json("profiles", "--format", "json") if p["name"] == "card-910b-infer")
    for release in releases.RELEASES:
        assert max(_span_of(card["releases"], release)["singlePod"]) == releases.value("card-handler-max", release)
    proc = cli("profiles")
    assert proc.returncode == 0, proc.stderr
    text = proc.stdout.split("Per MindCluster release", 1)[1]
    block = text.split("card-910b-infer:\n", 1)[1].split("\n")
    assert block[0].startswith("  v6.0.0: handler yes; 1 pod: 1, 2;")
    assert any(line.startswith("  v7.3.2-v26.1.0: handler yes; 1 pod: 1-8;") for line in block[:4])


def test_profiles_show_yaml_says_where_the_policy_is_read() -> None:
    proc = cli("profiles", "show", "module-910b-8")
    assert proc.returncode == 0, proc.stderr
    assert "releases:\n- releases: v6.0.0\n" in proc.stdout
    assert "schedulePolicyRead: false" in proc.stdout and "schedulePolicyRead: true" in proc.stdout


def test_explain_json_gives_the_releases_a_rule_is_proven_on_and_each_facts_value() -> None:
    from ascend_compile import releases

    data = _json("explain", "AC301", "--format", "json")
    assert data["id"] == "AC301" and data["severity"] == "error" and "**What.**" in data["documentation"]
    assert data["releases"]["provenOn"] == list(releases.RELEASES)
    card = next(f for f in data["releases"]["facts"] if f["name"] == "card-handler-max")
    assert card["values"] == {r: releases.value("card-handler-max", r) for r in releases.RELEASES}
    from tests.simcluster.release_shapes import SHAPES

    shown_by = sorted(s.id for s in SHAPES if "card-handler-max" in s.facts and "AC301" in s.rules)
    assert card["shownBy"] == shown_by and "card-910b-infer-x4" in shown_by
    assert card["cited"] == releases.fact("card-handler-max").shown


def test_explain_text_ends_with_the_releases_and_the_facts_per_span() -> None:
    proc = cli("explain", "AC306")
    assert proc.returncode == 0, proc.stderr
    tail = proc.stdout.split("More: ", 1)[1]
    assert "Proven on: MindCluster v6.0.0-v26.1.0: shown on the simulated cluster" in tail
    assert "accelerator-types-joined" in tail
    facts = tail.split("Release-dependent facts it rests on (compiler/releases.py):\n", 1)[1]
    assert "  no-handler-refused: " in facts
    assert "    v6.0.0-v26.0.1: no\n    v26.1.0: yes\n" in facts


def test_explain_of_a_rule_no_release_cluster_names_says_so() -> None:
    data = _json("explain", "AC001", "--format", "json")
    assert "releases" not in data  # an input error: no MindCluster release is involved
    from ascend_compile.catalogue import LINT, entries
    from ascend_compile.lint.proofs import proof

    unproven = next(rule.id for rule in entries(LINT) if not proof(rule.id).releases())
    proc = cli("explain", unproven)
    assert proc.returncode == 0, proc.stderr
    assert "Proven on: no release yet" in proc.stdout


def test_explain_json_of_an_unknown_rule_is_a_usage_error() -> None:
    proc = cli("explain", "AC3O1", "--format", "json")
    assert proc.returncode == 2 and proc.stdout == ""
    assert "unknown rule 'AC3O1'" in proc.stderr
