"""The shared reporters: text, json, sarif, github."""
from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest

from ascend_compile.findings import ERROR, INFO, WARNING, Finding
from ascend_compile.report import FORMATS, RuleInfo, default_rules, render

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SARIF_SCHEMA = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))), "shared", "standards", "sarif-schema-2.1.0.json")

FINDINGS = [
    Finding("AC101", ERROR, 'unknown field "replicaSpec"', ("spec", "replicaSpec"),
            'did you mean "replicaSpecs"?', "jobs/b.yaml", 12, 3, "AscendJob/default/resnet"),
    Finding("AC102", ERROR, "expected a string, got an integer (1)",
            ("spec", "containers", 0, "env", 0, "value"), 'quote it: "1"', "jobs/a.yaml", 40, 26),
    Finding("AC106", WARNING, "no built-in schema for apps/v1 Deployment", ("kind",), "", "jobs/a.yaml", 3, 7),
    Finding("AC001", ERROR, "no such file or directory", (), "check the path", "missing.yaml", input_error=True),
    Finding("X900", INFO, "a note, 100% odd: with, commas\nand a newline", (), "", "we,ird:name.yaml", 1, 1),
]


def rendered(fmt, findings=FINDINGS, **kwargs):
    stream = io.StringIO()
    render(findings, fmt, stream=stream, **kwargs)
    return stream.getvalue()


class FakeTTY(io.StringIO):
    def isatty(self):
        return True


# --------------------------------------------------------------------------- text


def test_text_groups_by_file_and_summarises():
    out = rendered("text", files_checked=4, color=False)
    lines = out.splitlines()
    assert lines[0] == "jobs/a.yaml:3:7: warning: no built-in schema for apps/v1 Deployment [AC106]"
    assert "jobs/a.yaml:40:26: error: expected a string, got an integer (1) [AC102]" in lines
    assert "    at: spec.containers[0].env[0].value" in lines
    assert '    hint: quote it: "1"' in lines
    assert "    at: spec.replicaSpec  (AscendJob/default/resnet)" in lines
    assert "missing.yaml: error: no such file or directory [AC001]" in lines
    # a blank line between files, none inside a file
    a_index = lines.index("jobs/a.yaml:40:26: error: expected a string, got an integer (1) [AC102]")
    assert lines[a_index + 3] == ""
    assert lines[-1] == ("3 errors, 1 warning, 1 note in 4 files (4 files checked). "
                         "1 input could not be read.")


def test_text_clean_and_quiet():
    assert rendered("text", [], files_checked=2) == "No problems found (2 files checked).\n"
    assert rendered("text", [], quiet=True) == ""
    assert "checked" not in rendered("text", FINDINGS, quiet=True)


