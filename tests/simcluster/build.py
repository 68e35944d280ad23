"""Build the simulated cluster's programs from the pinned upstream archives, once, into a cache.

Components (each cached on its own, keyed by the archives' checksums, the Go
version and this recipe's version):

- ``volcano``: ``vc-scheduler`` with the Ascend NPU plugin registered statically
  (see :mod:`tests.simcluster.patches` and docs/testing.md), ``vc-controller-manager``
  and ``vc-webhook-manager``, all from Volcano v1.12.0 with ``volcano.sh/apis``
  replaced by the unpacked v1.12.0 archive;
- ``operator``: ``ascend-operator`` from the MindCluster archive with
  ``volcano.sh/apis`` replaced by the unpacked v1.7.0 archive;
- ``kwok``: ``sigs.k8s.io/kwok/cmd/kwok`` at v0.7.0 from the Go module proxy;
- ``certgen``: our own ``certgen/`` (standard library only);
- ``kustomize``: ``sigs.k8s.io/kustomize/kustomize/v5`` at v5.5.0 from the Go module proxy, not part
  of the cluster: the KRM tests run it (the ``kustomize`` fixture in tests/conftest.py builds it alone).

Go modules are downloaded here, in the build step, through the module proxy
(``GOMODCACHE`` and ``GOCACHE`` are shared with the control-plane build under
``${XDG_CACHE_HOME:-~/.cache}/ascend-compile``); starting a cluster never
touches the network.  Binaries land in
``<cache>/simcluster/bin/<component>-<key>/``.
"""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, TextIO

from tests.integration import controlplane
from tests.simcluster import patches, sources

HERE = Path(__file__).resolve().parent
#: bump when the way a component is built changes (invalidates every cached binary)
RECIPE = "1"
KWOK_VERSION = "v0.7.0"
KUSTOMIZE_VERSION = "v5.5.0"
VOLCANO_VERSION = "v1.12.0"
HEARTBEAT_SECONDS = 20.0


class BuildError(RuntimeError):
    """A component could not be built; the message carries the tail of the build log."""


def cache_root() -> Path:
    """``<XDG cache>/ascend-compile/simcluster`` (the control plane's cache root, our folder)."""
    return controlplane._cache_home() / "simcluster"


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


# --------------------------------------------------------------------------
# components


@dataclass(frozen=True)
class Component:
    name: str
    #: binaries it produces (file names in its bin folder)
    binaries: Sequence[str]
    #: archives whose checksums go into its key
    archives: Sequence[str]
    #: extra text that goes into its key (versions, our own sources)
    extra: Callable[[], bytes]
    build: Callable[["Component", Path, Path, Progress], None]

    def key(self, go: str) -> str:
        digest = hashlib.sha256(f"{self.name}\0{RECIPE}\0{go}\0".encode())
        for archive in self.archives:
            digest.update(sources.ARCHIVES[archive].sha256.encode() + b"\0")
        digest.update(self.extra())
        return digest.hexdigest()[:16]


def _volcano_ldflags() -> str:
    pkg = "volcano.sh/volcano/pkg/version"
    return " ".join(["-s", "-w", f"-X {pkg}.Version={VOLCANO_VERSION}", f"-X {pkg}.Built=1970-01-01T00:00:00Z",
                     f"-X {patches.PLUGIN_IMPORT}.PluginName={patches.PLUGIN_NAME}"])


