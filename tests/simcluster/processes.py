"""Background programs started and stopped by PID, each with its own log file; and the loops that stand in for
the programs a simulated cluster does not run."""
from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask the kernel to SIGTERM the child when the thread that started it ends (or its process dies)."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


@dataclass
class Process:
    name: str
    argv: Sequence[str]
    log: Path
    env: Optional[Dict[str, str]] = None
    popen: Optional["subprocess.Popen[bytes]"] = field(default=None, repr=False)

    @property
    def pid(self) -> Optional[int]:
        return self.popen.pid if self.popen else None

    def start(self) -> "Process":
        self.log.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as out:
            out.write(f"$ {' '.join(self.argv)}\n".encode())
            out.flush()
            self.popen = subprocess.Popen(list(self.argv), stdin=subprocess.DEVNULL, stdout=out,
                                          stderr=subprocess.STDOUT, env=self.env, start_new_session=True,
                                          preexec_fn=die_with_parent)
        return self

    def alive(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    def exit_code(self) -> Optional[int]:
        return None if self.popen is None else self.popen.poll()

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """Stop the process group this process leads (SIGSTOP) for the block, and continue it after."""
        proc = self.popen
        assert proc is not None and proc.poll() is None, f"{self.name} is not running"
        os.killpg(proc.pid, signal.SIGSTOP)
        try:
            yield
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGCONT)

    def stop(self, timeout: float = 15.0) -> None:
        """SIGTERM the process group this process leads (continued, if paused), then SIGKILL what is left."""
        proc = self.popen
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
                os.killpg(proc.pid, signal.SIGCONT)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def tail(self, lines: int = 40, width: int = 400) -> str:
        """The last lines of the log, each cut to ``width`` characters."""
        if not self.log.exists():
            return "(no log)"
        return "\n".join(line if len(line) <= width else line[:width] + " ..."
                         for line in self.log.read_text(errors="replace").splitlines()[-lines:])


class ProcessGroup:
    """The cluster's programs, stopped in reverse order of start."""

    def __init__(self) -> None:
        self.processes: List[Process] = []

    def start(self, process: Process) -> Process:
        self.processes.append(process.start())
        return process

    def get(self, name: str) -> Process:
        return next(p for p in self.processes if p.name == name)

    def dead(self) -> List[str]:
        return [f"{p.name} (exit {p.exit_code()})" for p in self.processes if not p.alive()]

    def stop_all(self) -> None:
        for process in reversed(self.processes):
            process.stop()


class Loop:
    """A step a thread repeats every ``period`` seconds, from ``period`` after :meth:`start` until :meth:`stop`; the
    step's own errors end only that turn."""

    def __init__(self, name: str, step: Callable[[], object], period: float):
        self.name, self.step, self.period = name, step, period
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)

    def start(self) -> "Loop":
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stopping.wait(self.period):
            with contextlib.suppress(Exception):
                self.step()

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout=timeout)
