"""A file NOT CHECKED (AC014) cannot be silenced or lowered (issue 43, M1).

A pull request's own ``.ascend-compile.yaml`` disabled AC014 (or set it to info) and added a kustomization listing,
as patches, a job spec with a spec error and a file of invalid YAML, two errors no setting may silence: lint and
validate said "No problems found (0 files checked)" and exited 0, with ``--fail-on warning`` too, and for the
files named on the command line.  AC014 is now a rule nothing silences: the config naming it is a located config
error (exit 2), as for the other rules no setting changes, ``--disable AC014`` a usage error, and no baseline
accepts it.  A run whose every input was left out says so, never "No problems found".
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hardening.helpers import assert_clean, cli, output, write

#: a job spec naming no known profile (a spec error, AC021: no setting silences it) and a file that is not YAML
SPEC_ERROR = ("apiVersion: ascend-compile.io/v1alpha1\nkind: TrainingJob\nmetadata: {name: hidden}\n"
              "spec: {framework: pytorch, profile: no-such-profile, image: train:1, npus: 8}\n")
INVALID_YAML = "spec: [unclosed\n  key: : value\n"
KUSTOMIZATION = "resources: []\npatches:\n- path: job.yaml\n- path: broken.yaml\n"
CONFIGS = {
    "disabled by ID": ("lint:\n  disable: [AC014]\n", "2:13", "lint.disable: AC014 (kustomize-part-not-checked) "
                                                              "cannot be disabled"),
    "disabled by name": ("lint:\n  disable: [kustomize-part-not-checked]\n", "2:13",
                         "lint.disable: AC014 (kustomize-part-not-checked) cannot be disabled"),
    "lowered to info": ("lint:\n  severity: {AC014: info}\n", "2:14",
                        "lint.severity: AC014 (kustomize-part-not-checked) cannot be given another severity"),
}
RUNS = [("lint", "--no-cache"), ("lint", "--no-cache", "--fail-on", "warning"), ("validate",),
        ("validate", "--fail-on", "warning")]
PATHS = [(".",), ("job.yaml", "broken.yaml")]


def _repo(tmp_path: Path, config: str = "") -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / "kustomization.yaml", KUSTOMIZATION)
    write(repo / "job.yaml", SPEC_ERROR)
    write(repo / "broken.yaml", INVALID_YAML)
    if config:
        write(repo / ".ascend-compile.yaml", config)
    return repo


def _run(repo: Path, *args: str):
    return cli(*args, cwd=repo, env={"NO_COLOR": "1"})


def test_without_the_kustomization_the_files_are_errors_no_baseline_accepts(tmp_path: Path) -> None:
    """What the kustomization hid: an input error and a spec error, which a baseline does not accept either (it
    accepted the spec error: only input errors were left out of baselines)."""
    repo = _repo(tmp_path)
    (repo / "kustomization.yaml").unlink()
    written = _run(repo, "lint", "--no-cache", "--write-baseline", "baseline.json", "job.yaml", "broken.yaml")
    assert_clean(written, (2,), "wrote baseline baseline.json: 0 finding(s)")
    for args in ((), ("--baseline", "baseline.json")):
        proc = _run(repo, "lint", "--no-cache", *args, "job.yaml", "broken.yaml")
        assert_clean(proc, (2,), "broken.yaml:2:6: error: is not valid YAML", "[AC003]",
                     "job.yaml:4:37: error: unknown hardware profile 'no-such-profile' [AC021]")


@pytest.mark.parametrize("config", sorted(CONFIGS))
@pytest.mark.parametrize("run", RUNS, ids=" ".join)
@pytest.mark.parametrize("paths", PATHS, ids=" ".join)
def test_the_repositorys_config_cannot_disable_or_lower_ac014(tmp_path: Path, config: str, run, paths) -> None:
    text, at, message = CONFIGS[config]
    repo = _repo(tmp_path, text)
    refused = _run(repo, *run, *paths)
    assert_clean(refused, (2,), f".ascend-compile.yaml:{at}: error: {message} (a file not checked: a run must "
                                "never look clean because a kustomization named its files) [AC011]")
    assert "No problems found" not in output(refused)
    # without the setting: both files NOT CHECKED, each a warning (exit 1 with --fail-on warning)
    (repo / ".ascend-compile.yaml").unlink()
    proc = _run(repo, *run, *paths)
    assert_clean(proc, (1,) if "warning" in run else (0,), "job.yaml: warning: was NOT CHECKED",
                 "broken.yaml: warning: was NOT CHECKED", "2 warnings in 2 files (0 files checked). 2 files NOT "
                 "CHECKED: a kustomization merges them into objects (AC014).")
    assert "No problems found" not in output(proc)


@pytest.mark.parametrize("command", [("lint", "--no-cache"), ("validate",)])
@pytest.mark.parametrize("disable", ["AC014", "kustomize-part-not-checked", "AC009,ac014"])
def test_disable_on_the_command_line_is_a_usage_error(tmp_path: Path, command, disable: str) -> None:
    proc = _run(_repo(tmp_path), *command, "--disable", disable, "job.yaml", "broken.yaml")
    assert_clean(proc, (2,), "--disable: AC014 (kustomize-part-not-checked) cannot be disabled")
    assert proc.stdout_text == ""  # type: ignore[attr-defined]


def test_no_baseline_accepts_a_file_not_checked(tmp_path: Path) -> None:
    """Neither one the tool writes nor one forged with the findings' exact identities (the PR may commit it)."""
    repo = _repo(tmp_path)
    written = _run(repo, "lint", "--no-cache", "--write-baseline", "written.json", ".")
    assert_clean(written, (0,), "wrote baseline written.json: 0 finding(s)")
    assert json.loads((repo / "written.json").read_text())["findings"] == []
    reported = json.loads(_run(repo, "lint", "--no-cache", "--format", "json", ".").stdout_text)["findings"]
    forged = [{"rule": f["rule"], "file": f["file"][2:], "apiVersion": "", "object": f["object"],
               "path": f["pathElements"], "message": f["message"]} for f in reported]
    assert sorted(f["rule"] for f in forged) == ["AC014", "AC014"]
    write(repo / "forged.json", json.dumps({"ascendCompileBaseline": 3, "findings": forged}))
    for baseline in ("written.json", "forged.json"):
        write(repo / ".ascend-compile.yaml", f"lint:\n  baseline: {baseline}\n")
        for args in (("--fail-on", "warning", "."), ("--fail-on", "warning", "job.yaml", "broken.yaml"),
                     ("--baseline", baseline, "--fail-on", "warning", ".")):
            proc = _run(repo, "lint", "--no-cache", *args)
            assert_clean(proc, (1,), "2 files NOT CHECKED", "0 finding(s) baselined")
            assert "No problems found" not in output(proc)


def test_a_comment_naming_ac014_is_reported_as_doing_nothing(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    write(repo / "cm.yaml", "# ascend-compile: disable-file=AC014\n"
                            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n")
    proc = _run(repo, "lint", "--no-cache", "--fail-on", "warning", "cm.yaml", "job.yaml")
    assert_clean(proc, (1,), "cm.yaml:1:1: warning: AC014 cannot be suppressed (a file not checked", "[AC012]",
                 "job.yaml: warning: was NOT CHECKED", "1 file NOT CHECKED")


def test_the_python_api_refuses_it_as_the_command_line_does(tmp_path: Path) -> None:
    import ascend_compile
    from ascend_compile.errors import ArgumentError, InputError

    with pytest.raises(ArgumentError, match=r"disable: AC014 \(kustomize-part-not-checked\) cannot be disabled"):
        ascend_compile.lint_manifests([], disable=["AC014"])
    config = write(tmp_path / "cfg.yaml", "lint:\n  severity: {kustomize-part-not-checked: info}\n")
    with pytest.raises(InputError) as caught:
        ascend_compile.lint_manifests([], config=str(config))
    assert [(f.rule, f.line, f.column) for f in caught.value.findings] == [("AC011", 2, 14)]
