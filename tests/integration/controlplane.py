"""A real Kubernetes control plane (kube-apiserver + etcd) for integration tests.

The Go program in ``apiserver/`` links the real kube-apiserver and an embedded
etcd at the Kubernetes version pinned in its go.mod. ``build_binary()`` builds it
once into a cache keyed by a hash of its sources; ``ControlPlane`` starts it on
free 127.0.0.1 ports in a temporary directory, installs CRDs and creates the
Volcano ``default`` Queue.

Pre-build (warms the cache; the first build downloads modules from the Go
module proxy and compiles for several minutes)::

    python -m tests.integration.controlplane --build

Start one by hand and keep it running until Ctrl-C::

    python -m tests.integration.controlplane --run [--crd FILE ...]

Caches: the binary goes to ``~/.cache/ascend-compile/apiserver/<hash>/apiserver``
(``$ASCEND_COMPILE_APISERVER_CACHE/<hash>/apiserver`` when that is set), where
<hash> covers go.mod, go.sum, the Go sources and the link flags; Go's build and
module caches stay in ``~/.cache/ascend-compile/go-build`` and ``go-mod`` (under
``$XDG_CACHE_HOME`` when set), so a rebuild after a change to main.go takes
seconds. Set ASCEND_COMPILE_KEEP_CONTROLPLANE=1 to keep the work directory
(etcd data, apiserver log, kubeconfig) after a run.

This module uses only the standard library and does not import ``compiler``.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import fcntl
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Iterable, Optional, Sequence

HERE = Path(__file__).resolve().parent
SOURCE_DIR = HERE / "apiserver"
BINARY_NAME = "apiserver"

CACHE_ENV = "ASCEND_COMPILE_APISERVER_CACHE"
# kube-apiserver at the version pinned in apiserver/go.mod (keep the two in step).
KUBERNETES_VERSION = "v1.32.2"
KUBERNETES_COMMIT = "67a30c0adcf52bd3f56ff0893ce19966be12991f"  # tag v1.32.2


def _ldflags() -> str:
    """-s -w, and the version stamp that Kubernetes' own build sets (else /version
    says v0.0.0-master)."""
    major, minor = KUBERNETES_VERSION.lstrip("v").split(".")[:2]
    stamp = {
        "gitVersion": KUBERNETES_VERSION,
        "gitCommit": KUBERNETES_COMMIT,
        "gitTreeState": "clean",
        "gitMajor": major,
        "gitMinor": minor,
        "buildDate": "1970-01-01T00:00:00Z",
    }
    flags = ["-s", "-w"]
    for pkg in ("k8s.io/component-base/version", "k8s.io/client-go/pkg/version"):
        flags += [f"-X {pkg}.{k}={v}" for k, v in stamp.items()]
    return " ".join(flags)

DEFAULT_QUEUE_YAML = """\
apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata:
  name: default
spec:
  weight: 1
  reclaimable: true
