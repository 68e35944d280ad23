"""The lint, rules and explain commands end to end (subprocess), exit codes and output formats."""
from __future__ import annotations

import json
import os

import pytest

from tests.checkout import ROOT, run_cli

from .conftest import CASES, SARIF_SCHEMA

CLEAN = os.path.join(CASES, "pass-acjob-standalone.yaml")
ERRORS = os.path.join(CASES, "AC204-success-policy.yaml")
WARNING_ONLY = os.path.join(CASES, "AC502-ranktable-configmap-label.yaml")


def test_clean_file_exits_0():
    result = run_cli("lint", CLEAN)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "No problems" in result.stdout


def test_errors_exit_1_with_location():
    result = run_cli("lint", ERRORS)
    assert result.returncode == 1
    named = os.path.relpath(ERRORS, ROOT).replace(os.sep, "/")  # named from the repository root, as given or not
    assert f"{named}:8:18: error:" in result.stdout and "[AC204]" in result.stdout


def test_warnings_pass_unless_fail_on_warning():
    assert run_cli("lint", WARNING_ONLY).returncode == 0
    assert run_cli("lint", "--fail-on", "warning", WARNING_ONLY).returncode == 1


def test_disable_flag():
    assert run_cli("lint", "--disable", "AC204", ERRORS).returncode == 0
    assert run_cli("lint", "--disable", "AC204,AC999", ERRORS).returncode == 2


def test_input_errors_exit_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\n")
    result = run_cli("lint", str(bad), CLEAN)
    assert result.returncode == 2
    assert "AC003" in result.stdout
    assert run_cli("lint", str(tmp_path / "missing.yaml")).returncode == 2


def test_input_error_wins_over_findings(tmp_path):
    bad = tmp_path / "dup.yaml"
    bad.write_text("a: 1\na: 2\n")
    assert run_cli("lint", str(bad), ERRORS).returncode == 2


def test_stdin():
    with open(ERRORS, encoding="utf-8") as handle:
        result = run_cli("lint", "-", input=handle.read())
    assert result.returncode == 1 and "<stdin>:8:18" in result.stdout


def test_config_file(tmp_path):
    config = tmp_path / "cfg.yaml"
    config.write_text("lint:\n  severity: {AC204: warning}\n  failOn: warning\n")
    result = run_cli("lint", "--config", str(config), ERRORS)
    assert result.returncode == 1 and "warning:" in result.stdout
    config.write_text("lint:\n  disable: [AC204]\n")
    assert run_cli("lint", "--config", str(config), ERRORS).returncode == 0
    config.write_text("lint:\n  failOn: sometimes\n")
    assert run_cli("lint", "--config", str(config), ERRORS).returncode == 2


def test_directory_with_include_exclude(tmp_path):
    (tmp_path / "keep.yaml").write_text(open(ERRORS, encoding="utf-8").read())
    (tmp_path / "skip").mkdir()
    (tmp_path / "skip" / "also.yaml").write_text(open(ERRORS, encoding="utf-8").read())
    result = run_cli("lint", "--format", "json", "--exclude", "skip", str(tmp_path))
    data = json.loads(result.stdout)
    files = {f["file"] for f in data["findings"]}
    assert files == {str(tmp_path / "keep.yaml")}


def test_cross_file_configmap(tmp_path):
    """A Volcano Job and its rings-config ConfigMap in two files are matched in one run."""
    text = open(os.path.join(CASES, "pass-vcjob-ranktable.yaml"), encoding="utf-8").read()
    configmap, job = text.split("---\n")
    (tmp_path / "config").mkdir()
    (tmp_path / "jobs").mkdir()
    (tmp_path / "config" / "cm.yaml").write_text(configmap)
    (tmp_path / "jobs" / "job.yaml").write_text(job)
    assert run_cli("lint", str(tmp_path / "config" / "cm.yaml"), str(tmp_path / "jobs" / "job.yaml")).returncode == 0
    alone = run_cli("lint", str(tmp_path / "jobs" / "job.yaml"))  # the ConfigMap is neither linted nor beside it
    assert alone.returncode == 0 and "warning" in alone.stdout and "AC501" in alone.stdout


