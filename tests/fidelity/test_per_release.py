"""The per-release parts of the differential test that need no cluster: ``known.yaml`` entries that hold only for
some releases, and docs/fidelity.md rendered from the saved runs of several releases (issue 44)."""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List, Optional

import pytest

from tests.fidelity import known, report
from tests.fidelity.verdicts import Result
from tests.simcluster import release_shapes
from tests.simcluster.releases import DEFAULT, SUPPORTED

ENTRIES = """
- match: "job-a*"
  verdict: missed
  kind: lint-bug
  reason: only on the old releases
  releases: v6.0.0-v7.3.2
- match: "job-a*"
  verdict: missed
  kind: simulation
  reason: on the newest
  releases: [v26.1.0]
- match: "job-b"
  verdict: false-error
  kind: oracle
  reason: on every release
"""


@pytest.fixture()
def entries(tmp_path: Path) -> List[known.Known]:
    path = tmp_path / "known.yaml"
    path.write_text(ENTRIES, encoding="utf-8")
    return known.load(path)


def test_an_entry_holds_for_its_releases_only(entries):
    assert [known.explain(entries, "job-a1", "missed", r).kind if known.explain(entries, "job-a1", "missed", r)
            else None for r in SUPPORTED] == ["lint-bug", "lint-bug", "lint-bug", None, "simulation"]
    assert all(known.explain(entries, "job-b", "false-error", r) for r in SUPPORTED)
    # without a release: the simulated cluster's default, as the CI test judges
    assert known.explain(entries, "job-a1", "missed").kind == "simulation" and DEFAULT == "v26.1.0"


