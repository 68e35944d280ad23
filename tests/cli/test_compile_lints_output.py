"""``compile`` lints its own output: warnings to stderr, errors refuse the output, ``--no-lint`` skips it."""
from __future__ import annotations

from pathlib import Path

from tests.checkout import run_cli

SPEC = """\
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata: {name: job}
spec:
  framework: pytorch
  profile: module-910b-8
  pods: 2
  npusPerPod: 4
  image: t:1
"""


def _write(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "job.yaml"
    path.write_text(SPEC + extra)
    return str(path)


def test_warnings_about_the_output_go_to_stderr(tmp_path):
    result = run_cli("compile", _write(tmp_path, "  env: {DB_PASSWORD: hunter2}\n"))
    assert result.returncode == 0, result.stderr
    assert "kind: AscendJob" in result.stdout
    assert "[AC801]" in result.stderr and "[AC303]" not in result.stderr  # not-full-node is a note (info)
    assert "job.yaml (compiled)" in result.stderr and "AC801" not in result.stdout


def test_no_lint_prints_nothing_more(tmp_path):
    result = run_cli("compile", "--no-lint", _write(tmp_path))
    assert result.returncode == 0 and result.stderr == ""
    assert "kind: AscendJob" in result.stdout


def test_a_lint_error_in_the_output_refuses_it(tmp_path):
    patch = "  podTemplatePatch:\n    spec:\n      nodeSelector: {accelerator-type: module-910b-9}\n"
    out = tmp_path / "out"
    result = run_cli("compile", _write(tmp_path, patch), "-o", str(out))
    assert result.returncode == 1
    assert "[AC306]" in result.stderr
    assert not out.exists() or not any(out.iterdir())
