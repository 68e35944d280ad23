"""Shared test plumbing: repo paths, the ../shared facts folder, and --update-golden."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.checkout import ROOT, SHARED, run_cli  # noqa: F401  (re-exported for the tests)


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
