"""A rule that no setting can silence (an input, config, output or spec error: see the catalogue) named in
``--disable`` (lint, validate), ``lint.disable`` or ``lint.severity`` of the project config, or the API's
``disable``, is refused with the reason, as an unknown rule is: such a setting would silently do nothing.
Settings that name ordinary rules, discovery's notes among them, work as before."""
from __future__ import annotations

import pytest

import ascend_compile
from ascend_compile.errors import ArgumentError, InputError
from tests.checkout import run_cli, write_tree

SNIPPET = {"job.yaml": "metadata: {name: a}\n"}  # an AC107 error: a finding that disabling AC107 silences


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
@pytest.mark.parametrize("disable,named", [
    (("--disable", "AC001"), "AC001 (unreadable-input) cannot be disabled (an input error:"),
    (("--disable", "AC107,yaml-syntax"), "AC003 (yaml-syntax) cannot be disabled (an input error:"),
    (("--disable", "AC013"), "AC013 (output-error) cannot be disabled (an output error:"),
    (("--disable", "AC009", "--disable", "config-invalid"), "AC011 (config-invalid) cannot be disabled (a config"),
    (("--disable", "ac020"), "AC020 (spec-invalid) cannot be disabled (a spec error:"),
])
def test_disable_of_a_rule_that_cannot_be_disabled_is_a_usage_error(tmp_path, command, disable, named):
    write_tree(tmp_path, SNIPPET)
    result = run_cli(*command, *disable, "job.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert f"Error: --disable: {named}" in result.stderr


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
def test_disable_of_ordinary_rules_still_works(tmp_path, command):
    write_tree(tmp_path, SNIPPET)
    assert run_cli(*command, "job.yaml", cwd=tmp_path).returncode == 1
    result = run_cli(*command, "--disable", "AC107,AC009", "job.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stderr) == (0, "")


def test_the_config_refuses_disabling_or_reweighting_a_rule_no_setting_changes(tmp_path):
    (tmp_path / ".git").mkdir()
    write_tree(tmp_path, {**SNIPPET, ".ascend-compile.yaml": "lint:\n  disable: [AC107, unreadable-input]\n"
                                                            "  severity: {AC303: error, AC010: warning}\n"})
    result = run_cli("lint", "--no-cache", "job.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stdout) == (2, "")
    lines = result.stderr.splitlines()
    assert lines[0].endswith(".ascend-compile.yaml:2:20: error: lint.disable: AC001 (unreadable-input) cannot be "
                             "disabled (an input error: a file that could not be read is never reported as checked) "
                             "[AC011]")
    assert lines[1] == "    hint: remove unreadable-input from lint.disable"
    assert lines[2].endswith(".ascend-compile.yaml:3:28: error: lint.severity: AC010 (profile-invalid) cannot be "
                             "given another severity (a config error: nothing runs with settings that could not be "
                             "read) [AC011]")
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  disable: [AC107, not-a-manifest]\n"
                                                  "  severity: {AC303: error}\n", encoding="utf-8")
    ok = run_cli("lint", "--no-cache", "job.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (ok.returncode, ok.stderr) == (0, ""), ok.stdout


def test_the_api_refuses_them_as_the_command_line_does(tmp_path):
    with pytest.raises(ArgumentError, match=r"disable: AC002 \(input-too-large\) cannot be disabled"):
        ascend_compile.lint_manifests([{"metadata": {"name": "a"}}], disable=["AC107", "input-too-large"])
    config = tmp_path / "cfg.yaml"
    config.write_text("lint:\n  disable: [AC013]\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        ascend_compile.lint_manifests([], config=str(config))
    assert [(f.rule, f.line) for f in caught.value.findings] == [("AC011", 2)]
    assert ascend_compile.lint_manifests([{"metadata": {"name": "a"}}], disable=["AC107"]) == []


@pytest.mark.parametrize("rule,why", [("AC001", "an input error"), ("AC010", "a config error"),
                                      ("AC013", "an output error"), ("AC022", "a spec error")])
def test_explain_says_why_a_rule_cannot_be_disabled(rule, why):
    result = run_cli("explain", rule)
    assert result.returncode == 0
    assert f"Cannot be disabled or suppressed ({why}: " in result.stdout