def _build_volcano(component: Component, work: Path, out: Path, progress: Progress) -> None:
    progress.say("  unpacking Volcano v1.12.0, volcano.sh/apis v1.12.0 and MindCluster")
    volcano = sources.unpack("volcano", work / "volcano")
    apis = sources.unpack("volcano-apis-1.12", work / "apis")
    mind_cluster = sources.unpack("mind-cluster", work / "mind-cluster")
    for result in patches.prepare_volcano_tree(mind_cluster, volcano):
        progress.say(f"  source edit: {result.name}: {result.note}")
    env = go_env()
    log = work / "build.log"
    run_go(["mod", "edit", f"-replace=volcano.sh/apis={apis}"], cwd=volcano, env=env, log=log,
           label="volcano", progress=progress)
    progress.say("  downloading Volcano's Go modules (proxy; cached for later builds)")
    run_go(["mod", "download"], cwd=volcano, env=env, log=log, label="volcano modules", progress=progress)
    progress.say("  compiling vc-scheduler (+ Ascend NPU plugin), vc-controller-manager, vc-webhook-manager")
    staging = work / "out"
    staging.mkdir(exist_ok=True)
    run_go(["build", "-v", "-trimpath", f"-ldflags={_volcano_ldflags()}", "-o", str(staging) + "/",
            "./cmd/scheduler", "./cmd/controller-manager", "./cmd/webhook-manager"],
           cwd=volcano, env=env, log=log, label="volcano", progress=progress)
    for built, name in (("scheduler", "vc-scheduler"), ("controller-manager", "vc-controller-manager"),
                        ("webhook-manager", "vc-webhook-manager")):
        shutil.move(str(staging / built), str(out / name))
    # the scheduler configuration and the operator's manifest are read from the archive at start time
    for path in (volcano, apis, mind_cluster):
        shutil.rmtree(path, ignore_errors=True)


def _build_operator(component: Component, work: Path, out: Path, progress: Progress) -> None:
    progress.say("  unpacking MindCluster and volcano.sh/apis v1.7.0")
    mind_cluster = sources.unpack("mind-cluster", work / "mind-cluster")
    apis = sources.unpack("volcano-apis-1.7", work / "apis")
    operator = mind_cluster / "component" / "ascend-operator"
    progress.say(f"  source edit: {patches.operator_ranktable_root(mind_cluster).note}")
    env = go_env()
    log = work / "build.log"
    run_go(["mod", "edit", f"-replace=volcano.sh/apis={apis}"], cwd=operator, env=env, log=log,
           label="operator", progress=progress)
    progress.say("  downloading the operator's Go modules (proxy; cached for later builds)")
    run_go(["mod", "download"], cwd=operator, env=env, log=log, label="operator modules", progress=progress)
    progress.say("  compiling ascend-operator")
    run_go(["build", "-v", "-trimpath", "-ldflags=-s -w -X main.BuildVersion=simcluster", "-o",
            str(out / "ascend-operator"), "."], cwd=operator, env=env, log=log, label="operator", progress=progress)
    shutil.rmtree(mind_cluster, ignore_errors=True)
    shutil.rmtree(apis, ignore_errors=True)


def _build_kwok(component: Component, work: Path, out: Path, progress: Progress) -> None:
    env = go_env(mod=None)
    env["GOBIN"] = str(out)
    progress.say(f"  go install sigs.k8s.io/kwok/cmd/kwok@{KWOK_VERSION} (modules from the proxy)")
    run_go(["install", "-v", "-trimpath", "-ldflags=-s -w", f"sigs.k8s.io/kwok/cmd/kwok@{KWOK_VERSION}"],
           cwd=work, env=env, log=work / "build.log", label="kwok", progress=progress)


def _build_kustomize(component: Component, work: Path, out: Path, progress: Progress) -> None:
    env = go_env(mod=None)
    env["GOBIN"] = str(out)
    module = f"sigs.k8s.io/kustomize/kustomize/v5@{KUSTOMIZE_VERSION}"
    progress.say(f"  go install {module} (modules from the proxy)")
    run_go(["install", "-v", "-trimpath", "-ldflags=-s -w", module],
           cwd=work, env=env, log=work / "build.log", label="kustomize", progress=progress)


CERTGEN_DIR = HERE / "certgen"


def _build_certgen(component: Component, work: Path, out: Path, progress: Progress) -> None:
    env = go_env(mod="readonly")
    run_go(["build", "-trimpath", "-o", str(out / "certgen"), "."], cwd=CERTGEN_DIR, env=env,
           log=work / "build.log", label="certgen", progress=progress)


def _certgen_sources() -> bytes:
    return b"".join(p.read_bytes() for p in sorted(CERTGEN_DIR.glob("*")) if p.is_file())


