"""pytest fixtures for the simulated Ascend cluster (docs/testing.md).

Every test here is marked ``simcluster``.  Tests marked ``simcluster_full`` (the
whole golden matrix, the 200-job oracle run) are deselected (not skipped) unless
``ASCEND_COMPILE_SIMCLUSTER_FULL=1`` is set; CI runs the representative rest.

The session fixture ``sim`` (tests/conftest.py) is the run's one cluster, made
ready in the background from collection on (tests/simcluster/session.py); the
programs are built by the first session that needs them (or beforehand with
``python -m tests.simcluster build``) and cached.  Tests skip with one line when
../shared, Go or kubectl is absent, or with ``ASCEND_COMPILE_SKIP_SIMCLUSTER=1``.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.integration import controlplane
from tests.simcluster import build

HERE = Path(__file__).resolve().parent
FULL_ENV = "ASCEND_COMPILE_SIMCLUSTER_FULL"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "simcluster: runs against the simulated Ascend cluster (tests/simcluster)")
    config.addinivalue_line("markers", "simcluster_full: the long simulated-cluster tests, deselected by default "
                                       "(run them with ASCEND_COMPILE_SIMCLUSTER_FULL=1)")


def _full(config: pytest.Config) -> bool:
    return os.environ.get(FULL_ENV) == "1"


def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    keep, dropped = [], []
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.simcluster)
            if item.get_closest_marker("simcluster_full") and not _full(config):
                dropped.append(item)
                continue
        keep.append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep


def skip_reason() -> "str | None":
    if os.environ.get("ASCEND_COMPILE_SKIP_SIMCLUSTER") == "1":
        return "simulated-cluster tests disabled by ASCEND_COMPILE_SKIP_SIMCLUSTER=1"
    reason = build.unavailable_reason() or controlplane.kubectl_unavailable_reason()
    if reason:
        return f"simulated cluster unavailable: {reason}"
    return None
