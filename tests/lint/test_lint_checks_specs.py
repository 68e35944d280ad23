"""``lint`` checks a job spec (kind: TrainingJob) the way ``compile`` does: every error compile reports, at the
same file, line and column, exit 1, and nothing written.  (It used to schema-check specs only, so the shipped
``ascend-compile-lint`` hook passed a spec that ``compile`` refuses.)"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest

from ascend_compile import api
from tests.checkout import run_cli
from tests.specs_passed_through import ENV_PATCH, HEAD, JOB, SCHEDULER_PATCH

CASES = {
    "npus-off-the-profile": HEAD + "  profile: module-910b-8\n  npus: 12\n  image: t:1\n",
    "unknown-profile": HEAD + "  profile: module-910b-88\n  npus: 8\n  image: t:1\n",
    "job-patch-env-integer": ENV_PATCH,
    "output-lint-error": SCHEDULER_PATCH,
}


def _error_lines(stderr_or_stdout: str) -> List[str]:
    """The first line of each error ("file:line:col: error: message [rule]"), in order."""
    return [line for line in stderr_or_stdout.splitlines() if ": error: " in line]


def _files(folder: Path) -> List[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_lint_reports_what_compile_reports_where_compile_reports_it(name: str, tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(CASES[name], encoding="utf-8")
    before = _files(tmp_path)
    compiled = run_cli("compile", str(path))
    linted = run_cli("lint", "--no-cache", str(path))
    assert compiled.returncode == 1, compiled.stderr
    assert linted.returncode == 1, linted.stdout + linted.stderr
    assert _error_lines(compiled.stderr) and _error_lines(linted.stdout) == _error_lines(compiled.stderr)
    assert _files(tmp_path) == before  # nothing written


def test_the_findings_are_located_on_the_spec(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(CASES["npus-off-the-profile"], encoding="utf-8")
    linted = run_cli("lint", "--no-cache", str(path))
    assert _error_lines(linted.stdout)[0].startswith(f"{path}:7:9: error: 12 NPUs cannot be placed on module-910b-8")
    path.write_text(CASES["unknown-profile"], encoding="utf-8")
    linted = run_cli("lint", "--no-cache", str(path))
    assert _error_lines(linted.stdout) == [f"{path}:6:12: error: unknown hardware profile 'module-910b-88' [AC021]"]


def test_the_lint_hook_refuses_a_spec_compile_refuses(tmp_path: Path) -> None:
    hooks = (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert "  entry: ascend-compile lint\n" in hooks  # the hook runs the command tested here, with the result cache
    path = tmp_path / "job.yaml"
    path.write_text(CASES["npus-off-the-profile"], encoding="utf-8")
    cache = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    for _ in range(2):  # filling the result cache, then answered from it
        linted = run_cli("lint", str(path), env=cache)
        assert linted.returncode == 1 and "[AC304]" in linted.stdout


def test_a_spec_that_compiles_is_clean_and_its_output_warnings_are_reported(tmp_path: Path) -> None:
    assert run_cli("lint", "--no-cache", "examples/pytorch-module-910b-8.yaml").returncode == 0
    path = tmp_path / "job.yaml"
    path.write_text(JOB + "  env: {DB_PASSWORD: hunter2}\n", encoding="utf-8")
    linted = run_cli("lint", "--no-cache", str(path))
    assert linted.returncode == 0 and "[AC801]" in linted.stdout


def test_the_api_lints_a_spec_path_as_compile_checks_it(tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    path.write_text(CASES["unknown-profile"], encoding="utf-8")
    assert [(f.rule, f.line, f.column) for f in api.lint_manifests(str(path))] == [("AC021", 6, 12)]
