"""``lint --write-baseline`` / ``--baseline`` on a synthetic legacy repository (72 manifests, made here from
the matrix goldens with defects put in): the baseline survives unrelated edits (comments, objects added
above, the whole file re-serialised), reports only new findings, counts baselined and stale entries, and
SARIF carries baselineState."""
from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli

MATRIX = sorted((ROOT / "golden" / "matrix").glob("*.yaml"))
PORT_NAME = "              name: ascendjob-port\n"


def lint(repo: Path, *args: str):
    return run_cli("lint", "manifests/", "--no-cache", *args, cwd=repo)


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    """manifests/ with 72 hand-maintained-looking manifests; some AscendJobs lack their port name (AC217: the
    leader's Service cannot be made), some carry a field the schema does not know (AC101)."""
    folder = tmp_path / "manifests"
    folder.mkdir()
    for i, golden in enumerate(MATRIX):
        text = golden.read_text(encoding="utf-8")
        if i % 3 == 0 and PORT_NAME in text:
            text = text.replace(PORT_NAME, "", 1)
        if i % 5 == 0:
            text = text.replace("\nspec:\n", "\nlegacyField: 1\nspec:\n", 1)
        (folder / golden.name).write_text(text, encoding="utf-8")
    return tmp_path


def findings(result) -> List[Dict[str, str]]:
    return json.loads(result.stdout)["findings"]


def test_the_repository_is_big_enough_and_has_legacy_findings(repo: Path) -> None:
    assert len(list((repo / "manifests").iterdir())) >= 50
    found = findings(lint(repo, "--format", "json", "--fail-on", "warning"))
    rules = {f["rule"] for f in found}
    assert {"AC101", "AC217"} <= rules and len(found) >= 20


def test_a_baseline_accepts_todays_findings_and_survives_unrelated_edits(repo: Path) -> None:
    before = findings(lint(repo, "--format", "json"))
    written = lint(repo, "--write-baseline", "baseline.json")
    assert written.returncode == 0, written.stderr
    assert f"wrote baseline baseline.json: {len(before)} finding(s) in 72 file(s)" in written.stderr
    recorded = json.loads((repo / "baseline.json").read_text())["findings"]
    assert all("line" not in entry for entry in recorded)

    clean = lint(repo, "--baseline", "baseline.json", "--fail-on", "info")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert f"{len(before)} finding(s) baselined (not shown), 0 stale entries" in clean.stderr

    # unrelated edits: a comment on top, an object above the job, the whole file re-serialised
    for i, path in enumerate(sorted((repo / "manifests").iterdir())):
        text = path.read_text(encoding="utf-8")
        if i % 3 == 0:
            text = "# owned by the platform team\n# reviewed 2026-11\n" + text
        elif i % 3 == 1:
            text = (f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: notes-{i}, namespace: default}}\n"
                    f"data: {{owner: platform}}\n---\n") + text
        else:
            text = yaml.safe_dump_all(list(yaml.safe_load_all(text)), indent=4, sort_keys=True)
        path.write_text(text, encoding="utf-8")
    moved = findings(lint(repo, "--format", "json"))
    assert len(moved) == len(before)
    assert [f["line"] for f in moved] != [f["line"] for f in before]  # the lines did move
    still = lint(repo, "--baseline", "baseline.json", "--format", "json", "--fail-on", "info")
    assert still.returncode == 0 and findings(still) == []
    summary = json.loads(still.stdout)["summary"]
    assert summary["baselined"] == len(before) and summary["staleBaselineEntries"] == 0


def test_only_new_findings_are_reported_and_fixed_ones_are_stale(repo: Path) -> None:
    assert lint(repo, "--write-baseline", "baseline.json").returncode == 0
    total = len(json.loads((repo / "baseline.json").read_text())["findings"])
    paths = sorted((repo / "manifests").iterdir())
    fixed, broken = paths[0], paths[1]  # 0 has legacyField (i % 5 == 0); 1 has none
    fixed.write_text(fixed.read_text().replace("\nlegacyField: 1\n", "\n"))
    assert "legacyField" not in broken.read_text()
    broken.write_text(broken.read_text().replace("\nspec:\n", "\nnewTypo: 1\nspec:\n", 1))

    result = lint(repo, "--baseline", "baseline.json", "--format", "json")
    assert result.returncode == 1
    [new] = findings(result)
    assert new["rule"] == "AC101" and new["path"] == "newTypo" and new["file"] == f"manifests/{broken.name}"
    summary = json.loads(result.stdout)["summary"]
    assert summary["baselined"] == total - 1 and summary["staleBaselineEntries"] == 1
    text = lint(repo, "--baseline", "baseline.json")
    assert "newTypo" in text.stdout and "legacyField" not in text.stdout
    assert "1 stale entry (fixed or renamed: --write-baseline baseline.json drops them)" in text.stderr

    sarif = json.loads(lint(repo, "--baseline", "baseline.json", "--format", "sarif").stdout)
    results = sarif["runs"][0]["results"]
    states = [r["baselineState"] for r in results]
    assert states.count("new") == 1 and states.count("unchanged") == total - 1
    [fresh] = [r for r in results if r["baselineState"] == "new"]
    assert "newTypo" in fresh["message"]["text"]
    assert sarif["runs"][0]["properties"]["baseline"] == {"file": "baseline.json", "baselined": total - 1,
                                                          "stale": 1}


def test_bad_baselines_and_both_options_are_usage_errors(repo: Path) -> None:
    missing = lint(repo, "--baseline", "nope.json")
    assert missing.returncode == 2 and "create it with --write-baseline nope.json" in missing.stderr
    (repo / "other.json").write_text('{"findings": []}')
    assert "is not an ascend-compile baseline" in lint(repo, "--baseline", "other.json").stderr
    both = lint(repo, "--baseline", "a.json", "--write-baseline", "b.json")
    assert both.returncode == 2 and "not both" in both.stderr
    assert not (repo / "b.json").exists()


def test_a_repeated_identity_is_matched_as_many_times_as_recorded(repo: Path) -> None:
    shutil.rmtree(repo / "manifests")
    (repo / "manifests").mkdir()
    job = (ROOT / "golden" / "matrix" / "pytorch-module-910b-8-acjob.yaml").read_text()
    cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\nextra: 1\ndata: {k: v}\n"
    (repo / "manifests" / "two.yaml").write_text(job + "---\n" + cm)
    assert lint(repo, "--write-baseline", "baseline.json").returncode == 0
    (repo / "manifests" / "two.yaml").write_text(job + "---\n" + cm + "---\n" + cm)
    result = lint(repo, "--baseline", "baseline.json", "--format", "json")
    assert result.returncode == 1 and [f["path"] for f in findings(result)] == ["extra"]


def test_a_baseline_written_beside_an_unreadable_file_says_that_file_is_not_in_it(tmp_path: Path) -> None:
    (tmp_path / "manifests").mkdir()
    (tmp_path / "manifests" / "cm.yaml").write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n"
                                                    "data: {password: hunter2hunter}\n")
    (tmp_path / "manifests" / "broken.yaml").write_text("a: [\n")
    written = lint(tmp_path, "--write-baseline", "baseline.json")
    assert written.returncode == 2, written.stderr  # the unreadable file is an input error, listed after
    assert "1 finding(s) in 2 file(s) (1 of them could not be read: their findings are not in it)" in written.stderr
    assert "broken.yaml" in written.stderr
    assert [entry["rule"] for entry in json.loads((tmp_path / "baseline.json").read_text())["findings"]] == ["AC801"]
