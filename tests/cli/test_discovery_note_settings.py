"""File discovery's notes (AC007 Helm chart, AC009 not a manifest) obey the settings every rule obeys:
``--disable`` (lint and validate), ``lint.disable`` and ``lint.severity`` in the project config, with or without the
result cache; ``rules`` and ``explain`` list them and say how.  Silencing a note does not turn a run whose every file
was left out on purpose into 'no YAML files found' (exit 2).  Its warning of a file NOT CHECKED (AC014, a kustomize
part) obeys none of them (issue 43, M1: tests/hardening/test_not_checked_never_silenced.py): it stays in every run."""
from __future__ import annotations

import json

import pytest

from tests.checkout import run_cli, write_tree

REPO = {
    "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
    "charts/app/templates/job.yaml": "kind: {{ .Values.kind }}\n",
    "k8s/base/kustomization.yaml": "resources: [cm.yaml]\n",
    "k8s/base/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n",
    "k8s/prod/kustomization.yaml": "resources: [../base]\npatches:\n- path: patch.yaml\n",
    "k8s/prod/patch.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {x: '1'}\n",
    "docker-compose.yml": "services:\n  web: {image: nginx}\n",
}
#: named from the repository root, as every format names files (not as the walk of "." spelled them: ./charts/app)
ALL_NOTES = [("charts/app", "AC007", "info"), ("docker-compose.yml", "AC009", "info"),
             ("k8s/prod/patch.yaml", "AC014", "warning")]
COMMANDS = [("lint", "--no-cache"), ("validate",)]


def _run(*args: str, cwd, env=None):
    result = run_cli(*args, "--format", "json", cwd=cwd, env={"NO_COLOR": "1", **(env or {})})
    assert result.returncode in (0, 1), (result.returncode, result.stderr)
    findings = sorted((f["file"], f["rule"], f["severity"]) for f in json.loads(result.stdout)["findings"])
    return result.returncode, findings


@pytest.fixture
def repo(tmp_path):
    (tmp_path / ".git").mkdir()  # the project config is looked for up to here
    write_tree(tmp_path, REPO)
    return tmp_path


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("disable,left", [
    (("--disable", "AC009"), ["AC007", "AC014"]),
    (("--disable", "not-a-manifest,helm-chart-skipped"), ["AC014"]),
    (("--disable", "AC007", "--disable=ac015"), ["AC009", "AC014"]),
])
def test_disable_silences_each_note_on_the_command_line(repo, command, disable, left):
    assert _run(*command, ".", cwd=repo) == (0, ALL_NOTES)
    assert _run(*command, *disable, ".", cwd=repo) == (0, [note for note in ALL_NOTES if note[1] in left])


def test_the_project_config_disables_a_note_and_changes_the_severity_of_others(repo):
    (repo / ".ascend-compile.yaml").write_text("lint:\n  disable: [not-a-manifest]\n"
                                              "  severity: {AC007: error}\n", encoding="utf-8")
    assert _run("lint", "--no-cache", ".", cwd=repo) == (1, [("charts/app", "AC007", "error"),
                                                            ("k8s/prod/patch.yaml", "AC014", "warning")])
    (repo / ".ascend-compile.yaml").write_text("lint:\n  severity: {AC007: error, AC014: info}\n", encoding="utf-8")
    refused = run_cli("lint", "--no-cache", ".", cwd=repo, env={"NO_COLOR": "1"})
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "lint.severity: AC014 (kustomize-part-not-checked) cannot be given another severity" in refused.stderr


def test_the_result_cache_answers_each_setting_with_its_own_notes(repo):
    env = {"ASCEND_COMPILE_CACHE_DIR": str(repo / "cache")}
    assert _run("lint", ".", cwd=repo, env=env) == (0, ALL_NOTES)
    assert any((repo / "cache").rglob("*")), "the result cache was not written"
    assert _run("lint", "--disable", "AC009", ".", cwd=repo, env=env)[1] == [ALL_NOTES[0], ALL_NOTES[2]]
    (repo / ".ascend-compile.yaml").write_text("lint: {severity: {AC009: warning}}\n", encoding="utf-8")
    assert ("docker-compose.yml", "AC009", "warning") in _run("lint", ".", cwd=repo, env=env)[1]
    (repo / ".ascend-compile.yaml").unlink()
    assert _run("lint", ".", cwd=repo, env=env) == (0, ALL_NOTES)


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("folder,rule", [("charts", "AC007")])
def test_a_run_that_left_out_every_file_exits_0_with_its_note_disabled(repo, command, folder, rule):
    result = run_cli(*command, "--disable", rule, folder, cwd=repo, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stderr) == (0, ""), result.stdout
    assert rule not in result.stdout
    (repo / "empty").mkdir()
    empty = run_cli(*command, "--disable", rule, "empty", cwd=repo, env={"NO_COLOR": "1"})
    assert empty.returncode == 2 and "no YAML files found" in empty.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_a_run_that_left_out_every_file_as_a_kustomize_part_says_so_and_cannot_disable_it(repo, command):
    assert _run(*command, "k8s/prod", cwd=repo) == (0, [("k8s/prod/patch.yaml", "AC014", "warning")])
    refused = run_cli(*command, "--disable", "AC014", "k8s/prod", cwd=repo, env={"NO_COLOR": "1"})
    assert (refused.returncode, refused.stdout) == (2, "")
    assert "--disable: AC014 (kustomize-part-not-checked) cannot be disabled" in refused.stderr


@pytest.mark.parametrize("command", COMMANDS)
def test_with_the_error_it_replaces_disabled_a_walked_non_manifest_gets_no_note(repo, command):
    """lint and validate judge the file on the findings the settings leave: no AC107 left, nothing to replace."""
    assert _run(*command, "--disable", "AC107", "docker-compose.yml", "k8s/base", cwd=repo) == (0, [])
    assert _run(*command, "--disable", "AC107", ".", cwd=repo) == (0, [ALL_NOTES[0], ALL_NOTES[2]])


def test_validate_refuses_an_unknown_rule_as_lint_does(repo):
    for command in ("lint", "validate"):
        result = run_cli(command, "--disable", "AC999", ".", cwd=repo, env={"NO_COLOR": "1"})
        assert result.returncode == 2 and "--disable: unknown rule AC999" in result.stderr, command


def test_rules_lists_the_notes_and_explain_says_how_to_silence_one():
    listed = run_cli("rules", "--origin", "discovery", "--format", "json")
    assert listed.returncode == 0, listed.stderr
    assert [rule["id"] for rule in json.loads(listed.stdout)] == ["AC007", "AC008", "AC009", "AC014", "AC015"]
    explained = run_cli("explain", "not-a-manifest", env={"NO_COLOR": "1"})
    assert explained.returncode == 0, explained.stderr
    assert "Disable: --disable AC009, or lint: {disable: [AC009]} in .ascend-compile.yaml" in explained.stdout
    assert "Cannot be disabled" not in explained.stdout
