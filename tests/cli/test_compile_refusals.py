"""Impossible requests are refused at compile time, naming the rule, the field and the allowed values."""
from __future__ import annotations

import textwrap

import pytest

from tests.checkout import run_cli

BASE = """\
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata:
  name: refused
spec:
  framework: {framework}
  target: {target}
  profile: {profile}
{npus}
  image: train:latest
"""


def spec_text(profile: str, npus: str, framework: str = "pytorch", target: str = "AscendJob") -> str:
    return BASE.format(profile=profile, npus=textwrap.indent(npus, "  "), framework=framework, target=target)


CASES = [
    # (profile, npu lines, rule, line, column, field, allowed values listed)
    ("module-910b-16", "pods: 2\nnpusPerPod: 9", "AC301", 10, 15, "spec.npusPerPod", "1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16"),
    ("module-910b-16", "npus: 9", "AC304", 9, 9, "spec.npus", "1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16"),
    ("module-a3-16", "pods: 2\nnpusPerPod: 3", "AC301", 10, 15, "spec.npusPerPod", "2, 4, 6, 8, 10, 12, 14, 16"),
    ("module-910", "npus: 3", "AC304", 9, 9, "spec.npus", "1, 2, 4, 8"),
    ("module-910", "pods: 1\nnpusPerPod: 3", "AC301", 10, 15, "spec.npusPerPod", "1, 2, 4, 8"),
    ("card-910b-2", "pods: 2\nnpusPerPod: 4", "AC301", 10, 15, "spec.npusPerPod", "allowed: 1, 2"),
    ("module-a3-16-super-pod", "npus: 48\nsuperPod: {spBlock: 24}", "AC302", 10, 13, "spec.superPod",
     "multiple of 16"),
]


@pytest.mark.parametrize("profile,npus,rule,line,column,field,allowed", CASES,
                         ids=[f"{c[0]}-{c[2]}-{c[1].splitlines()[-1]}" for c in CASES])
def test_impossible_npu_request_is_refused(tmp_path, profile, npus, rule, line, column, field, allowed):
    spec = tmp_path / "job.yaml"
    spec.write_text(spec_text(profile, npus))
    result = run_cli("compile", str(spec))
    assert result.returncode == 1, result.stderr
    assert result.stdout == "", "nothing may be written when a spec is refused"
    assert f"{spec}:{line}:{column}: error:" in result.stderr
    assert f"[{rule}]" in result.stderr
    assert field in result.stderr
    assert allowed in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("profile,framework,target,field,allowed", [
    ("310p", "tensorflow", "AscendJob", "spec.framework", "allowed: pytorch, mindspore"),
    ("310p", "pytorch", "VolcanoJob", "spec.target", "allowed: AscendJob"),
])
def test_unsupported_combination_names_profile_and_allowed_values(tmp_path, profile, framework, target, field, allowed):
    spec = tmp_path / "job.yaml"
    spec.write_text(spec_text(profile, "npus: 1", framework=framework, target=target))
    result = run_cli("compile", str(spec))
    assert result.returncode == 1
    assert "[AC022]" in result.stderr and profile in result.stderr
    assert field in result.stderr and allowed in result.stderr


def test_scheduling_dialect_the_profile_lacks_is_refused(tmp_path):
    spec = tmp_path / "job.yaml"
    spec.write_text(spec_text("module-910", "npus: 8") + "  scheduling: schedulePolicy\n")
    result = run_cli("compile", str(spec))
    assert result.returncode == 1
    assert f"{spec}:11:15: error: scheduling dialect 'schedulePolicy' is not supported" in result.stderr


def test_unknown_profile_suggests_the_closest(tmp_path):
    spec = tmp_path / "job.yaml"
    spec.write_text(spec_text("module-910b-9", "npus: 8"))
    result = run_cli("compile", str(spec))
    assert result.returncode == 1
    assert f"{spec}:8:12: error: unknown hardware profile 'module-910b-9' [AC021]" in result.stderr
    assert "did you mean 'module-910b-8'" in result.stderr


def test_one_bad_spec_means_nothing_is_written(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text(spec_text("module-910b-8", "npus: 8").replace("refused", "good"))
    bad = tmp_path / "bad.yaml"
    bad.write_text(spec_text("module-910b-8", "npus: 9"))
    out = tmp_path / "out"
    result = run_cli("compile", str(good), str(bad), "-o", str(out))
    assert result.returncode == 1
    assert not out.exists() or list(out.iterdir()) == []


def test_check_reports_stale_outputs_with_a_diff(tmp_path):
    spec = tmp_path / "job.yaml"
    spec.write_text(spec_text("module-910b-8", "npus: 8").replace("refused", "fresh"))
    out = tmp_path / "out"
    assert run_cli("compile", str(spec), "-o", str(out)).returncode == 0
    assert run_cli("compile", str(spec), "-o", str(out), "--check").returncode == 0
    spec.write_text(spec.read_text().replace("npus: 8", "npus: 4"))
    result = run_cli("compile", str(spec), "-o", str(out), "--check")
    assert result.returncode == 1
    assert "-                huawei.com/Ascend910: 8" in result.stdout
    assert "+                huawei.com/Ascend910: 4" in result.stdout
    assert "stale" in result.stderr


def test_no_specs_at_all_is_an_input_error(tmp_path):
    empty = tmp_path / "empty.yaml"
    empty.write_text("")
    result = run_cli("compile", str(empty))
    assert result.returncode == 2
    assert "no job specs (kind: TrainingJob) in the given paths" in result.stderr


def test_json_report_names_the_rule_and_counts_the_files(tmp_path) -> None:
    import json

    (tmp_path / "bad.yaml").write_text(spec_text("module-910b-8", "npus: 13"))
    (tmp_path / "good.yaml").write_text(spec_text("module-910b-8", "npus: 8").replace("refused", "fine"))
    result = run_cli("compile", str(tmp_path), "--format", "json")
    assert result.returncode == 1 and result.stderr == ""  # the JSON document on stdout, nothing else there
    report = json.loads(result.stdout)
    assert report["summary"]["filesChecked"] == 2 and report["summary"]["errors"] == 1
    [finding] = report["findings"]
    assert finding["rule"] == "AC304" and finding["ruleName"] == "npu-total"


def test_a_refused_spec_is_named_as_lint_and_validate_name_it(tmp_path) -> None:
    """Kind/namespace/name, so a compile finding and a validate finding on one spec name the same object."""
    import json

    spec = tmp_path / "bad.yaml"
    spec.write_text(spec_text("module-910b-8", "npus: 13").replace("  name: refused\n",
                                                                   "  name: refused\n  namespace: team-a\n"))
    compiled = json.loads(run_cli("compile", str(spec), "--format", "json").stdout)
    spec.write_text(spec.read_text().replace("npus: 13", "npuz: 13"))
    validated = json.loads(run_cli("validate", str(spec), "--format", "json").stdout)
    assert [f["object"] for f in compiled["findings"]] == ["TrainingJob/team-a/refused"]
    assert [f["object"] for f in validated["findings"]] == ["TrainingJob/team-a/refused"]
