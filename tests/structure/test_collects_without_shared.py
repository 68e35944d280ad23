"""The suite collects in a clone without ../shared beside it, under every pytest the project allows.

Without ../shared the parameter lists built from the upstream samples are empty.  pytest before 8.3.5 (8.0 is
the lowest pyproject.toml allows) calls an ``ids`` function with its internal NOTSET for an empty parameter set,
which fails collection; newer releases do not.  So the check is made under any pytest: a plugin refuses an
empty parametrize with an ids function, in a copy of this checkout with no ../shared beside it, and the
tests that need the samples skip with their reason instead.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.checkout import ROOT, checkout_env

PLUGIN = '''\
import pytest


@pytest.hookimpl(tryfirst=True)
def pytest_generate_tests(metafunc):
    for mark in metafunc.definition.iter_markers(name="parametrize"):
        values = mark.args[1] if len(mark.args) > 1 else mark.kwargs.get("argvalues", ())
        if callable(mark.kwargs.get("ids")) and not list(values):
            raise ValueError(f"{metafunc.definition.nodeid}: an empty parameter list with an ids function "
                             "(pytest before 8.3.5 calls it with NOTSET and fails collecting)")
'''


def test_the_suite_collects_without_shared(tmp_path: Path) -> None:
    copy = tmp_path / "ascend-compile"  # and no tmp_path / "shared"
    shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", ".venv", "venv",
                                                              "build", "dist", ".mypy_cache", ".hypothesis"))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "strict_empty_ids.py").write_text(PLUGIN, encoding="utf-8")
    env = checkout_env()
    env["PYTHONPATH"] = str(tmp_path / "plugins")  # the copy's own tests/checkout.py puts the copy first
    run = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "strict_empty_ids", "tests"], cwd=copy, env=env, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "error" not in run.stdout.splitlines()[-1], run.stdout[-3000:]
