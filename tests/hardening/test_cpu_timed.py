"""``cpu_timed`` counts the CPU time of the command it runs, and nothing else this process reaps meanwhile.

The test run's other children (the second and third pytest processes, a simulated cluster stopped in the
background) end at any time; reaped during a timed command, their CPU time went to this process's
``RUSAGE_CHILDREN`` with the command's, and a lint of 20000 findings "took" 315 s.
"""
from __future__ import annotations

import os
import resource
import subprocess
import sys
import threading
from pathlib import Path

from tests.hardening.helpers import cpu_timed, write

BURN = "import time\nend = time.process_time() + 1.0\nwhile time.process_time() < end:\n    pass\n"


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def test_a_child_reaped_while_the_command_runs_is_not_counted(tmp_path: Path) -> None:
    burner = subprocess.Popen([sys.executable, "-c", BURN])
    os.waitid(os.P_PID, burner.pid, os.WEXITED | os.WNOWAIT)  # it has ended, and is not reaped yet
    reaper = threading.Timer(0.05, burner.wait)  # reaped once the command has started
    path = write(tmp_path / "cm.yaml", "".join(["apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n"]
                                               + [f"  key{n}: {n}\n" for n in range(5000)]))
    before = _children_cpu()
    reaper.start()
    proc, cpu = cpu_timed("lint", "--no-cache", str(path))
    reaper.join()
    assert proc.returncode in (0, 1), proc.stderr_text  # type: ignore[attr-defined]
    assert burner.returncode == 0
    assert _children_cpu() - before >= cpu + 1.0  # the burner went to this process's count, not to the command's
    assert cpu > 0