"""


class ControlPlaneError(RuntimeError):
    """The control plane could not be built, started or set up."""


# --------------------------------------------------------------------------
# tools


def find_go() -> Optional[str]:
    """Path of the ``go`` command on PATH."""
    return shutil.which("go")


def find_kubectl() -> Optional[str]:
    return shutil.which("kubectl")


def go_unavailable_reason() -> Optional[str]:
    """None when Go can build the control plane, else a one-line skip reason."""
    go = find_go()
    if go is None:
        return "Go toolchain not found (no `go` on PATH): cannot build kube-apiserver for integration tests"
    try:
        out = subprocess.run(
            [go, "env", "GOVERSION"], capture_output=True, text=True, timeout=60, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as exc:
        return f"`{go} env GOVERSION` failed ({exc}): cannot build kube-apiserver"
    # k8s.io/kubernetes v1.32 needs Go >= 1.23.
    try:
        major, minor = (int(x) for x in out.removeprefix("go").split(".")[:2])
    except ValueError:
        return None  # unusual version string (devel build): let the build decide
    if (major, minor) < (1, 23):
        return f"{out} is too old to build kube-apiserver {KUBERNETES_VERSION} (needs go1.23+)"
    return None


def kubectl_unavailable_reason() -> Optional[str]:
    if find_kubectl() is None:
        return "kubectl not found on PATH: integration tests need it to talk to the test apiserver"
    return None


# --------------------------------------------------------------------------
# building


def _cache_home() -> Path:
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ascend-compile"


def binary_cache_root() -> Path:
    override = os.environ.get(CACHE_ENV)
    return Path(override).expanduser() if override else _cache_home() / "apiserver"


def source_hash() -> str:
    """Hash of go.mod, go.sum, the Go sources and the link flags: the binary's cache key."""
    h = hashlib.sha256(_ldflags().encode() + b"\0")
    files = [SOURCE_DIR / "go.mod", SOURCE_DIR / "go.sum"]
    files += sorted(p for p in SOURCE_DIR.glob("*.go") if not p.name.endswith("_test.go"))
    for path in files:
        h.update(path.name.encode() + b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()[:16]


def binary_path() -> Path:
    return binary_cache_root() / source_hash() / BINARY_NAME


def _go_env() -> dict[str, str]:
    env = dict(os.environ)
    cache = _cache_home()
    env.update(
        {
            # Kept across runs so that a second build takes seconds.
            "GOCACHE": str(cache / "go-build"),
            "GOMODCACHE": str(cache / "go-mod"),
            # go.sum pins every module; never rewrite go.mod/go.sum while building.
            "GOFLAGS": "-mod=readonly -modcacherw -buildvcs=false",
            "GOTOOLCHAIN": "local",
            "CGO_ENABLED": "0",
        }
    )
    env["GOWORK"] = "off"
    return env


def build_binary(*, force: bool = False, verbose: bool = False) -> Path:
    """Build the control-plane program once and return the cached binary's path.

    Concurrent callers (e.g. pytest-xdist workers) serialise on a lock file and
    the binary is moved into place atomically.
    """
    target = binary_path()
    if target.is_file() and not force:
        return target
    go = find_go()
    if go is None:
        raise ControlPlaneError(go_unavailable_reason() or "go not found")
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.is_file() and not force:
            return target
        tmp = target.with_name(f".{BINARY_NAME}.{os.getpid()}.tmp")
        cmd = [go, "build", "-trimpath", f"-ldflags={_ldflags()}", "-o", str(tmp), "."]
        if verbose:
            print(f"building {target} (kube-apiserver {KUBERNETES_VERSION}) ...", file=sys.stderr, flush=True)
        started = time.monotonic()
        proc = subprocess.run(
            cmd,
            cwd=SOURCE_DIR,
            env=_go_env(),
            stdin=subprocess.DEVNULL,
            stdout=None if verbose else subprocess.PIPE,
            stderr=None if verbose else subprocess.STDOUT,
            text=True,
        )
        if proc.returncode != 0:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tail = "" if verbose else "\n" + "\n".join((proc.stdout or "").splitlines()[-40:])
            raise ControlPlaneError(f"`go build` in {SOURCE_DIR} failed (exit {proc.returncode}){tail}")
        os.replace(tmp, target)
        if verbose:
            print(f"built in {time.monotonic() - started:.0f}s: {target}", file=sys.stderr, flush=True)
    return target


# --------------------------------------------------------------------------
# running


def _free_ports(n: int) -> list[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


_LIVE: "set[ControlPlane]" = set()


@atexit.register
def _stop_all() -> None:
    for cp in list(_LIVE):
        cp.stop()


class ControlPlane:
    """A running kube-apiserver + etcd on 127.0.0.1, as a context manager.

    >>> with ControlPlane(crds=[...]) as cp:
    ...     cp.kubectl("get", "--raw", "/readyz").stdout
    'ok'
    """

    def __init__(
        self,
        crds: Sequence["os.PathLike[str] | str"] = (),
        *,
        create_default_queue: Optional[bool] = None,
        binary: Optional["os.PathLike[str] | str"] = None,
        ready_timeout: float = 180.0,
        keep_dir: bool = False,
        kubectl: Optional[str] = None,
    ) -> None:
        self.crds = [Path(p) for p in crds]
        # The Queue needs the Queue CRD: create it by default only when CRDs are given.
        self.create_default_queue = bool(self.crds) if create_default_queue is None else create_default_queue
        self._binary = Path(binary) if binary else None
        self.ready_timeout = ready_timeout
        self.keep_dir = keep_dir or bool(os.environ.get("ASCEND_COMPILE_KEEP_CONTROLPLANE"))
        self.workdir: Optional[Path] = None
        self.kubeconfig: Optional[Path] = None
        self.server: Optional[str] = None
        self.log_path: Optional[Path] = None
        self.crd_names: list[str] = []
        self._proc: Optional["subprocess.Popen[bytes]"] = None
        self._kubectl = kubectl or find_kubectl()

    # -- lifecycle ---------------------------------------------------------

    def __enter__(self) -> "ControlPlane":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def start(self) -> "ControlPlane":
        if self._proc is not None:
            raise ControlPlaneError("already started")
        binary = self._binary or build_binary()
        self.workdir = Path(tempfile.mkdtemp(prefix="ascend-compile-controlplane-"))
        try:
            last_error: Optional[ControlPlaneError] = None
            for attempt in range(3):  # a free port can be taken between pick and bind
                try:
                    self._launch(binary, attempt)
                    last_error = None
                    break
                except ControlPlaneError as exc:
                    last_error = exc
                    self._terminate()
                    if "address already in use" not in str(exc):
                        break
            if last_error is not None:
                raise last_error
            if self.crds:
                self.install_crds(self.crds)
            if self.create_default_queue:
                self.ensure_default_queue()
        except BaseException:
            self.stop()
            raise
        return self

    def _launch(self, binary: Path, attempt: int) -> None:
        assert self.workdir is not None
        port, etcd_port, peer_port = _free_ports(3)
        data = self.workdir / f"data-{attempt}"
        self.kubeconfig = self.workdir / "kubeconfig"
        self.log_path = self.workdir / f"apiserver-{attempt}.log"
        stdout_path = self.workdir / f"stdout-{attempt}"
        with open(stdout_path, "wb") as out, open(self.log_path, "wb") as err:
            self._proc = subprocess.Popen(
                [
                    str(binary),
                    f"--dir={data}",
                    f"--kubeconfig={self.kubeconfig}",
                    f"--port={port}",
                    f"--etcd-port={etcd_port}",
                    f"--etcd-peer-port={peer_port}",
                    f"--ready-timeout={int(self.ready_timeout)}s",
                    # If this Python process dies without stop(), the program
                    # shuts itself down and removes the work dir.
                    "--exit-with-parent=true",
                    *([] if self.keep_dir else [f"--cleanup-dir={self.workdir}"]),
                ],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                # Own process group: stop() signals the whole group.
                start_new_session=True,
            )
        _LIVE.add(self)
        deadline = time.monotonic() + self.ready_timeout + 10
        while True:
            text = stdout_path.read_text(errors="replace")
            for line in text.splitlines():
                if line.startswith("READY"):
                    self.server = line.split(None, 1)[1].strip() if " " in line else None
                    return
            code = self._proc.poll()
            if code is not None:
                raise ControlPlaneError(
                    f"control plane exited with code {code} before it was ready; "
                    f"log {self.log_path}:\n{self.log_tail()}"
                )
            if time.monotonic() > deadline:
                raise ControlPlaneError(
                    f"control plane not ready within {self.ready_timeout:.0f}s; log {self.log_path}:\n{self.log_tail()}"
                )
            time.sleep(0.1)

    def log_tail(self, lines: int = 30) -> str:
        if not self.log_path or not self.log_path.exists():
            return ""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def _terminate(self, timeout: float = 30.0) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        # The group leader is gone; anything left in its group goes too.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        self._terminate()
        _LIVE.discard(self)
        if self.workdir is not None and not self.keep_dir:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self.workdir = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- kubectl -----------------------------------------------------------

    def kubectl(
        self,
        *args: str,
        input: Optional[str] = None,
        check: bool = True,
        timeout: float = 120.0,
    ) -> "subprocess.CompletedProcess[str]":
        """Run kubectl against this control plane; returns the CompletedProcess (text)."""
        if self._kubectl is None:
            raise ControlPlaneError(kubectl_unavailable_reason() or "kubectl not found")
        if self.kubeconfig is None or self.workdir is None:
            raise ControlPlaneError("control plane not started")
        cmd = [
            self._kubectl,
            f"--kubeconfig={self.kubeconfig}",
            f"--cache-dir={self.workdir / 'kubectl-cache'}",
            *args,
        ]
        proc = subprocess.run(
            cmd,
            input=input,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=None if input is not None else subprocess.DEVNULL,
        )
        if check and proc.returncode != 0:
            raise ControlPlaneError(
                f"`kubectl {' '.join(args)}` failed (exit {proc.returncode}):\n{proc.stderr.strip()}"
            )
        return proc

    def install_crds(self, paths: Iterable["os.PathLike[str] | str"], timeout: str = "60s") -> list[str]:
        """Server-side apply the CRD files, then wait until each is Established."""
        names: list[str] = []
        for path in paths:
            path = Path(path)
            if not path.is_file():
                raise ControlPlaneError(f"CRD file not found: {path}")
            out = self.kubectl(
                "apply", "--server-side", "--field-manager=ascend-compile-tests", "-o", "name", "-f", str(path)
            ).stdout
            names += [line.strip() for line in out.splitlines() if line.strip()]
        if names:
            self.kubectl("wait", "--for=condition=established", f"--timeout={timeout}", *names)
        self.crd_names += names
        return names

    def ensure_default_queue(self) -> None:
        """Create the Volcano ``default`` Queue (Volcano's own controller would)."""
        self.kubectl("apply", "--server-side", "--field-manager=ascend-compile-tests", "-f", "-", input=DEFAULT_QUEUE_YAML)


# --------------------------------------------------------------------------
# command line


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.integration.controlplane", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--build", action="store_true", help="build (or find cached) the binary and print its path")
    parser.add_argument("--force", action="store_true", help="rebuild even when cached")
    parser.add_argument("--run", action="store_true", help="start a control plane and wait for Ctrl-C")
    parser.add_argument("--crd", action="append", default=[], help="CRD file to install (with --run)")
    args = parser.parse_args(argv)
    if not (args.build or args.run):
        parser.error("give --build and/or --run")
    reason = go_unavailable_reason()
    if reason and not binary_path().is_file():
        print(f"error: {reason}", file=sys.stderr)
        return 2
    try:
        started = time.monotonic()
        path = build_binary(force=args.force, verbose=True)
        print(f"{path}  ({time.monotonic() - started:.1f}s)")
        if args.run:
            with ControlPlane(args.crd, keep_dir=True) as cp:
                print(f"server {cp.server}\nkubeconfig {cp.kubeconfig}\nlog {cp.log_path}", flush=True)
                with contextlib.suppress(KeyboardInterrupt):
                    while cp.running:
                        time.sleep(1)
    except ControlPlaneError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
