"""A run that must build the simulated cluster's programs yields the build the CPU (tests/simcluster/session.py):
the build keeps the run's priority, the test process and what it starts afterwards go lower."""
from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from tests.checkout import ROOT, checkout_env
from tests.simcluster import session

# In a process of its own: lowering a process's priority cannot be undone, and this run's must stay as it is.
PROBE = textwrap.dedent('''
    import os, subprocess, sys, threading
    from pathlib import Path
    from tests.simcluster import session

    niceness = lambda: os.nice(0)
    report = "import os; print(os.nice(0))"
    before = niceness()
    build = session.start_build(Path(sys.argv[1]), [sys.executable, "-c", report])
    seen = {}
    thread = threading.Thread(target=lambda: seen.update(thread=niceness()))
    thread.start()
    thread.join()
    later = subprocess.run([sys.executable, "-c", report], capture_output=True, text=True, check=True).stdout
    print(before, int(build.communicate()[0]), niceness(), seen["thread"], int(later))
''')


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the niceness of threads is Linux's")
def test_the_build_keeps_the_priority_and_the_rest_of_the_run_goes_lower(tmp_path):
    run = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / "build.log")], cwd=str(ROOT),
                         env=checkout_env(), capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    before, build, after, thread, later = map(int, run.stdout.split())
    lowered = min(before + session.YIELD_TO_BUILD, 19)
    assert lowered > before, "the probe ran at the lowest priority already: nothing to show"
    assert build == before
    assert (after, thread, later) == (lowered, lowered, lowered)