def test_text_colour_only_on_a_tty_without_no_color(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    plain = io.StringIO()
    render(FINDINGS, "text", stream=plain)
    assert "\033[" not in plain.getvalue()
    tty = FakeTTY()
    render(FINDINGS, "text", stream=tty)
    assert "\033[1;31merror\033[0m" in tty.getvalue()
    monkeypatch.setenv("NO_COLOR", "1")
    tty = FakeTTY()
    render(FINDINGS, "text", stream=tty)
    assert "\033[" not in tty.getvalue()
    forced = io.StringIO()
    render(FINDINGS, "text", stream=forced, color=True)
    assert "\033[" in forced.getvalue()


# --------------------------------------------------------------------------- json


def test_json_shape_is_stable():
    report = json.loads(rendered("json", files_checked=4, tool_version="9.9.9"))
    assert report["schemaVersion"] == 1
    assert report["tool"] == {"name": "ascend-compile", "version": "9.9.9"}
    assert report["summary"] == {"filesChecked": 4, "errors": 3, "warnings": 1, "notes": 1, "inputErrors": 1,
                                 "filesNotChecked": 0}
    first = report["findings"][0]
    assert set(first) == {"rule", "ruleName", "severity", "message", "hint", "file", "line", "column", "path",
                          "pathElements", "object", "inputError"}
    assert [f["file"] for f in report["findings"]] == ["jobs/a.yaml", "jobs/a.yaml", "jobs/b.yaml",
                                                        "missing.yaml", "we,ird:name.yaml"]
    a102 = report["findings"][1]
    assert a102["ruleName"] == "wrong-type"
    assert a102["path"] == "spec.containers[0].env[0].value"
    assert a102["pathElements"] == ["spec", "containers", 0, "env", 0, "value"]
    assert rendered("json") == rendered("json")


# --------------------------------------------------------------------------- sarif


def test_sarif_is_valid_against_the_2_1_0_schema():
    if not os.path.exists(SARIF_SCHEMA):
        pytest.skip(f"the SARIF 2.1.0 schema ({SARIF_SCHEMA}) is not in this checkout")
    jsonschema = pytest.importorskip("jsonschema")
    with open(SARIF_SCHEMA, encoding="utf-8") as handle:
        schema = json.load(handle)
    report = json.loads(rendered("sarif"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    empty = json.loads(rendered("sarif", []))
    assert not list(validator.iter_errors(empty))


def test_sarif_rules_and_results():
    rules = {"X900": RuleInfo("X900", "odd-note", INFO, "An odd note.", "Because.", "Do less.",
                              "https://example.invalid/X900")}
    report = json.loads(rendered("sarif", rules=rules))
    run = report["runs"][0]
    assert report["version"] == "2.1.0"
    driver = run["tool"]["driver"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == sorted(ids) and {"AC001", "AC101", "AC107", "X900"} <= set(ids)
    x900 = driver["rules"][ids.index("X900")]
    assert x900["defaultConfiguration"]["level"] == "note"
    assert x900["fullDescription"]["text"] == "An odd note. Because."
    assert x900["help"]["text"].endswith("Fix: Do less.")
    assert x900["helpUri"] == "https://example.invalid/X900"
    assert driver["rules"][ids.index("AC106")]["defaultConfiguration"]["level"] == "warning"
    for rule in driver["rules"]:  # a catalogue entry's documentation opens with its summary: said once
        summary, full = rule["shortDescription"]["text"], rule["fullDescription"]["text"]
        assert full.startswith(summary) and summary not in full[len(summary):], rule["id"]
    for result in run["results"]:
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    region = by_rule["AC102"]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 40, "startColumn": 26}
    assert by_rule["AC102"]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "jobs/a.yaml"
    assert "region" not in by_rule["AC001"]["locations"][0]["physicalLocation"]
    assert by_rule["X900"]["level"] == "note"
    assert "did you mean" in by_rule["AC101"]["message"]["text"]


def test_sarif_uris():
    from ascend_compile.report._sarif import artifact_uri

    assert artifact_uri("a b/c.yaml") == "a%20b/c.yaml"
    assert artifact_uri("/abs/x.yaml") == "file:///abs/x.yaml"
    assert artifact_uri("<stdin>") == "stdin"


# --------------------------------------------------------------------------- github


def test_github_workflow_commands_and_escaping():
    lines = rendered("github", files_checked=4).splitlines()
    assert lines[0].startswith("::warning file=jobs/a.yaml,line=3,col=7,title=AC106 unknown-kind::")
    assert lines[1] == ('::error file=jobs/a.yaml,line=40,col=26,title=AC102 wrong-type::expected a string, '
                        'got an integer (1)%0Aat: spec.containers[0].env[0].value%0Ahint: quote it: "1"')
    assert lines[3] == "::error file=missing.yaml,title=AC001 unreadable-input::no such file or directory%0Ahint: " \
                       "check the path"
    odd = lines[4]
    assert odd.startswith("::notice file=we%2Cird%3Aname.yaml,line=1,col=1,title=X900 X900::")
    # the message's own line break is the input's (no message spans lines): written as an escape, so the
    # annotation's only line breaks (%0A) are the ones before its "at:" and "hint:"
    assert odd.endswith("::a note, 100%25 odd: with, commas\\nand a newline")
    assert lines[-1].startswith("3 errors, 1 warning")
    assert len(rendered("github", quiet=True).splitlines()) == len(FINDINGS)


# --------------------------------------------------------------------------- api


def test_unknown_format_is_refused():
    with pytest.raises(ValueError):
        render(FINDINGS, "xml", stream=io.StringIO())
    assert FORMATS == ("text", "json", "sarif", "github")


def test_default_rules_cover_input_and_schema_rules():
    rules = default_rules()
    assert {f"AC00{i}" for i in range(1, 7)} <= set(rules)
    assert {f"AC10{i}" for i in range(1, 8)} <= set(rules)
    assert rules["AC106"].severity == WARNING and rules["AC101"].name == "unknown-field"


def test_formats_are_imported_lazily():
    code = ("import sys, io\nfrom ascend_compile.report import render\n"
            "render([], 'text', stream=io.StringIO())\n"
            "print(sorted(m for m in sys.modules if m.startswith('ascend_compile.report.')))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['ascend_compile.report._text']"
