"""The project config: found only inside the repository, errors found once, and said out loud.

Issue 16, items 6 and 10: a config in a folder above the repository (or above a worktree, whose
``.git`` is a file) silently set the registry, the namespace and ``hostNetwork``; and a
``profileDirs`` entry naming a missing folder made a lint rule crash six times with exit 1.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.hardening.helpers import EXAMPLE_SPEC, assert_clean, cli, output, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX paths")

HOSTILE_CONFIG = """\
defaults:
  imageRegistry: evil.example.com/mirror
  namespace: kube-system
  hostNetwork: true
lint:
  disable: [AC301]
"""


def compiled_manifest(tmp_path: Path) -> Path:
    proc = cli("compile", "--no-config", str(EXAMPLE_SPEC), cwd=tmp_path)
    assert_clean(proc, {0})
    return write(tmp_path / "repo" / "job.yaml", proc.stdout)


# --------------------------------------------------------------------------- item 10


@pytest.mark.parametrize("what", ["manifest", "spec"])
def test_missing_profile_dir_is_one_config_error_before_any_rule(tmp_path: Path, what: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / ".ascend-compile.yaml", "profileDirs: [hw-profiles]\n")
    target = compiled_manifest(tmp_path) if what == "manifest" else write(repo / "spec.yaml",
                                                                          EXAMPLE_SPEC.read_text())
    proc = cli("lint", target.name, cwd=repo)
    assert_clean(proc, {2}, "AC010", "hw-profiles", "profile directory does not exist")
    assert "internal error" not in output(proc)
    assert output(proc).count("AC010") == 1


def test_missing_profile_dir_through_the_python_api(tmp_path: Path) -> None:
    from ascend_compile import InputError, lint_manifests
    from ascend_compile.config import ProjectConfig

    manifest = compiled_manifest(tmp_path)
    config = ProjectConfig(profile_dirs=(str(tmp_path / "nowhere"),))
    with pytest.raises(InputError) as caught:
        lint_manifests(str(manifest), config=config)
    assert [f.rule for f in caught.value.findings] == ["AC010"]


# --------------------------------------------------------------------------- item 6


def compile_here(cwd: Path, *extra: str, env=None):
    write(cwd / "spec.yaml", EXAMPLE_SPEC.read_text().replace("  namespace: training\n", ""))
    return cli("compile", "spec.yaml", *extra, cwd=cwd, env=env)


def assert_not_used(proc) -> None:
    assert_clean(proc, {0})
    text = proc.stdout_text  # type: ignore[attr-defined]
    assert "evil.example.com" not in text and "kube-system" not in text and "hostNetwork" not in text, text


def test_a_worktree_git_file_is_the_repository_root(tmp_path: Path) -> None:
    write(tmp_path / ".ascend-compile.yaml", HOSTILE_CONFIG)
    repo = tmp_path / "worktree"
    write(repo / ".git", "gitdir: /elsewhere/.git/worktrees/x\n")  # worktrees and submodules: .git is a file
    assert_not_used(compile_here(repo / "specs"))


def test_without_a_repository_only_the_working_directory_is_searched(tmp_path: Path) -> None:
    write(tmp_path / ".ascend-compile.yaml", HOSTILE_CONFIG)  # e.g. /tmp/.ascend-compile.yaml
    assert_not_used(compile_here(tmp_path / "work" / "specs"))


def test_never_above_the_home_directory(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()  # a repository that holds the home directory (dotfiles in /)
    write(tmp_path / ".ascend-compile.yaml", HOSTILE_CONFIG)
    home = tmp_path / "home" / "user"
    assert_not_used(compile_here(home / "project", env={"HOME": str(home)}))


@pytest.mark.parametrize("marker", [".git/", ".git", ".ascend-compile-root"])
def test_the_config_at_the_repository_root_is_found_from_below(tmp_path: Path, marker: str) -> None:
    repo = tmp_path / "repo"
    if marker.endswith("/"):
        (repo / marker).mkdir(parents=True)
    else:
        write(repo / marker, "")
    write(repo / ".ascend-compile.yaml", "defaults:\n  namespace: team-a\n")
    proc = compile_here(repo / "specs" / "deep")
    assert_clean(proc, {0}, "namespace: team-a")


def test_verbose_says_which_config_and_profile_directories(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "hw").mkdir()
    write(repo / ".ascend-compile.yaml", "profileDirs: [hw]\n")
    proc = compile_here(repo / "specs", "-v")
    assert_clean(proc, {0})
    err = proc.stderr_text  # type: ignore[attr-defined]
    assert str(repo / ".ascend-compile.yaml") in err and str(repo / "hw") in err and "built-in" in err, err
    proc = compile_here(repo / "specs", "-v", "--no-config")
    assert "no project config" in proc.stderr_text  # type: ignore[attr-defined]


@pytest.mark.parametrize("command", ["compile", "lint", "apply", "status", "delete", "diff"])
def test_show_config_needs_no_other_argument(tmp_path: Path, command: str) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo / ".ascend-compile.yaml", "defaults:\n  namespace: team-a\n")
    proc = cli(command, "--show-config", cwd=repo / "specs" if (repo / "specs").mkdir() is None else repo)
    assert_clean(proc, {0}, str(repo / ".ascend-compile.yaml"), "team-a", "profile directories")


def test_show_config_without_any(tmp_path: Path) -> None:
    proc = cli("lint", "--show-config", cwd=tmp_path)
    assert_clean(proc, {0}, "no project config", str(tmp_path))


def test_show_config_leaves_the_arguments_required_for_the_next_run(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from ascend_compile.cli._group import cli as group

    runner = CliRunner()
    assert runner.invoke(group, ["compile", "--show-config", "--no-config"]).exit_code == 0
    result = runner.invoke(group, ["compile"])
    assert result.exit_code == 2 and "Missing argument" in result.output
