"""Shared test plumbing: repo paths, the ../shared facts folder, and --update-golden."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite golden/ from the current compiler output (review the diff before committing).")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared (upstream CRDs, samples, FACTS): beside the repo in development and CI only."""
    if not (SHARED / "upstream").is_dir():
        pytest.skip(f"{SHARED} is absent: upstream samples and CRDs are only beside the repo in development and CI")
    return SHARED


def run_cli(*args: str, input: str | None = None, cwd: str | os.PathLike | None = None,
            env: dict | None = None) -> subprocess.CompletedProcess:
    """Run ``python -m compiler ARGS`` the way a user runs the console script."""
    full_env = dict(os.environ)
    full_env["PYTHONPATH"] = str(ROOT) + os.pathsep + full_env.get("PYTHONPATH", "")
    full_env.pop("NO_COLOR", None)
    if env:
        full_env.update(env)
    return subprocess.run([sys.executable, "-m", "compiler", *args], input=input, capture_output=True,
                          text=True, cwd=cwd or ROOT, env=full_env, timeout=120)
