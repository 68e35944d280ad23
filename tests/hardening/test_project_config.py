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
