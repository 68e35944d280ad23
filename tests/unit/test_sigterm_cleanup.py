"""A pytest run killed with SIGTERM cleans up as a normal exit does (tests/conftest.py): the session cluster's
folder (tests/simcluster/session.py), the checkout's import folder and the lint cache folder are removed."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.checkout import ROOT, checkout_env
from tests.unit.sigterm_probe import PROBE_ENV

PROBE = Path(__file__).with_name("sigterm_probe.py")


def test_a_run_killed_with_sigterm_removes_the_folders_it_made(tmp_path: Path) -> None:
    said = tmp_path / "folders.json"
    env = checkout_env(**{PROBE_ENV: str(said)})
    env.pop("ASCEND_COMPILE_CACHE_DIR", None)  # the killed run makes its own, as a run from a shell does
    run = subprocess.Popen([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(PROBE)], cwd=ROOT,
                           env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    folders: dict = {}
    try:
        deadline = time.monotonic() + 120
        while not said.is_file() and run.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert said.is_file(), run.communicate(timeout=30)[0] if run.poll() is not None else "the probe never started"
        folders = json.loads(said.read_text(encoding="utf-8"))
        assert [name for name, path in folders.items() if not Path(path).is_dir()] == []
        run.send_signal(signal.SIGTERM)
        out, _ = run.communicate(timeout=120)
        assert [name for name, path in folders.items() if Path(path).exists()] == [], out
        assert run.returncode == 128 + signal.SIGTERM and "killed by SIGTERM" in out, out
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
        for path in folders.values():  # what a failing run left behind
            shutil.rmtree(path, ignore_errors=True)


def test_a_process_forked_from_the_run_still_dies_of_sigterm() -> None:
    """multiprocessing's Pool.terminate() ends its forked workers (lint's, compiler/files/parallel.py) with
    SIGTERM: a worker that ran pytest's exit instead hung the run in the pool's clean-up."""
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:  # the child: dies of the signal, or says what it did instead
        try:
            os.write(told, b"x")  # running Python code: a signal now reaches its handler
            time.sleep(60)
        except BaseException:  # noqa: BLE001 - pytest's exit raised in a forked child
            os._exit(3)
        os._exit(0)
    os.close(told)
    assert os.read(ready, 1) == b"x"
    os.close(ready)
    os.kill(child, signal.SIGTERM)
    _, status = os.waitpid(child, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM, \
        f"the forked child exited with {os.WEXITSTATUS(status)} instead of dying of SIGTERM"


def test_a_process_forked_from_the_run_starts_with_the_default_sigterm_disposition() -> None:
    """Not only once the run's handler has run in it: a SIGTERM that lands just before a pool worker blocks in C
    would never reach a Python-level handler, and the pool's join would wait for the worker for ever."""
    if not callable(signal.getsignal(signal.SIGTERM)):
        pytest.skip("this pytest run leaves SIGTERM to the program that started it (tests/conftest.py)")
    ready, told = os.pipe()
    child = os.fork()
    if child == 0:  # the child: says what its SIGTERM disposition is
        os.write(told, b"default" if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL else b"handler")
        os._exit(0)
    os.close(told)
    said = os.read(ready, 16)
    os.close(ready)
    os.waitpid(child, 0)
    assert said == b"default"
