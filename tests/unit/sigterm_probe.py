"""A pytest run for tests/unit/test_sigterm_cleanup.py to kill: never collected on its own (not ``test_*.py``).

Run by name, with :data:`PROBE_ENV` naming a file, its one test registers a session cluster as
tests/conftest.py does at collection (without starting it: its folder is what a killed run left behind),
writes the folders this run made into that file, and waits to be killed.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

PROBE_ENV = "ASCEND_COMPILE_SIGTERM_PROBE"


def test_waits_to_be_killed() -> None:
    said = os.environ.get(PROBE_ENV)
    if not said:
        pytest.skip(f"run by tests/unit/test_sigterm_cleanup.py, with {PROBE_ENV} set")
    import tests.conftest as conftest
    from tests.checkout import IMPORT_ROOT
    from tests.simcluster.session import SessionCluster

    session = SessionCluster({})
    conftest._session_cluster = session  # pytest_sessionfinish stops it, as after a run that started one
    folders = {"session cluster": str(session.folder), "checkout": str(IMPORT_ROOT),
               "lint cache": os.environ["ASCEND_COMPILE_CACHE_DIR"]}
    partial = Path(f"{said}.partial")  # the test polls for the file: it appears whole, never empty or half-written
    partial.write_text(json.dumps(folders), encoding="utf-8")
    partial.replace(said)
    time.sleep(300)
