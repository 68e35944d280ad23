"""scripts/quickstart.py: the README's quick start, run as a newcomer runs it (.ci/run's first stage).

The whole run takes the suite's time and is .ci/run's business; here: which lines it takes from the
README, how it judges pytest's summary, and, on a small repository of its own, that it refuses a README
without the block, runs the lines in the new venv with nothing else set, and stops at a failing line.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.checkout import ROOT

SCRIPT = ROOT / "scripts" / "quickstart.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("quickstart_script", SCRIPT)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


quickstart = _load()


def test_the_readme_block_is_the_two_commands() -> None:
    lines = quickstart.quickstart_lines((ROOT / "README.md").read_text(encoding="utf-8"))
    assert lines == ['python3 -m pip install -e ".[test]" && ascend-compile compile examples/pytorch-module-910b-8.yaml',
                     "python3 -m pytest"]


def test_only_the_first_sh_block_of_the_section_counts() -> None:
    readme = ("# x\n\n```sh\nnot this\n```\n\n## Quick start\n\ntext\n\n```sh\n# a comment\none \\\n  --flag\n\n"
              "two\n```\n\n```sh\nnot this either\n```\n\n## Next\n\n```sh\nnor this\n```\n")
    assert quickstart.quickstart_lines(readme) == ["one   --flag", "two"]


@pytest.mark.parametrize("readme, says", [
    ("# x\n\nno heading\n", "no '## Quick start' heading"),
    ("## Quick start\n\ntext only\n\n## Next\n\n```sh\nls\n```\n", "no complete ```sh block"),
    ("## Quick start\n\n```sh\nls\n", "no complete ```sh block"),
    ("## Quick start\n\n```sh\n# only a comment\n\n```\n", "holds no command"),
])
def test_a_readme_without_the_block_is_refused(readme: str, says: str, tmp_path: Path) -> None:
    with pytest.raises(quickstart.QuickstartError, match=re.escape(says)):
        quickstart.quickstart_lines(readme)
    (tmp_path / "README.md").write_text(readme)
    result = subprocess.run([sys.executable, str(SCRIPT), "--list", "--readme", str(tmp_path / "README.md")],
                            capture_output=True, text=True)
    assert result.returncode == 2 and says in result.stderr and result.stdout == ""


SKIP_KPT = "SKIPPED [3] tests/ecosystem/test_krm.py:339: kpt is not installed: the kpt fn eval --exec runs are skipped"
SKIP_OTHER = "SKIPPED [2] tests/hardening/test_cluster.py:145: could not import 'kubernetes'"


@pytest.mark.parametrize("output, problems", [
    ("==== 3061 passed, 77 deselected in 1601.29s (0:26:41) ====", []),
    (f"{SKIP_KPT}\n==== 3061 passed, 3 skipped, 77 deselected in 1601.29s (0:26:41) ====", []),
    ("3061 passed, 1 warning in 12.00s", []),
    (f"{SKIP_KPT}\n{SKIP_OTHER}\n=== 3061 passed, 5 skipped in 9.1s ===",
     ["2 skipped (only kpt's skip is allowed): [2] tests/hardening/test_cluster.py:145: could not import 'kubernetes'"]),
    ("=== 3061 passed, 15 skipped, 77 deselected, 187 errors in 1601.29s (0:26:41) ===",
     ["187 errors", "15 skipped (only kpt's skip is allowed): "]),
    ("=== 1 failed, 2 passed, 1 error in 3.0s ===", ["1 failed", "1 errors"]),
    ("=== 77 deselected in 3.0s ===", ["no test passed"]),
    ("pip says: Successfully installed\n", ["no pytest summary line in the quick start's output: "
                                            "its commands must run the test suite"]),
])
def test_the_verdict_on_pytest_summary(output: str, problems: list) -> None:
    assert quickstart.judge(quickstart.pytest_summary(output)) == problems


def test_judge_reads_a_saved_output(tmp_path: Path) -> None:
    saved = tmp_path / "pytest.txt"
    saved.write_text(f"{SKIP_OTHER}\n2 passed, 2 skipped in 1.0s\n")
    result = subprocess.run([sys.executable, str(SCRIPT), "--judge", str(saved)], capture_output=True, text=True)
    assert result.returncode == 1 and "FAILED: 2 skipped" in result.stdout
    saved.write_text("2 passed in 1.0s\n")
    result = subprocess.run([sys.executable, str(SCRIPT), "--judge", str(saved)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def _project(tmp_path: Path, block: str) -> Path:
    """A one-commit repository holding the script and a README, with ../shared beside it."""
    (tmp_path / "shared").mkdir()
    repo = tmp_path / "project"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(SCRIPT, repo / "scripts" / "quickstart.py")
    (repo / "README.md").write_text(f"# project\n\n## Quick start\n\n{block}\n## More\n")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com", GIT_CONFIG_NOSYSTEM="1")
    for args in (["init", "-q", "."], ["add", "-A"], ["-c", "commit.gpgsign=false", "commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env, check=True)
    return repo


def _run(repo: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, ASCEND_COMPILE_SOMETHING="developer's", PYTEST_ADDOPTS="-x", PIP_NO_CACHE_DIR="0")
    # the venv without pip (these READMEs install nothing): seconds instead of half a minute
    python = repo.parent / "python-without-pip"
    python.write_text(f'#!/bin/sh\nexec {sys.executable} "$@" --without-pip\n')
    python.chmod(0o755)
    return subprocess.run([sys.executable, str(repo / "scripts" / "quickstart.py"), "--python", str(python),
                           *args], capture_output=True, text=True, env=env, timeout=300)


def test_a_clone_without_the_block_is_refused_before_anything_runs(tmp_path: Path) -> None:
    repo = _project(tmp_path, "Run `make`.\n")
    result = _run(repo)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "'## Quick start' section has no complete ```sh block" in result.stderr
    assert "== venv" not in result.stdout


def test_the_lines_run_in_the_new_venv_and_a_failing_line_ends_the_run(tmp_path: Path) -> None:
    block = ("```sh\n"
             'echo "venv=$VIRTUAL_ENV python=$(command -v python3) cache=$XDG_CACHE_HOME nocache=$PIP_NO_CACHE_DIR '
             'addopts=${PYTEST_ADDOPTS-unset} ours=${ASCEND_COMPILE_SOMETHING-unset} here=$(basename $PWD)"\n'
             "test -d ../shared && false\n"
             "echo never\n```\n")
    repo = _project(tmp_path, block)
    result = _run(repo)
    out = result.stdout
    assert result.returncode == 1, out + result.stderr
    said = next(line for line in out.splitlines() if line.startswith("venv="))
    fields = dict(field.split("=", 1) for field in said.split())
    top = Path(fields["venv"]).parent
    assert fields["python"] == f"{top}/venv/bin/python3" and fields["venv"] == f"{top}/venv"
    assert fields["cache"] == f"{top}/cache" and fields["nocache"] == "1"
    assert fields["addopts"] == "unset" and fields["ours"] == "unset" and fields["here"] == "ascend-compile"
    assert "never" not in out.replace("echo never", "")
    assert "FAILED: README line 2 exited 1: test -d ../shared && false" in out
    assert "exit 0  README line 1:" in out and "exit 1  README line 2:" in out and "in all" in out
    assert not top.exists()  # the temporary folder is removed


def test_the_environment_is_a_newcomers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    venv_bin = tmp_path / "devvenv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin.parent / "pyvenv.cfg").write_text("home = /usr/bin\n")
    monkeypatch.setenv("PATH", f"{venv_bin}{os.pathsep}/usr/bin")
    for name in ("VIRTUAL_ENV", "PYTHONPATH", "PYTEST_ADDOPTS", "KUSTOMIZE", "ASCEND_COMPILE_WHEELHOUSE",
                 "PYTHONDONTWRITEBYTECODE"):
        monkeypatch.setenv(name, "developer's")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "0")
    monkeypatch.setenv("HOME", "/home/newcomer")
    warm = quickstart.newcomer_env(tmp_path / "warm", cold=False, pytest_addopts="")
    assert warm["XDG_CACHE_HOME"] == str(tmp_path / "warm") and "PIP_NO_CACHE_DIR" not in warm
    assert warm["PATH"] == "/usr/bin" and warm["HOME"] == "/home/newcomer"
    assert not {"VIRTUAL_ENV", "PYTHONPATH", "PYTEST_ADDOPTS", "KUSTOMIZE", "ASCEND_COMPILE_WHEELHOUSE",
                "PYTHONDONTWRITEBYTECODE"} & set(warm)
    cold = quickstart.newcomer_env(tmp_path / "cold", cold=True, pytest_addopts="tests/unit")
    assert cold["PIP_NO_CACHE_DIR"] == "1" and cold["PYTEST_ADDOPTS"] == "tests/unit"
