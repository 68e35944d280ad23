"""Running one child process with a deadline: its whole process group killed at the deadline, its
standard output streamed to a sink or captured up to a cap, its standard error kept up to a cap.

kubectl can hang (an unreachable server, an exec credential plugin waiting for a browser) and can
print far more than anyone reads (``kubectl diff`` of a huge object): neither may hang us or fill
our memory.  The child runs in its own session, so killing its group also stops what it started.
"""
from __future__ import annotations

import codecs
import os
import signal
import subprocess
import threading
from dataclasses import dataclass
from typing import IO, Callable, List, Mapping, Optional, Sequence

#: most bytes of standard output kept when it is captured rather than streamed
MAX_CAPTURE = 64 * 1024 * 1024
#: most bytes of standard error kept (the first ones: where the error is)
MAX_STDERR = 1024 * 1024
_CHUNK = 64 * 1024


class ProcessTimeout(Exception):
    """The child ran past its deadline and was killed."""


class TooMuchOutput(Exception):
    """The child printed more than the capture cap; it was killed."""


@dataclass(frozen=True)
class Finished:
    returncode: int
    stdout: str
    stderr: str


class _Reader(threading.Thread):
    """Drains one pipe: to ``sink`` as text, or into a buffer of at most ``cap`` bytes."""

    def __init__(self, pipe: IO[bytes], cap: int, sink: Optional[Callable[[str], None]] = None,
                 stop: Optional[Callable[[], None]] = None):
        super().__init__(daemon=True)
        self.pipe, self.cap, self.sink, self.stop = pipe, cap, sink, stop
        self.parts: List[bytes] = []
        self.size = 0
        self.overflowed = False
        self.sink_error: Optional[BaseException] = None

    def run(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        try:
            while True:
                chunk = self.pipe.read1(_CHUNK) if hasattr(self.pipe, "read1") else self.pipe.read(_CHUNK)
                if not chunk:
                    break
                if self.sink is not None:
                    self._to_sink(decoder.decode(chunk))
                    continue
                if self.size < self.cap:
                    self.parts.append(chunk[:self.cap - self.size])
                self.size += len(chunk)
                if self.size > self.cap and not self.overflowed:
                    self.overflowed = True
                    if self.stop is not None:
                        self.stop()
            if self.sink is not None:
                self._to_sink(decoder.decode(b"", final=True))
        except (OSError, ValueError):
            pass  # the pipe was closed under us (the child was killed)

    def _to_sink(self, text: str) -> None:
        if self.sink_error is not None or not text:
            return
        try:
            self.sink(text)  # type: ignore[misc]
        except Exception as exc:  # noqa: BLE001 - e.g. our stdout closed (| head): stop the child, report it
            self.sink_error = exc
            if self.stop is not None:
                self.stop()

    def text(self) -> str:
        return b"".join(self.parts).decode("utf-8", "replace")


def _kill_group(proc: "subprocess.Popen[bytes]") -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (OSError, AttributeError):  # already gone, or no process groups on this platform
        try:
            proc.kill()
        except OSError:
            pass


def _feed(proc: "subprocess.Popen[bytes]", data: bytes) -> None:
    try:
        assert proc.stdin is not None
        proc.stdin.write(data)
        proc.stdin.close()
    except (OSError, ValueError):
        pass  # the child does not read its input, or exited: its exit code says what happened


def run(argv: Sequence[str], *, input: str = "", timeout: Optional[float], env: Optional[Mapping[str, str]] = None,
        sink: Optional[Callable[[str], None]] = None, max_stdout: int = MAX_CAPTURE,
        max_stderr: int = MAX_STDERR) -> Finished:
    """Run ``argv`` (no shell); raise :class:`ProcessTimeout` or :class:`TooMuchOutput` after killing it.

    With ``sink``, standard output goes to it as it arrives (``Finished.stdout`` is empty).
    """
    posix = os.name == "posix"
    proc = subprocess.Popen(list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(env) if env else None, shell=False, start_new_session=posix)
    assert proc.stdout is not None and proc.stderr is not None
    out = _Reader(proc.stdout, max_stdout, sink, stop=lambda: _kill_group(proc))
    err = _Reader(proc.stderr, max_stderr)
    feeder = threading.Thread(target=_feed, args=(proc, input.encode("utf-8")), daemon=True)
    for thread in (out, err, feeder):
        thread.start()
    try:
        returncode = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        proc.wait()
        raise ProcessTimeout() from None
    finally:
        for thread, pipe in ((out, proc.stdout), (err, proc.stderr)):
            thread.join(timeout=2)  # a grandchild that left the group may still hold a pipe: do not wait on it
            if not thread.is_alive():
                pipe.close()
    if out.sink_error is not None:
        raise out.sink_error
    if out.overflowed:
        raise TooMuchOutput()
    return Finished(returncode, out.text(), err.text())
