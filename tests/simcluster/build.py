"""Build the simulated cluster's programs from the pinned upstream archives, once, into a cache.

Components (each cached on its own, keyed by the archives' checksums, the Go
version and this recipe's version):

- ``volcano``: ``vc-controller-manager`` and ``vc-webhook-manager`` from Volcano v1.12.0 (with
  ``volcano.sh/apis`` replaced by the unpacked v1.12.0 archive), the same for every release
  (docs/testing.md says why and what that could change);
- ``scheduler-<release>``: ``vc-scheduler`` of the Volcano version the release's plugin builds on
  (v1.9.0 or v1.12.0, :mod:`tests.simcluster.releases`) with that release's Ascend NPU plugin
  registered statically (see :mod:`tests.simcluster.patches` and docs/testing.md);
- ``operator-<release>``: ``ascend-operator`` from the release's MindCluster archive with
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
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence

from tests.integration import controlplane
from tests.simcluster import patches, releases, sources
from tests.simcluster.gotool import BuildError, Progress, go_env, go_version, run_go

HERE = Path(__file__).resolve().parent
#: bump when the way a component is built changes (invalidates every cached binary)
RECIPE = "1"
KWOK_VERSION = "v0.7.0"
KUSTOMIZE_VERSION = "v5.5.0"
#: the Volcano version of the controller manager and the admission webhooks, for every release
CONTROLLERS_VOLCANO = "v1.12.0"


def cache_root() -> Path:
    """``<XDG cache>/ascend-compile/simcluster`` (the control plane's cache root, our folder)."""
    return controlplane._cache_home() / "simcluster"


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
    #: the MindCluster release it is built from (its binaries are that release's), None for the shared ones
    release: Optional[str] = None

    def key(self, go: str) -> str:
        digest = hashlib.sha256(f"{self.name}\0{RECIPE}\0{go}\0".encode())
        for archive in self.archives:
            digest.update(sources.ARCHIVES[archive].sha256.encode() + b"\0")
        digest.update(self.extra())
        return digest.hexdigest()[:16]

    def program(self, binary: str) -> str:
        """The name :class:`Binaries` knows a binary of this component by: ``vc-scheduler@v7.3.2``."""
        return f"{binary}@{self.release}" if self.release else binary


def _volcano_ldflags(version: str, plugin_name: Optional[str] = None) -> str:
    pkg = "volcano.sh/volcano/pkg/version"
    flags = ["-s", "-w", f"-X {pkg}.Version={version}", f"-X {pkg}.Built=1970-01-01T00:00:00Z"]
    if plugin_name:  # BUILDING-RELEASES.md's first trap: without it the plugin's scheduling functions never run
        flags.append(f"-X {patches.PLUGIN_IMPORT}.PluginName={plugin_name}")
    return " ".join(flags)


def _go_build_volcano(volcano: Path, apis: Path, work: Path, label: str, commands: Sequence[str],
                      ldflags: str, progress: Progress) -> Path:
    """Replace ``volcano.sh/apis``, download the modules, build ``commands``; the folder they are in."""
    env = go_env()
    log = work / "build.log"
    run_go(["mod", "edit", f"-replace=volcano.sh/apis={apis}"], cwd=volcano, env=env, log=log,
           label=label, progress=progress)
    progress.say("  downloading Volcano's Go modules (proxy; cached for later builds)")
    run_go(["mod", "download"], cwd=volcano, env=env, log=log, label=f"{label} modules", progress=progress)
    staging = work / "out"
    staging.mkdir(exist_ok=True)
    run_go(["build", "-v", "-trimpath", f"-ldflags={ldflags}", "-o", str(staging) + "/",
            *[f"./cmd/{command}" for command in commands]], cwd=volcano, env=env, log=log, label=label,
           progress=progress)
    return staging


def _build_controllers(component: Component, work: Path, out: Path, progress: Progress) -> None:
    build = releases.VOLCANOS[CONTROLLERS_VOLCANO]
    progress.say(f"  unpacking Volcano {build.version} and its volcano.sh/apis")
    volcano = sources.unpack(build.archive, work / "volcano")
    apis = sources.unpack(build.apis, work / "apis")
    result = patches.ignore_action(volcano)
    progress.say(f"  source edit: {result.name}: {result.note}")
    progress.say("  compiling vc-controller-manager, vc-webhook-manager")
    staging = _go_build_volcano(volcano, apis, work, "volcano", ("controller-manager", "webhook-manager"),
                                _volcano_ldflags(build.version), progress)
    for built in ("controller-manager", "webhook-manager"):
        shutil.move(str(staging / built), str(out / f"vc-{built}"))
    for path in (volcano, apis):
        shutil.rmtree(path, ignore_errors=True)


def _build_scheduler(component: Component, work: Path, out: Path, progress: Progress) -> None:
    assert component.release is not None
    release = releases.get(component.release)
    build = release.volcano_build
    progress.say(f"  unpacking Volcano {build.version}, its volcano.sh/apis and MindCluster {release.name}")
    volcano = sources.unpack(build.archive, work / "volcano")
    apis = sources.unpack(build.apis, work / "apis")
    mind_cluster = sources.unpack(release.archive, work / "mind-cluster")
    for result in patches.prepare_scheduler_tree(mind_cluster, volcano, release.edits):
        progress.say(f"  source edit: {result.name}: {result.note}")
    progress.say(f"  compiling vc-scheduler (Volcano {build.version} + Ascend NPU plugin {release.name}, "
                 f"registered as {release.plugin_name})")
    staging = _go_build_volcano(volcano, apis, work, f"scheduler {release.name}", ("scheduler",),
                                _volcano_ldflags(build.version, release.plugin_name), progress)
    shutil.move(str(staging / "scheduler"), str(out / "vc-scheduler"))
    # the scheduler configuration and the operator's manifest are read from the archive at start time
    for path in (volcano, apis, mind_cluster):
        shutil.rmtree(path, ignore_errors=True)


def _build_operator(component: Component, work: Path, out: Path, progress: Progress) -> None:
    assert component.release is not None
    release = releases.get(component.release)
    progress.say(f"  unpacking MindCluster {release.name} and volcano.sh/apis v1.7.0")
    mind_cluster = sources.unpack(release.archive, work / "mind-cluster")
    apis = sources.unpack("volcano-apis-1.7", work / "apis")
    operator = mind_cluster / "component" / "ascend-operator"
    progress.say(f"  source edit: {patches.operator_ranktable_root(mind_cluster).note}")
    env = go_env()
    log = work / "build.log"
    label = f"operator {release.name}"
    run_go(["mod", "edit", f"-replace=volcano.sh/apis={apis}"], cwd=operator, env=env, log=log,
           label=label, progress=progress)
    progress.say("  downloading the operator's Go modules (proxy; cached for later builds)")
    run_go(["mod", "download"], cwd=operator, env=env, log=log, label=f"{label} modules", progress=progress)
    progress.say(f"  compiling ascend-operator {release.name}")
    run_go(["build", "-v", "-trimpath", "-ldflags=-s -w -X main.BuildVersion=simcluster", "-o",
            str(out / "ascend-operator"), "."], cwd=operator, env=env, log=log, label=label, progress=progress)
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


#: the Volcano whose own scheduler (no MindCluster plugin) runs the device-stack clusters (tests/simcluster/devicestacks.py)
DEVICESHARE_VOLCANO = "v1.15.1"
DEVICESHARE_SCHEDULER = f"scheduler-volcano-{DEVICESHARE_VOLCANO}"


def _build_deviceshare_scheduler(component: Component, work: Path, out: Path, progress: Progress) -> None:
    """Volcano v1.15.1's vc-scheduler as released: its go.mod already replaces volcano.sh/apis by its staging copy."""
    progress.say(f"  unpacking Volcano {DEVICESHARE_VOLCANO}")
    volcano = sources.unpack("volcano-1.15", work / "volcano")
    env, log = go_env(), work / "build.log"
    run_go(["build", "-v", "-trimpath", f"-ldflags={_volcano_ldflags(DEVICESHARE_VOLCANO)}", "-o",
            str(out / "vc-scheduler"), "./cmd/scheduler"], cwd=volcano, env=env, log=log, label=DEVICESHARE_SCHEDULER,
           progress=progress)
    shutil.rmtree(volcano, ignore_errors=True)


def _release_components(release: releases.Release) -> List[Component]:
    build = release.volcano_build
    scheduler_key = (_volcano_ldflags(build.version, release.plugin_name) + patches.REGISTRATION_SOURCE
                     + " ".join(release.edits))
    return [
        Component(f"scheduler-{release.name}", ("vc-scheduler",), (build.archive, build.apis, release.archive),
                  lambda: scheduler_key.encode(), _build_scheduler, release.name),
        Component(f"operator-{release.name}", ("ascend-operator",), (release.archive, "volcano-apis-1.7"),
                  lambda: patches.SIM_RANKTABLE_ROOT.encode(), _build_operator, release.name),
    ]


COMPONENTS: Dict[str, Component] = {c.name: c for c in (
    Component("certgen", ("certgen",), (), _certgen_sources, _build_certgen),
    Component("kwok", ("kwok",), (), lambda: KWOK_VERSION.encode(), _build_kwok),
    Component("kustomize", ("kustomize",), (), lambda: KUSTOMIZE_VERSION.encode(), _build_kustomize),
    Component("volcano", ("vc-controller-manager", "vc-webhook-manager"), ("volcano", "volcano-apis-1.12"),
              lambda: _volcano_ldflags(CONTROLLERS_VOLCANO).encode(), _build_controllers),
    *[c for release in releases.RELEASES.values() for c in _release_components(release)],
    # built only when asked for (build_all(only=...)): no release's cluster runs it
    Component(DEVICESHARE_SCHEDULER, ("vc-scheduler",), ("volcano-1.15",),
              lambda: _volcano_ldflags(DEVICESHARE_VOLCANO).encode(), _build_deviceshare_scheduler),
)}
#: the components a cluster of any release needs besides its release's own (kustomize is not one)
SHARED_COMPONENTS = ("certgen", "kwok", "volcano")


def cluster_components(release_names: Sequence[str]) -> List[Component]:
    """What clusters of these releases need: the shared components and each release's own."""
    return [c for c in COMPONENTS.values()
            if c.name in SHARED_COMPONENTS or (c.release is not None and c.release in release_names)]


@dataclass(frozen=True)
class Binaries:
    """Paths of the built programs: the shared ones by name, a release's as ``<name>@<release>``."""

    paths: Dict[str, Path]

    def __getitem__(self, name: str) -> Path:
        return self.paths[name]

    def of(self, name: str, release: str) -> Path:
        """``name`` (``vc-scheduler``, ``ascend-operator``) of ``release``, or a shared program ``name``."""
        path = self.paths.get(f"{name}@{release}", self.paths.get(name))
        if path is None:
            raise BuildError(f"{name} of MindCluster {release} is not built (python -m tests.simcluster build "
                             f"--release {release})")
        return path


def component_dir(component: Component, go: str) -> Path:
    return cache_root() / "bin" / f"{component.name}-{component.key(go)}"


def _complete(folder: Path, component: Component) -> bool:
    return all((folder / name).is_file() for name in component.binaries)


def cached_binaries(release_names: Sequence[str] = releases.BUILT) -> Optional[Binaries]:
    """The binaries of clusters of these releases when all are built already, else None (never builds)."""
    try:
        go = go_version()
    except BuildError:
        return None
    paths: Dict[str, Path] = {}
    for component in cluster_components(release_names):
        folder = component_dir(component, go)
        if not _complete(folder, component):
            return None
        paths.update({component.program(name): folder / name for name in component.binaries})
    return Binaries(paths)


def _build_one(component: Component, go: str, progress: Progress) -> None:
    """Build one component into its folder (moved into place only when complete)."""
    root = cache_root()
    folder = component_dir(component, go)
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


def build_all(*, force: bool = False, progress: Optional[Progress] = None, only: Sequence[str] = (),
              release_names: Sequence[str] = releases.BUILT) -> Binaries:
    """Build (or find cached) what clusters of ``release_names`` need (or the components named in ``only``);
    returns the binaries' paths.  Serialised across processes by a lock file."""
    progress = progress or Progress()
    go = go_version()
    wanted = [COMPONENTS[name] for name in only] if only else cluster_components(release_names)
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    paths: Dict[str, Path] = {}
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        todo = [c for c in wanted if force or not _complete(component_dir(c, go), c)]
        if any(c.archives for c in todo):
            progress.say("verifying the upstream archives' SHA-256 (../shared/upstream/src)")
            sources.verify(sorted({a for c in todo for a in c.archives}))
        for component in wanted:
            if component in todo:
                _build_one(component, go, progress)
            else:
                progress.say(f"cached {component.name}: {component_dir(component, go)}")
            folder = component_dir(component, go)
            paths.update({component.program(name): folder / name for name in component.binaries})
    return Binaries(paths)


def unavailable_reason(release_names: Sequence[str] = releases.BUILT) -> Optional[str]:
    """None when clusters of these releases can be built (or are built), else a one-line reason to skip."""
    reason = sources.missing_reason()
    if reason:
        return reason
    if cached_binaries(release_names) is not None:
        return None
    return controlplane.go_unavailable_reason()


def describe(binaries: Binaries) -> List[str]:
    return [f"{name}: {path}" for name, path in sorted(binaries.paths.items())]
