"""What the hardening tests share: running the CLI under a memory cap, clean-exit checks, fixtures as text."""
from __future__ import annotations

import os
import resource
import shutil
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterable, Iterator, Mapping, Optional, Sequence, Tuple

import pytest

from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SPEC = ROOT / "examples" / "pytorch-module-910b-8.yaml"
MEMORY_LIMIT = 1024 ** 3  # bytes of address space per CLI run
TIMEOUT = 60  # seconds; generous for a loaded CI machine (a hang or a quadratic blow-up takes far longer)

COMMANDS = ("validate", "lint", "compile")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0
#: Root ignores file modes only through two capabilities; a child started without them (setpriv is in
#: util-linux) meets "permission denied" as any user does, so the permission tests run as root too.
OBEY_FILE_MODES = (["setpriv", "--bounding-set", "-dac_override,-dac_read_search"]
                   if IS_ROOT and shutil.which("setpriv") else [])

# A small manifest whose only problem is an unknown field on line 5, column 3.
CONFIGMAP_BAD_FIELD = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  bogus: 1\ndata:\n  a: b\n"
CONFIGMAP = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\ndata:\n  a: b\n"


@pytest.fixture()
def held_fifo(tmp_path: Path) -> Iterator[Path]:
    """A fixture: a FIFO with a writer that never writes (as a runner's open stdin pipe is): reading it blocks."""
    fifo = tmp_path / "outside" / "fifo"
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    writer = os.open(fifo, os.O_RDWR | os.O_NONBLOCK)
    yield fifo
    os.close(writer)


def _limit_memory(limit: int) -> Callable[[], None]:
    def limit_memory() -> None:  # runs in the child before exec
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return limit_memory


def cli(*args: str, cwd: Optional[Path] = None, input: Optional[bytes] = None,
        timeout: float = TIMEOUT, obey_file_modes: bool = False, memory: int = MEMORY_LIMIT,
        env: Optional[Mapping[str, str]] = None, prefix: Sequence[str] = ()) -> subprocess.CompletedProcess:
    """``ascend-compile ARGS`` with its address space capped at ``memory`` bytes (under ``prefix``, a wrapper)."""
    proc = run_cli(*args, cwd=cwd, input=input if input is not None else b"", timeout=timeout, env=env,
                   prefix=[*(OBEY_FILE_MODES if obey_file_modes else ()), *prefix], preexec_fn=_limit_memory(memory))
    proc.stdout_text = proc.stdout.decode("utf-8", "replace")  # type: ignore[attr-defined]
    proc.stderr_text = proc.stderr.decode("utf-8", "replace")  # type: ignore[attr-defined]
    return proc


#: runs the command after the file name it is given and writes the CPU seconds the command took to that file
_TIMED = ("import resource, subprocess, sys\ncode = subprocess.call(sys.argv[2:])\n"
          "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
          "with open(sys.argv[1], 'w') as out:\n    out.write(repr(used.ru_utime + used.ru_stime))\nsys.exit(code)\n")


def cpu_timed(*args: str, cwd: Optional[Path] = None, timeout: float = TIMEOUT) -> Tuple[subprocess.CompletedProcess, float]:
    """``cli(*args)`` and the CPU seconds it took (not wall time: the test machine is shared, and a loaded one
    stretches the wall clock, not the work).  Counted by a wrapper process around it: this process's own
    ``RUSAGE_CHILDREN`` also grows by every other child reaped meanwhile (a simulated cluster stopped in the
    background, tests/simcluster/session.py)."""
    with tempfile.TemporaryDirectory(prefix="ascend-compile-cpu-") as folder:
        used = Path(folder) / "cpu"
        proc = cli(*args, cwd=cwd, timeout=timeout, prefix=(sys.executable, "-c", _TIMED, str(used)))
        return proc, float(used.read_text())


def output(proc: subprocess.CompletedProcess) -> str:
    return proc.stdout_text + proc.stderr_text  # type: ignore[attr-defined]


def assert_clean(proc: subprocess.CompletedProcess, codes: Iterable[int], *expect: str) -> None:
    """Exit code in ``codes``, no traceback, every string of ``expect`` in the output."""
    text = output(proc)
    assert "Traceback" not in text, text[-3000:]
    assert proc.returncode in tuple(codes), f"exit {proc.returncode}:\n{text[-3000:]}"
    for piece in expect:
        assert piece in text, f"{piece!r} not in output:\n{text[-3000:]}"


def write(path: Path, data: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_bytes(data.encode("utf-8"))
    return path


def spec_text(name: str = "resnet50-pytorch", **replace: str) -> str:
    text = EXAMPLE_SPEC.read_text(encoding="utf-8").replace("name: resnet50-pytorch", f"name: {name}")
    for old, new in replace.items():
        text = text.replace(old, new)
    return text


def snapshot(directory: Path) -> dict:
    out = {}
    for path in sorted(directory.rglob("*")):
        info = os.lstat(path)
        kind = "link" if stat.S_ISLNK(info.st_mode) else "dir" if stat.S_ISDIR(info.st_mode) else "file"
        content = os.readlink(path) if kind == "link" else path.read_bytes() if kind == "file" else None
        out[str(path.relative_to(directory))] = (kind, content, info.st_mtime_ns, stat.S_IMODE(info.st_mode))
    return out


def lint_cache_shards(cache: Path) -> list:
    """The shards of the lint result cache under the cache root ``cache``."""
    return sorted((cache / "lint").rglob("*.cache"))


def poison_clean(cache: Path) -> None:
    """Make every entry of the lint result cache under ``cache`` say its file is clean, written as the cache writes
    entries (its full key kept): what anyone who may write the folder can do."""
    import marshal

    for shard in lint_cache_shards(cache):
        loaded = marshal.loads(shard.read_bytes())
        clean = {digest: (when, ((),) + entry[1:]) for digest, (when, entry) in loaded[-1].items()}
        shard.write_bytes(marshal.dumps(loaded[:-1] + (clean,)))
