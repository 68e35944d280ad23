"""The test session's one simulated cluster, made ready in the background while the other tests run.

A pytest run needs one cluster at the most (tests/conftest.py): the fixture ``sim`` of every
simulated-cluster test and the oracle's batch runs share it.  Once collection shows that a selected test
needs it, a thread of the pytest process

1. waits for the programs: when they are not built yet, ``python -m tests.simcluster build`` runs as a
   child process (its output goes to ``build.log`` in :attr:`SessionCluster.folder`, not to the terminal
   the other tests print to);
2. starts the cluster (unless no selected test asks for it and every batch runs on a named release's);
3. runs the oracle's batch runs that the selected tests declared (:data:`WORK_ATTRIBUTE`), one after the
   other, so that their verdicts are ready when those tests ask for them;
4. then, for the batches declared for a named MindCluster release (``release_of``: the per-release
   verdicts of tests/simcluster/test_releases.py), one release at a time: starts a cluster of that release
   (:data:`RELEASE_NODES_PER_PROFILE` nodes per profile), runs its batches, stops it.  A release's cluster
   starts only when a selected test asked for a batch on it.  Such modules (:data:`RELEASE_WORK_ATTRIBUTE`)
   need nothing of the session's cluster, so their tests go to the second pytest process with the others.

A test that asks for ``sim`` itself waits until all of it is done: nothing but the batch runs touches the
cluster while they judge (a test that holds the scheduler, or fills the nodes, would change their verdicts).

Why a child process for the build and paths resolved up front: other tests of the run change the
process's environment for a while (``PATH`` with a fake kubectl, ``HOME``), so the thread runs only
programs it was given as absolute paths and finds no file through the environment.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from tests.checkout import ROOT
from tests.integration import controlplane
from tests.simcluster import build, releases
from tests.simcluster.cluster import SimCluster, SimClusterError

#: a test module that judges a batch on the session's cluster names here a function that makes the batch at
#: collection (in the main thread) and returns the run: ``(cluster) -> result``, done in the background; the
#: module's tests get the result from the fixture ``judged_early``
WORK_ATTRIBUTE = "JUDGED_EARLY"
#: a module whose batches run each on a cluster of a named MindCluster release names here a function that returns
#: ``{release: run}``; the fixture ``judged_early`` gives its tests ``{release: result}``.  Those clusters are
#: started for the batches, so such a module's tests may run in the second pytest process (tests/conftest.py)
RELEASE_WORK_ATTRIBUTE = "JUDGED_ON_RELEASES"
#: nodes of each simulated profile: the rule-rejection cases are jobs of two whole module-910b-8 nodes, and 16
#: run eight at a time (on 4 they ran two at a time, over 20 rounds); the fidelity jobs fit in 4 nodes each
NODES_PER_PROFILE = 16
#: nodes of each simulated profile on a release's own cluster: its batches are jobs of one or two nodes each
RELEASE_NODES_PER_PROFILE = 4

Work = Callable[[SimCluster], Any]

BUILD_COMMAND = (sys.executable, "-m", "tests.simcluster", "build")
#: how far the test process lowers its CPU priority (``os.nice``) once it has started the build.  The build is
#: what a cold run waits for (the cluster tests need its programs; the other tests finish long before), so
#: those tests take what CPU the build leaves.  In cold runs of scripts/quickstart.py on an idle 2-core machine
#: the build took 810 s beside them at the same priority, 538 s with them at this one (464 s alone; the whole
#: run 21.4 min, then 18.5).  An unprivileged process cannot raise its priority again, so it stays lowered
#: to the run's end, and so is everything the run starts after the build (the second pytest process, the
#: clusters): they share the cores among themselves as before.  A run that finds the programs built keeps
#: its priority.
YIELD_TO_BUILD = 10


def start_build(log: Path, command: Sequence[str] = BUILD_COMMAND) -> "subprocess.Popen[bytes]":
    """Start the build (its progress to ``log``, the paths it prints to a pipe), then yield it the CPU: the
    build keeps this process's priority, and this thread (on Linux, the nice value is a thread's; threads
    and processes started later inherit it) and so the rest of the run goes :data:`YIELD_TO_BUILD` lower."""
    with open(log, "wb") as out:
        process = subprocess.Popen(list(command), cwd=str(ROOT), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=out, env=dict(os.environ))
    if hasattr(os, "nice"):
        try:
            os.nice(YIELD_TO_BUILD)
        except OSError:  # a platform that refuses it: the run is slower, not wrong
            pass
    return process


class SessionCluster:
    """The cluster, the state of its preparation, and the results of the batch runs done on it."""

    def __init__(self, work: Dict[str, Work], nodes_per_profile: int = NODES_PER_PROFILE, keep: bool = True,
                 release_of: Optional[Mapping[str, str]] = None):
        self.work = dict(work)
        #: batch name -> the release whose own cluster it runs on (absent: the session's cluster, of the default)
        self.release_of = dict(release_of or {})
        #: whether a test of the run asks for the cluster itself (``sim``); when none does, the cluster stops as
        #: soon as the batch runs are done rather than idle (and take a share of the two cores) to the run's end
        self.keep = keep
        self._released = False
        self.nodes_per_profile = nodes_per_profile
        self.folder = Path(tempfile.mkdtemp(prefix="ascend-compile-session-cluster-"))
        self.cluster: Optional[SimCluster] = None
        self.error: Optional[BaseException] = None
        self.results: Dict[str, Tuple[bool, Any]] = {}  # name -> (ok, result or exception)
        self.times: List[str] = []
        self._started = threading.Event()
        #: set once the programs are built (or found cached), or their build ended in failure: a second pytest
        #: process of the run (tests/simcluster/offload.py) waits for it rather than build them a second time
        self.programs_ready = threading.Event()
        self._done: Dict[str, threading.Event] = {name: threading.Event() for name in self.work}
        self._all_done = threading.Event()
        self._stopping = threading.Event()
        self._thread: Optional[threading.Thread] = None
        self._build: Optional["subprocess.Popen[bytes]"] = None
        self._binaries: Optional[build.Binaries] = None
        self._apiserver: Optional[Path] = None
        self._kubectl: Optional[str] = None

    # ------------------------------------------------------------------ the test run's side

    def begin(self) -> Optional[str]:
        """Start the preparation (call from the main thread: it reads the environment); a line for the terminal
        when the programs are being built."""
        binaries, apiserver = build.cached_binaries(self._releases()), controlplane.binary_path()
        self._kubectl = controlplane.find_kubectl()
        note = None
        if binaries is not None and apiserver.is_file():
            self._binaries, self._apiserver = binaries, apiserver
            self.programs_ready.set()
        else:
            log = self.folder / "build.log"
            self._build = start_build(log, (*BUILD_COMMAND, *(f"--release={r}" for r in self._releases())))
            note = (f"building the simulated cluster's programs in the background while the other tests run "
                    f"(many minutes the first time, cached after that; the tests yield it the CPU: they run at a "
                    f"lower priority from now to the run's end); progress in {log}")
        self._thread = threading.Thread(target=self._prepare, name="session-simcluster", daemon=True)
        self._thread.start()
        return note

    def ready_cluster(self) -> SimCluster:
        """The started cluster once every batch run is done (raises why it could not start)."""
        assert self.keep, "the run said no test asks for the cluster itself (SessionCluster(keep=False))"
        self._all_done.wait()
        return self._cluster()

    def result(self, name: str) -> Any:
        """The result of one batch run (raises the cluster's or the run's error)."""
        self._done[name].wait()
        ok, value = self.results[name]
        if not ok:
            raise value
        return value

    def module_result(self, module: str) -> Any:
        """A module's batch result, or ``{release: result}`` when its batches were declared per release."""
        if module in self.work:
            return self.result(module)
        return {release: self.result(name) for name, release in self.release_of.items()
                if name.startswith(f"{module}@")}

    def waiting_for_build(self) -> Optional[Path]:
        """The build log while the programs are still being built, else None."""
        return self.folder / "build.log" if self._build is not None and self._build.poll() is None else None

    def stop(self) -> None:
        self._stopping.set()
        self.programs_ready.set()
        if self._build is not None and self._build.poll() is None:
            self._build.terminate()
        if self._thread is not None:
            self._thread.join()
        if self.cluster is not None and not self._released:
            self.cluster.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    # ------------------------------------------------------------------ the thread's side

    def _cluster(self) -> SimCluster:
        self._started.wait()
        if self.error is not None:
            raise SimClusterError(f"the session's simulated cluster did not start: {self.error}")
        assert self.cluster is not None
        return self.cluster

    def _releases(self) -> Tuple[str, ...]:
        """The releases whose programs the run needs: the default's, and those of the batches on a release."""
        return tuple(r for r in releases.BUILT if r == releases.DEFAULT or r in self.release_of.values())

    def _run(self, name: str, cluster: Callable[[], SimCluster]) -> None:
        started = time.monotonic()
        try:
            if self._stopping.is_set():  # the run ended (or was killed) while the cluster started
                raise SimClusterError("the test run ended before this batch ran")
            self.results[name] = (True, self.work[name](cluster()))
        except BaseException as exc:  # noqa: BLE001 - the test that asks for it reports it
            self.results[name] = (False, exc)
        self.times.append(f"{name}: {time.monotonic() - started:.0f}s")
        self._done[name].set()

    def _prepare(self) -> None:
        try:
            self._start()
        except BaseException as exc:  # noqa: BLE001 - every test that needs the cluster reports it
            self.error = exc
        finally:
            self._started.set()
        for name in self.work:
            if name not in self.release_of:
                self._run(name, self._cluster)
        self._all_done.set()
        if not self.keep and self.cluster is not None:
            self.cluster.stop()
            self._released = True
            self.times.append("stopped after its batch runs")
        self._prepare_releases()
        # the cluster's programs die with the thread that started them (their parent-death signal follows
        # the thread on Linux): this one lives until the run ends
        self._stopping.wait()

    def _prepare_releases(self) -> None:
        """One release at a time: its cluster, its batches, then stop it."""
        for release in [r for r in releases.SUPPORTED if r in self.release_of.values()]:
            names = [n for n in self.work if self.release_of.get(n) == release]
            started = time.monotonic()
            sim = SimCluster(nodes_per_profile=RELEASE_NODES_PER_PROFILE, binaries=self._binaries,
                             apiserver=self._apiserver, kubectl=self._kubectl, release=release)
            failed: Optional[BaseException] = self.error
            if failed is None and not self._stopping.is_set():
                try:
                    sim.start()
                except BaseException as exc:  # noqa: BLE001 - the tests that ask for its batches report it
                    failed = exc
            self.times.append(f"start {release}: {time.monotonic() - started:.0f}s")

            def cluster() -> SimCluster:
                if failed is not None:
                    raise SimClusterError(f"the simulated cluster of MindCluster {release} did not start: {failed}")
                return sim
            try:
                for name in names:
                    self._run(name, cluster)
            finally:
                sim.stop()

    def _start(self) -> None:
        started = time.monotonic()
        if self._build is not None:
            try:
                out, _ = self._build.communicate()
            finally:
                self.programs_ready.set()
            if self._stopping.is_set():
                raise SimClusterError("the test run ended before the programs were built")
            if self._build.returncode != 0:
                log = (self.folder / "build.log").read_text(errors="replace").splitlines()
                raise SimClusterError(f"building the programs failed (exit {self._build.returncode}):\n"
                                      + "\n".join(log[-30:]))
            paths = dict(line.split(": ", 1) for line in out.decode().splitlines() if ": " in line)
            self._apiserver = Path(paths.pop("apiserver"))
            self._binaries = build.Binaries({name: Path(path) for name, path in paths.items()})
            self.times.append(f"build: {time.monotonic() - started:.0f}s")
            started = time.monotonic()
        if not self.keep and all(name in self.release_of for name in self.work):
            return  # only batches on clusters of named releases: the default's cluster is not needed
        self.cluster = SimCluster(nodes_per_profile=self.nodes_per_profile, binaries=self._binaries,
                                  apiserver=self._apiserver, kubectl=self._kubectl)
        self.cluster.start()
        self.times.append(f"start: {time.monotonic() - started:.0f}s")
