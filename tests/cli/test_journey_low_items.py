"""Issue 36 item 8, the low items, each as the journey that found it (commands and expected output)."""
from __future__ import annotations

import json
import re
from pathlib import Path

from tests.checkout import ROOT, run_cli


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


# lint --fix --diff: says what happened when --fix was given too ---------------------------------------------

def test_fix_with_diff_changes_nothing_and_says_so(tmp_path: Path) -> None:
    compiled = run_cli("compile", str(ROOT / "examples" / "pytorch-module-910b-8.yaml"))
    assert compiled.returncode == 0, compiled.stderr
    text = compiled.stdout.replace("            env:\n", "            env:\n            - name: T\n              value: 600\n", 1)
    manifest = tmp_path / "job.yaml"
    manifest.write_text(text, encoding="utf-8")
    both = run_cli("lint", "--no-cache", "--fix", "--diff", "job.yaml", cwd=tmp_path)
    assert both.returncode == 1 and '+              value: "600"' in both.stdout, both.stderr
    assert "--diff changed nothing; run without --diff to make the changes" in both.stderr
    assert "--fix makes the changes" not in both.stderr
    assert manifest.read_text(encoding="utf-8") == text
    alone = run_cli("lint", "--no-cache", "--diff", "job.yaml", cwd=tmp_path)
    assert "--fix makes the changes" in alone.stderr


# nothing read: an input error, never "No problems found" ----------------------------------------------------

def test_an_empty_folder_is_an_input_error_not_a_clean_run(tmp_path: Path) -> None:
    (tmp_path / "k8s").mkdir()
    for command in ("lint", "validate"):
        result = run_cli(command, "k8s", cwd=tmp_path)
        assert result.returncode == 2, (command, result.stdout, result.stderr)
        assert "No problems found" not in result.stdout and "0 files checked" not in result.stdout, command
        assert f"ascend-compile {command}: no YAML files found in the given paths" in result.stderr


# an output collision is an output that could not be written, not an input that could not be read ------------

def test_an_import_collision_says_an_output_could_not_be_written(tmp_path: Path) -> None:
    example = ROOT / "examples" / "pytorch-module-910b-8.yaml"
    for namespace in ("prod", "staging"):
        spec = tmp_path / f"{namespace}.spec.yaml"
        spec.write_text(example.read_text(encoding="utf-8").replace("namespace: training", f"namespace: {namespace}"),
                        encoding="utf-8")
        (tmp_path / "live").mkdir(exist_ok=True)
        (tmp_path / "live" / f"{namespace}.yaml").write_text(run_cli("compile", str(spec)).stdout, encoding="utf-8")
    result = run_cli("import", "live", "-o", "specs", cwd=tmp_path)
    assert result.returncode == 2 and "[AC013]" in result.stderr, result.stderr
    assert "1 output could not be written." in result.stderr and "could not be read" not in result.stderr
    assert not (tmp_path / "specs").exists()


# a configured baseline: shown, clear before it exists, matched from a subfolder ------------------------------

def test_a_configured_baseline_from_first_run_to_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a repository
    (tmp_path / "k8s").mkdir()
    compiled = run_cli("compile", str(ROOT / "examples" / "pytorch-module-910b-8.yaml")).stdout
    (tmp_path / "k8s" / "job.yaml").write_text(compiled.replace("kind: AscendJob\n", "kind: AscendJob\nbogus: 1\n", 1),
                                               encoding="utf-8")  # an AC101 error
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  baseline: .ascend-compile-baseline.json\n",
                                                   encoding="utf-8")
    shown = run_cli("lint", "--show-config", cwd=tmp_path)
    assert f'"baseline": "{tmp_path / ".ascend-compile-baseline.json"}"' in shown.stdout, shown.stdout
    first = run_cli("lint", "--no-cache", "k8s", cwd=tmp_path)  # the baseline is not written yet: not exit 2
    assert first.returncode == 1 and "[AC101]" in first.stdout, first.stdout + first.stderr
    assert "which does not exist yet, so every finding is reported" in first.stderr
    assert "--write-baseline" in first.stderr
    wrote = run_cli("lint", "--no-cache", "k8s", "--write-baseline", ".ascend-compile-baseline.json", cwd=tmp_path)
    assert wrote.returncode == 0, wrote.stderr
    assert run_cli("lint", "--no-cache", "k8s", cwd=tmp_path).returncode == 0
    sub = run_cli("lint", "--no-cache", "job.yaml", cwd=tmp_path / "k8s")  # pre-commit or a developer in k8s/
    assert sub.returncode == 0, sub.stdout + sub.stderr
    assert "1 finding(s) baselined (not shown), 0 stale entries" in sub.stderr
    # written from the subfolder, the entries are the same
    again = run_cli("lint", "--no-cache", ".", "--write-baseline", "../.ascend-compile-baseline.json",
                    cwd=tmp_path / "k8s")
    assert again.returncode == 0, again.stderr
    assert '"file": "k8s/job.yaml"' in (tmp_path / ".ascend-compile-baseline.json").read_text(encoding="utf-8")
