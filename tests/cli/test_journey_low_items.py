"""Issue 36 item 8, the low items, each as the journey that found it (commands and expected output)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.checkout import run_cli


# explain: rendered for a terminal, the fix first; the severity said once ---------------------------------------

def test_explain_prints_plain_text_with_the_fix_first() -> None:
    result = run_cli("explain", "AC303")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert not re.search(r"\*\*[A-Z][^*]*\.\*\*", out) and not re.search(r"::$", out, re.M), out  # no docs markup
    assert "``" not in out
    lines = out.splitlines()
    fix = next(i for i, line in enumerate(lines) if line.startswith("How to fix."))
    assert fix < 8, out  # the fix right after the summary, not after ~50 lines
    assert lines[fix + 2].startswith("Hint: "), out  # the catalogue's fix hint goes with it
    assert fix < next(i for i, line in enumerate(lines) if line.startswith("What.")), out
    assert "Failing:" in lines and "Passing:" in lines


def test_explain_header_and_text_give_one_severity() -> None:
    out = run_cli("explain", "AC303").stdout
    header = re.match(r"AC303 not-full-node \((\w+)\)", out)
    assert header, out
    said = {"error": "an error", "warning": "a warning", "info": "a note (info)"}[header.group(1)]
    assert f"A convention, so {said}." in " ".join(out.split()), out


def test_every_rule_says_its_own_severity_as_the_catalogue_does() -> None:
    from ascend_compile.catalogue import entries
    from ascend_compile.lint.registry import documentation

    said = {"an error": "error", "a warning": "warning", "a note (info)": "info", "a note": "info"}
    wrong = []
    for entry in entries():
        text = " ".join(documentation(entry).split())
        assert "|severity|" not in text, entry.id
        for claim in re.findall(r"\bso (?:this is )?(an error|a warning|a note \(info\)|a note)\b", text):
            if said[claim] != entry.severity:
                wrong.append((entry.id, entry.severity, claim))
    assert not wrong, wrong


# SARIF from a subfolder: URIs relative to the repository root ------------------------------------------------

ROLLOUT = "apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n"  # AC106, a note


def test_sarif_uris_are_relative_to_the_repository_root_from_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a repository
    sub = tmp_path / "deploy" / "k8s"
    sub.mkdir(parents=True)
    (sub / "rollout.yaml").write_text(ROLLOUT, encoding="utf-8")
    for command in ("lint", "validate"):
        result = run_cli(command, "--format", "sarif", "rollout.yaml", cwd=sub)
        assert result.returncode == 0, result.stderr
        run = json.loads(result.stdout)["runs"][0]
        location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location == {"uri": "deploy/k8s/rollout.yaml", "uriBaseId": "%SRCROOT%"}, command
        assert "%SRCROOT%" in run["originalUriBaseIds"]
        assert str(tmp_path) not in result.stdout  # the same report on every machine
    same = run_cli("lint", "--format", "sarif", "deploy/k8s/rollout.yaml", cwd=tmp_path)
    assert json.loads(same.stdout)["runs"][0]["results"][0]["locations"] == run["results"][0]["locations"]


def test_sarif_outside_a_repository_keeps_the_path_as_given(tmp_path: Path) -> None:
    (tmp_path / "rollout.yaml").write_text(ROLLOUT, encoding="utf-8")
    result = run_cli("lint", "--format", "sarif", "rollout.yaml", cwd=tmp_path, env={"HOME": str(tmp_path)})
    run = json.loads(result.stdout)["runs"][0]
    assert run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"] == {"uri": "rollout.yaml"}
    assert "originalUriBaseIds" not in run