def test_json_format():
    result = run_cli("lint", "--format", "json", ERRORS)
    data = json.loads(result.stdout)
    assert [f["rule"] for f in data["findings"]] == ["AC204"]


def test_github_format():
    result = run_cli("lint", "--format", "github", ERRORS)
    assert result.stdout.startswith("::error ") and "AC204" in result.stdout


def test_sarif_validates_against_the_schema():
    if not os.path.exists(SARIF_SCHEMA):
        pytest.skip("SARIF schema not available (shared folder absent)")
    jsonschema = pytest.importorskip("jsonschema")
    result = run_cli("lint", "--format", "sarif", ERRORS, WARNING_ONLY)
    assert result.returncode == 1
    log = json.loads(result.stdout)
    with open(SARIF_SCHEMA, encoding="utf-8") as handle:
        schema = json.load(handle)
    jsonschema.validate(log, schema)
    run = log["runs"][0]
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {"AC204", "AC213"} <= rule_ids
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] > 1


def test_rules_table_and_json():
    table = run_cli("rules")
    assert table.returncode == 0
    assert "AC301  npu-count" in table.stdout and "AC101" in table.stdout and "AC001" in table.stdout
    data = json.loads(run_cli("rules", "--format", "json").stdout)
    ids = {r["id"] for r in data}
    assert {"AC001", "AC012", "AC023", "AC101", "AC204", "AC301", "AC304", "AC801"} <= ids
    assert all(r["severity"] in ("error", "warning", "info") for r in data)


def test_explain_known_rule():
    result = run_cli("explain", "AC301")
    assert result.returncode == 0
    assert "AC301 npu-count (error)" in result.stdout and "Failing:" in result.stdout
    assert run_cli("explain", "npu-count").stdout == result.stdout


def test_explain_unknown_rule_suggests():
    result = run_cli("explain", "AC-301")
    assert result.returncode == 2
    assert "Did you mean AC301" in result.stderr


@pytest.mark.parametrize("command", ["lint", "rules", "explain"])
def test_help_has_examples(command):
    result = run_cli(command, "--help")
    assert result.returncode == 0
    assert "Examples:" in result.stdout and f"ascend-compile {command}" in result.stdout


def test_ranktable_configmap_in_an_unlinted_file_beside_the_job_counts(tmp_path):
    """pre-commit passes only changed files: the ConfigMap next to the job is still found (AC501)."""
    compiled = run_cli("compile", "examples/mindspore-module-910b-16-vcjob.yaml")
    assert compiled.returncode == 0, compiled.stderr
    configmap, vcjob = compiled.stdout.split("---\n")[1:]
    job = tmp_path / "job.yaml"
    job.write_text("---\n" + vcjob)
    alone = run_cli("lint", str(job))
    assert alone.returncode == 0 and "warning" in alone.stdout and "[AC501]" in alone.stdout
    (tmp_path / "ranktable.yaml").write_text("---\n" + configmap)
    beside = run_cli("lint", str(job))
    assert beside.returncode == 0, beside.stdout


def test_unknown_rule_in_the_config_lint_section_is_refused(tmp_path):
    config = tmp_path / "cfg.yaml"
    config.write_text("lint:\n  disable: [AC30]\n")
    manifest = os.path.join("golden", "pytorch-module-910b-8.yaml")
    result = run_cli("lint", "--config", str(config), manifest)
    assert result.returncode == 2
    assert f"{config}:2:13: error: lint.disable names an unknown rule 'AC30' [AC011]" in result.stderr
    config.write_text("lint:\n  disable: [AC303]\n")
    assert run_cli("lint", "--config", str(config), manifest).returncode == 0
