"""Running Go for the simulated cluster's builds: the environment, the version, progress on the terminal.

Every build step runs ``go`` through :func:`run_go`: its whole output goes to a log file, and a line every 20 s
says what it is doing (packages compiled so far, the last one), so that a newcomer's terminal never sits silent
for minutes.  The environment is the control plane's (shared module and build caches under
``${XDG_CACHE_HOME:-~/.cache}/ascend-compile``, the local toolchain).
"""
from __future__ import annotations

import contextlib
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Dict, Optional, Sequence, TextIO

from tests.integration import controlplane

HEARTBEAT_SECONDS = 20.0


class BuildError(RuntimeError):
    """A component could not be built; the message carries the tail of the build log."""


def go_version() -> str:
    go = controlplane.find_go()
    if go is None:
        raise BuildError(controlplane.go_unavailable_reason() or "go not found")
    out = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        raise BuildError(f"`go env GOVERSION` failed: {out.stderr.strip()}")
    return out.stdout.strip()


def go_env(*, cgo: bool = False, mod: Optional[str] = "mod") -> Dict[str, str]:
    """The control plane's Go environment (shared module and build caches, local toolchain), with
    ``-mod=mod`` (Volcano and the operator resolve their replaced modules) and cgo off."""
    env = controlplane._go_env()
    flags = ["-modcacherw", "-buildvcs=false"]
    if mod:
        flags.insert(0, f"-mod={mod}")
    env["GOFLAGS"] = " ".join(flags)
    env["CGO_ENABLED"] = "1" if cgo else "0"
    env["GO111MODULE"] = "on"
    return env


# --------------------------------------------------------------------------
# progress


class Progress:
    """Prints what a long step is doing: a start line, a heartbeat every 20 s, an end line."""

    def __init__(self, stream: Optional[TextIO] = None):
        self.stream = stream if stream is not None else sys.stderr

    def say(self, text: str) -> None:
        print(text, file=self.stream, flush=True)


class _Heartbeat:
    def __init__(self, progress: Progress, label: str):
        self.progress = progress
        self.label = label
        self.count = 0
        self.last = ""
        self.started = time.monotonic()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def line(self, text: str) -> None:
        text = text.strip()
        if text and not text.startswith(("#", "go: downloading", "go: finding")) and " " not in text:
            self.count += 1  # `go build -v` prints one package path per compiled package
            self.last = text
        elif text.startswith("go: downloading"):
            self.last = text

    def _run(self) -> None:
        while not self._stop.wait(HEARTBEAT_SECONDS):
            elapsed = time.monotonic() - self.started
            if not self.count and not self.last:
                self.progress.say(f"  [{self.label}] {elapsed:4.0f}s, still building")
                continue
            self.progress.say(f"  [{self.label}] {elapsed:4.0f}s, {self.count} packages compiled"
                              + (f" (last: {self.last})" if self.last else ""))

    def __enter__(self) -> "_Heartbeat":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=1)


@contextlib.contextmanager
def heartbeat(label: str, progress: Optional[Progress] = None):
    """Print "still working" every 20 s while the body runs (for steps that print nothing themselves)."""
    beat = _Heartbeat(progress or Progress(), label)
    with beat:
        yield beat


def run_go(args: Sequence[str], *, cwd: Path, env: Dict[str, str], log: Path, label: str,
           progress: Progress) -> None:
    """Run ``go ARGS`` with a heartbeat; the full output goes to ``log``; BuildError on failure."""
    go = controlplane.find_go()
    if go is None:
        raise BuildError(controlplane.go_unavailable_reason() or "go not found")
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a") as out, _Heartbeat(progress, label) as beat:
        out.write(f"$ (cd {cwd} && go {' '.join(args)})\n")
        out.flush()
        proc = subprocess.Popen([go, *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        assert proc.stdout is not None
        for text in proc.stdout:
            out.write(text)
            beat.line(text)
        code = proc.wait()
    if code != 0:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
        raise BuildError(f"[{label}] `go {' '.join(args[:2])} ...` failed (exit {code}); log {log}:\n{tail}")