def test_an_entry_naming_rules_explains_only_false_errors_of_those_rules(tmp_path):
    path = tmp_path / "known.yaml"
    path.write_text('- match: "*"\n  verdict: false-error\n  kind: oracle\n  reason: r\n  errors: [AC306, AC307]\n',
                    encoding="utf-8")
    entries = known.load(path)
    assert known.explain(entries, "j", "false-error", errors=["AC306"]) is not None
    assert known.explain(entries, "j", "false-error", errors=["AC306", "AC307"]) is not None
    assert known.explain(entries, "j", "false-error", errors=["AC306", "AC301"]) is None  # another rule's error too
    assert known.explain(entries, "j", "false-error") is None  # errors not given: not shown to be the rule's
    path.write_text('- match: "*"\n  verdict: missed\n  kind: oracle\n  reason: r\n  errors: [AC306]\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match="a missed job has none"):
        known.load(path)


@pytest.mark.parametrize("span", ["v7.3.2-v6.0.0", "v8.0.0", "[]", "v6.0.0-v7.3.2-v26.1.0"])
def test_a_bad_release_span_is_refused_with_the_entry_named(tmp_path, span):
    path = tmp_path / "known.yaml"
    path.write_text(f'- {{match: "job-x", verdict: missed, kind: cluster, reason: r, releases: {span}}}\n',
                    encoding="utf-8")
    with pytest.raises(ValueError, match=r"known.yaml: entry 'job-x': releases"):
        known.load(path)


def _result(job_id: str, bad: bool, errors: bool, profile: str = "module-910b-8") -> Result:
    result = Result(job_id, job_id, "golden", profile, "", outcome="pending" if bad else "running",
                    room="never-fits" if bad else "")
    if errors:
        from tests.fidelity.verdicts import LintFinding
        result.findings = [LintFinding("AC305", "error", "m", "p")]
    return result


def _run(release: str, results: List[Result]) -> report.Run:
    return report.Run(results, True, 2, 1, [], {"goldens": []}, [], 60.0, relinted=True, release=release)


def test_the_document_has_a_section_per_release_and_the_verdicts_that_differ(entries, monkeypatch):
    monkeypatch.setattr(known, "load", lambda: entries)
    shape = release_shapes.shape("no-accelerator-type-910b-8")
    objects: Dict[str, list] = {"shaped": shape.manifests(), "same": shape.manifests()}
    runs = [_run(release, [_result("shaped", shape.verdicts[release] != "placed", release != "v26.1.0"),
                           _result("same", True, True)])
            for release in ("v26.1.0", "v7.0.RC1")]
    text = report.render(runs, objects)
    assert "## MindCluster v7.0.RC1" in text and "## MindCluster v26.1.0" in text
    assert text.index("## MindCluster v7.0.RC1") < text.index("## MindCluster v26.1.0")
    summary = text[text.index("## Per release"):text.index("## Verdicts that differ")]
    assert "| v7.3.2 | no saved run (known.yaml says why, when a run failed) |" in summary and "| v7.0.RC1 | 2 | 2 of 2 (100.00%) |" in summary
    across = text[text.index("## Verdicts that differ"):text.index("## MindCluster")]
    assert "**1**, 1 of them of a shape" in across
    row = next(line for line in across.splitlines() if line.startswith("| `shaped`"))
    assert "bad (pending): agree-bad" in row and "good (running): agree-good" in row
    assert "no-accelerator-type-910b-8" in row
    assert "`same`" not in across


def test_unexplained_judges_each_release_by_its_entries(entries):
    missed = [_result("job-a1", True, False)]
    assert report.unexplained(missed, entries, "v26.0.1") == missed
    assert report.unexplained(missed, entries, "v7.3.2") == []


@pytest.mark.parametrize("message, no_pod", [
    ("0/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable", True),  # Volcano v1.12.0
    ("1/0 tasks in gang unschedulable: pod group is not ready, 1 minAvailable", True),  # v1.9.0: minAvailable first
    ("10/0 tasks in gang unschedulable: pod group is not ready", True),
    ("2/1 tasks in gang unschedulable: pod group is not ready, 1 Pending", False),  # a pod exists
    ("1/10 tasks in gang unschedulable: pod group is not ready", False),
])
def test_a_job_without_a_pod_is_told_under_either_volcano(message, no_pod):
    from tests.fidelity import runner

    result = Result("j", "j", "golden", "p", "", outcome="pending", room="never-fits", message=message)
    assert runner.never_enqueued(result) is no_pod


def _as_judged(shape_id: str, elsewhere: Optional[Dict[str, bool]] = None) -> Dict[str, bool]:
    """Upstream's verdicts (bad or not) of a job that went as the shape did on every release the shape was judged on,
    and as ``elsewhere`` says on the others."""
    shape = release_shapes.shape(shape_id)
    return {**{r: verdict != "placed" for r, verdict in shape.verdicts.items()}, **(elsewhere or {})}


def _joined(first: str, second: str) -> list:
    job = release_shapes.vcjob("j", first, 8, accelerator_type=first)
    return [release_shapes.with_task(job, "other", second, 8, accelerator_type=second)]


def _strategy_310(value: str) -> list:
    job = release_shapes.vcjob("s", "310", 4, resource="huawei.com/Ascend310", ring="ascend-310", replicas=2)
    job["metadata"]["labels"]["npu-310-strategy"] = value  # on the job alone, as the fidelity mutation labels it
    return [job]


def _910b_16(*npus: int) -> list:
    job = release_shapes.vcjob("u", "module-910b-16", npus[0], accelerator_type="module-910b-16")
    for count in npus[1:]:
        release_shapes.with_task(job, f"t{count}", "module-910b-16", count, accelerator_type="module-910b-16")
    return [job]


def _a3_8(**annotations: str) -> list:
    return [release_shapes.vcjob("a", "module-a3-8-super-pod", 8, accelerator_type="module-a3-8-super-pod",
                                 replicas=2, annotations=annotations or None)]


@pytest.mark.parametrize("objects, profile, pattern, shapes", [
    # several accelerator-types, none a card's: joined into a selector naming no handler, whatever the profiles
    (_joined("module-910b-16", "module-910b-8"), "module-910b-16", "accelerator-types-joined",
     {"accelerator-types-joined", "accelerator-types-joined-module-half"}),
    # one of them a card's: the joined selector names the card handler, another mechanism
    (_joined("card-910b-2", "module-910b-8"), "card-910b-2", "accelerator-types-joined", set()),
    (_joined("card-910b-2", "module-910b-8"), "card-910b-2", "accelerator-types-joined-card",
     {"accelerator-types-joined-card"}),
    # the strategy names no handler whatever the NPUs (the shape's pod asks for 2, these two pods for 4 each)
    (_strategy_310("chipz"), "310", "npu-310-strategy-typo", {"npu-310-strategy-typo"}),
    (_strategy_310("card"), "310", "npu-310-strategy-typo", set()),
    # a schedule_policy no release knows is read as none
    ([release_shapes.vcjob("c", "card-910b-infer", 3, accelerator_type="card-910b-infer",
                           annotations={"huawei.com/schedule_policy": "chip8-node9"})], "card-910b-infer",
     "card-910b-infer-x3", {"card-910b-infer-x3"}),
    (_a3_8(**{"sp-block": "16"}), "module-a3-8-super-pod", "module-a3-8-super-pod-x2", {"module-a3-8-super-pod-x2"}),
    # without sp-block v7.3.2's plugin looks the handler up by the accelerator-type: not this shape's mechanism
    (_a3_8(), "module-a3-8-super-pod", "module-a3-8-super-pod-x2", set()),
    # a shape of the NPUs a pod asks for (AC301) is of those counts: 16 and 2 average 9, two pods of 16 do not
    (_910b_16(16, 2), "module-910b-16", "uneven-910b-16", {"uneven-910b-16"}),
    (_910b_16(16, 16), "module-910b-16", "uneven-910b-16", set()),
], ids=["joined", "joined-with-a-card", "joined-card", "strategy-typo", "strategy-card", "policy-unknown",
        "a3-8-sp-block", "a3-8-no-sp-block", "uneven", "even"])
def test_a_job_is_of_a_shape_by_what_the_shape_varies(objects, profile, pattern, shapes):
    from tests.fidelity import across

    assert set(across.shapes_of(objects, profile, _as_judged(pattern))) == shapes


def test_a_release_a_shape_was_not_judged_on_is_not_compared():
    """accelerator-types-joined is left out of v6.0.0's batch: a job's verdict there neither matches nor breaks it,
    and a job that differs only there is of no shape."""
    from tests.fidelity import across

    objects = _joined("module-910b-16", "module-910b-8")
    assert "v6.0.0" in release_shapes.shape("accelerator-types-joined").unjudged
    for bad in (True, False):
        assert "accelerator-types-joined" in across.shapes_of(objects, "module-910b-16",
                                                               _as_judged("accelerator-types-joined", {"v6.0.0": bad}))
    same = {"v6.0.0": True, "v7.3.2": False, "v26.0.1": False}
    assert across.shapes_of(objects, "module-910b-16", same) == []
