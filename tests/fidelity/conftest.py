"""pytest plumbing for the differential test (docs/fidelity.md).

The oracle test judges on the session's simulated cluster (tests/simcluster/session.py),
in the background while the other tests run: it skips with that package's reason
when the programs cannot be built or started, and it is
deselected (not skipped) when the run leaves out the simulated-cluster tests
(``--ignore=tests/simcluster``, the fast suite).  With
``ASCEND_COMPILE_FIDELITY_FULL=1`` it judges the full generated set instead of
the CI subset.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest


HERE = Path(__file__).resolve().parent
FULL_ENV = "ASCEND_COMPILE_FIDELITY_FULL"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "fidelity_oracle: judges generated jobs on the simulated cluster "
                                       "(deselected when tests/simcluster is ignored)")


def _simcluster_ignored(config: pytest.Config) -> bool:
    ignored = [Path(p).resolve() for p in (config.getoption("ignore") or [])]
    return (HERE.parent / "simcluster").resolve() in ignored


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    if not _simcluster_ignored(config):
        return
    dropped = [i for i in items if i.get_closest_marker("fidelity_oracle")]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [i for i in items if i not in dropped]


def full_run() -> bool:
    return os.environ.get(FULL_ENV) == "1"
