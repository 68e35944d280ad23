"""Ctrl-C: exit 130 with one line on stderr, never a traceback, never "Aborted!" with exit 1.

A CI script reads exit 1 as "findings"; shells report an interrupted command as 128 + SIGINT.  Both
entry paths are covered: the fast path (a plain ``lint``, no click) and a click command (``compile``
waiting for the lock of its output folder, where a user is most likely to give up).
"""
from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import List

import pytest

from tests.checkout import ROOT, checkout_env

EXAMPLE_SPEC = ROOT / "examples" / "pytorch-module-910b-8.yaml"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc to see the child block")


def _cpu_and_state(pid: int) -> tuple:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return fields[0], int(fields[11]) + int(fields[12])  # state, utime + stime


def _wait_until_blocked(proc: subprocess.Popen, timeout: float = 60) -> None:
    """Until the child sleeps with no CPU used for half a second: it waits for input or a lock."""
    deadline = time.monotonic() + timeout
    quiet, last = 0, None
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        state, ticks = _cpu_and_state(proc.pid)
        quiet = quiet + 1 if state == "S" and ticks == last else 0
        if quiet >= 5:
            return
        last = ticks
        time.sleep(0.1)
    raise AssertionError("the command never blocked")


#: the command as a user at a terminal starts it: SIGINT at its default disposition. A test run started in the
#: background by a shell without job control (``cmd &``, nohup) ignores SIGINT, children inherit that, and
#: Python then never raises KeyboardInterrupt: exec keeps an ignored signal ignored and resets a handled one
_AS_AT_A_TERMINAL = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
                     "os.execv(sys.executable, [sys.executable, '-m', 'ascend_compile', *sys.argv[1:]])")


def _interrupt(args: List[str], cwd: Path) -> subprocess.CompletedProcess:
    proc = subprocess.Popen([sys.executable, "-c", _AS_AT_A_TERMINAL, *args], cwd=cwd, env=checkout_env(),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_until_blocked(proc)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def test_ctrl_c_while_lint_reads_stdin_exits_130(tmp_path: Path) -> None:
    result = _interrupt(["lint", "-"], tmp_path)
    assert result.returncode == 130, result.stderr
    assert result.stderr == "ascend-compile: interrupted\n"


def test_ctrl_c_while_compile_waits_for_its_output_folder_exits_130_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    holder = os.open(out, os.O_RDONLY)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)  # another run is writing this folder
        result = _interrupt(["compile", str(EXAMPLE_SPEC), "-o", str(out)], tmp_path)
    finally:
        fcntl.flock(holder, fcntl.LOCK_UN)
        os.close(holder)
    assert result.returncode == 130, result.stderr
    assert result.stderr.endswith("ascend-compile: interrupted\n"), result.stderr
    assert "Traceback" not in result.stderr and "Aborted" not in result.stderr
    assert list(out.iterdir()) == []