COMPONENTS: Dict[str, Component] = {c.name: c for c in (
    Component("certgen", ("certgen",), (), _certgen_sources, _build_certgen),
    Component("kwok", ("kwok",), (), lambda: KWOK_VERSION.encode(), _build_kwok),
    Component("kustomize", ("kustomize",), (), lambda: KUSTOMIZE_VERSION.encode(), _build_kustomize),
    Component("operator", ("ascend-operator",), ("mind-cluster", "volcano-apis-1.7"),
              lambda: patches.SIM_RANKTABLE_ROOT.encode(), _build_operator),
    Component("volcano", ("vc-scheduler", "vc-controller-manager", "vc-webhook-manager"),
              ("volcano", "volcano-apis-1.12", "mind-cluster"),
              lambda: (_volcano_ldflags() + patches.REGISTRATION_SOURCE).encode(), _build_volcano),
)}


@dataclass(frozen=True)
class Binaries:
    """Paths of every built program."""

    paths: Dict[str, Path]

    def __getitem__(self, name: str) -> Path:
        return self.paths[name]


def component_dir(component: Component, go: str) -> Path:
    return cache_root() / "bin" / f"{component.name}-{component.key(go)}"


def _complete(folder: Path, component: Component) -> bool:
    return all((folder / name).is_file() for name in component.binaries)


def cached_binaries() -> Optional[Binaries]:
    """The binaries when every component is built already, else None (never builds)."""
    try:
        go = go_version()
    except BuildError:
        return None
    paths: Dict[str, Path] = {}
    for component in COMPONENTS.values():
        folder = component_dir(component, go)
        if not _complete(folder, component):
            return None
        paths.update({name: folder / name for name in component.binaries})
    return Binaries(paths)


def build_all(*, force: bool = False, progress: Optional[Progress] = None,
              only: Sequence[str] = ()) -> Binaries:
    """Build (or find cached) every component; returns the binaries' paths.

    Serialised across processes by a lock file; each component's folder is
    moved into place only when complete.
    """
    progress = progress or Progress()
    go = go_version()
    needs_sources = [c for c in COMPONENTS.values() if c.archives]
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    paths: Dict[str, Path] = {}
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        todo = [c for c in COMPONENTS.values()
                if (not only or c.name in only) and (force or not _complete(component_dir(c, go), c))]
        if any(c in needs_sources for c in todo):
            progress.say("verifying the upstream archives' SHA-256 (../shared/upstream/src)")
            sources.verify()
        for component in COMPONENTS.values():
            folder = component_dir(component, go)
            if component in todo:
                started = time.monotonic()
                progress.say(f"building {component.name} ({go}) -> {folder}")
                work = root / "work" / f"{component.name}-{component.key(go)}"
                staging = folder.with_name(folder.name + ".partial")
                for path in (work, staging):
                    if path.exists():
                        shutil.rmtree(path)
                work.mkdir(parents=True)
                staging.mkdir(parents=True)
                try:
                    component.build(component, work, staging, progress)
                except BaseException:
                    progress.say(f"  build of {component.name} failed; its log: {work / 'build.log'}")
                    raise
                if folder.exists():
                    shutil.rmtree(folder)
                os.replace(staging, folder)
                with contextlib.suppress(OSError):
                    shutil.copy(work / "build.log", folder / "build.log")
                shutil.rmtree(work, ignore_errors=True)
                progress.say(f"built {component.name} in {time.monotonic() - started:.0f}s")
            elif not only or component.name in only:
                progress.say(f"cached {component.name}: {folder}")
            paths.update({name: folder / name for name in component.binaries})
    return Binaries(paths)


def unavailable_reason() -> Optional[str]:
    """None when the cluster can be built (or is built), else a one-line reason to skip."""
    reason = sources.missing_reason()
    if reason:
        return reason
    if cached_binaries() is not None:
        return None
    return controlplane.go_unavailable_reason()


def describe(binaries: Binaries) -> List[str]:
    return [f"{name}: {path}" for name, path in sorted(binaries.paths.items())]
