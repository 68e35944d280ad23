"""Shared test plumbing: repo paths, the ../shared facts folder, --update-golden, and the kustomize the KRM
tests run."""
from __future__ import annotations

import contextlib
import os
import signal
import threading
from pathlib import Path
from typing import Any, Iterator, Optional, Set

import pytest

from tests.checkout import ROOT, SHARED  # noqa: F401  (re-exported for the tests)


try:
    from hypothesis import HealthCheck, settings
except ImportError:  # only the property tests need hypothesis (it is in the test extra)
    pass
else:
    # Hypothesis profiles for every test, whichever folders a run collects: ``ci`` (the default) is
    # derandomized and has no per-example deadline (wall time on a shared 2-core CI machine is not what a
    # property test asserts; tests/hardening/test_regex_time.py times what must be fast), so CI is
    # deterministic.  ``HYPOTHESIS_PROFILE=dev`` (random, more examples) when hunting for bugs locally.
    _common = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
                   print_blob=True)
    settings.register_profile("ci", derandomize=True, max_examples=60, database=None, **_common)
    settings.register_profile("dev", max_examples=300, **_common)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def _end_on_sigterm() -> None:
    """A run killed with SIGTERM ends as an interrupted run, as after Ctrl-C: pytest finishes the session (which
    stops the session's simulated cluster and removes its folder, tests/simcluster/session.py) and the atexit
    handlers remove this run's checkout and cache folders.  Python's own default is to die at once and leave
    them all behind.  A second SIGTERM kills at once, and so does the first in a process forked from this one
    (lint's worker pools: ``Pool.terminate()`` ends its workers with SIGTERM): a forked child gets the default
    disposition back at the fork, for a Python-level handler runs only between bytecodes, and a SIGTERM that
    lands just before a worker blocks in C (waiting on its pool's task queue) would then never run it: the
    worker lives on and the pool's join waits for it for ever (seen in a CI rehearsal)."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return  # not ours to handle: pytest run from a thread, or by a program that handles SIGTERM itself
    run = os.getpid()

    def interrupted(signum: int, frame: object) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        if os.getpid() != run:  # a forked child whose fork skipped the hook below: it dies as it would have
            os.kill(os.getpid(), signum)
            return
        pytest.exit("killed by SIGTERM: the run ends as after Ctrl-C, cleaning up", returncode=128 + signum)

    def default_in_child() -> None:
        with contextlib.suppress(ValueError):  # (forked from a thread other than the main one)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)

    signal.signal(signal.SIGTERM, interrupted)
    os.register_at_fork(after_in_child=default_in_child)


def pytest_configure(config: pytest.Config) -> None:
    _end_on_sigterm()
    # In CI ($CI set) ascend-compile uses no cache unless asked (issue 43, M3): the tests set CI themselves where
    # they test that, so a run on a CI machine tests what a run elsewhere does.
    os.environ.pop("CI", None)
    # The lint result cache of every command the tests run goes to a folder of this session (the
    # user's own cache stays untouched); the cache is exact, so it changes no test's outcome.
    if "ASCEND_COMPILE_CACHE_DIR" not in os.environ:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="ascend-compile-test-cache-")
        atexit.register(shutil.rmtree, folder, True)
        os.environ["ASCEND_COMPILE_CACHE_DIR"] = folder
        _made_here.append("ASCEND_COMPILE_CACHE_DIR")
    from tests.simcluster.offload import CHILD_ENV, ReportWriter

    if CHILD_ENV in os.environ:  # this run is the second process of a run (tests/simcluster/offload.py)
        config.pluginmanager.register(ReportWriter(os.environ[CHILD_ENV]), "ascend-compile-offload-reports")


#: variables pytest_configure set for this process alone (a second pytest process makes its own)
_made_here: list = []


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="Rewrite golden/ from the current compiler output (review the diff before committing).")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    """../shared (upstream CRDs, samples, FACTS): beside the repo in development and CI only."""
    if not (SHARED / "upstream").is_dir():
        pytest.skip(f"{SHARED} is absent: upstream samples and CRDs are only beside the repo in development and CI")
    return SHARED


@contextlib.contextmanager
def on_terminal(config: pytest.Config) -> Iterator[None]:
    """Show a long provisioning step's progress on the terminal, not in a test's captured output: a
    newcomer staring at a silent terminal assumes it hung."""
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
        yield


@pytest.fixture(scope="session")
def kustomize(request: pytest.FixtureRequest) -> str:
    """The kustomize program the KRM tests run (kubectl kustomize cannot run exec KRM functions): $KUSTOMIZE
    when set, else kustomize v5.5.0 built from its Go module into the project's cache on first use, like the
    simulated cluster's programs (tests/simcluster/build.py); skips only when Go is absent."""
    given = os.environ.get("KUSTOMIZE")
    if given:
        return given
    from tests.integration import controlplane
    from tests.simcluster import build
    from tests.simcluster.gotool import go_version

    reason = controlplane.go_unavailable_reason()
    if reason:
        pytest.skip(f"kustomize is built from sigs.k8s.io/kustomize/kustomize/v5@{build.KUSTOMIZE_VERSION} and "
                    f"{reason} (or set KUSTOMIZE to a kustomize v5 binary)")
    cached = build.component_dir(build.COMPONENTS["kustomize"], go_version()) / "kustomize"
    if cached.is_file():
        return str(cached)
    with on_terminal(request.config):
        print("\nbuilding kustomize for the KRM tests from its Go module: a minute the first time, cached "
              "after that", flush=True)
        binaries = build.build_all(only=("kustomize",))
    return str(binaries["kustomize"])


#: the fixtures that need the session's simulated cluster (tests/simcluster/session.py)
_CLUSTER_FIXTURES = {"sim", "judged_early"}
_session_cluster = None  # the SessionCluster of this run, when a selected test needs one


def _needs_cluster(item: pytest.Item) -> bool:
    return bool(_CLUSTER_FIXTURES & set(getattr(item, "fixturenames", ())))


def _offloadable(item: pytest.Item) -> bool:
    """A test that uses the cluster and not the oracle's batch verdicts on the session's cluster (or only verdicts
    on clusters of named releases): it may run in a process of its own."""
    from tests.simcluster.session import RELEASE_WORK_ATTRIBUTE, WORK_ATTRIBUTE

    module = getattr(item, "module", None)
    if hasattr(module, RELEASE_WORK_ATTRIBUTE):
        return True  # judged on clusters of their releases, started for them: any process may run them
    return "sim" in getattr(item, "fixturenames", ()) and not hasattr(module, WORK_ATTRIBUTE)


def _releases_asked(items: list, module: Any) -> Optional[Set[str]]:
    """The releases whose batches the selected tests of ``module`` read (their ``release`` parameter), so that a run
    of one release's tests (``-k v26.1.0``) starts that release's cluster alone; None when a test reads the batches
    without naming its release."""
    asked: Set[str] = set()
    for item in items:
        if getattr(item, "module", None) is not module or "judged_early" not in item.fixturenames:
            continue
        release = getattr(getattr(item, "callspec", None), "params", {}).get("release")
        if release is None:
            return None
        asked.add(release)
    return asked


_child = None  # the second pytest process of this run, when it has one (tests/simcluster/offload.py)
_third = None  # the third, with a share of the tests that need no cluster (offload.offline_share), when it has one


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    """The tests that use the simulated cluster run last, in their own order: the cluster is made ready (and the
    oracle's batch runs judged) in the background while every other test runs.  Those that need only a cluster
    go to a second pytest process (tests/simcluster/offload.py) when the run has other tests too, and then a
    measured share of the others to a third (``offload.offline_share``)."""
    global _child, _third
    from tests.simcluster import offload
    from tests.simcluster.conftest import skip_reason

    offline = [i for i in items if not _needs_cluster(i)]
    items[:] = offline + [i for i in items if _needs_cluster(i)]
    moved = [i for i in items if _offloadable(i)]
    if _child is not None or not offload.wanted(config, moved, [i for i in items if not _offloadable(i)]) \
            or skip_reason():
        return
    env = {name: value for name, value in os.environ.items() if name not in _made_here}
    _child = offload.Child(config, [i.nodeid for i in moved], env)
    share = offload.offline_share(offline)
    if share:
        _third = offload.Child(config, [i.nodeid for i in share], env, role=offload.THIRD)
    replaced = {id(i): offload.ChildTest.replacing(i, _third) for i in share}
    replaced.update((id(i), offload.ChildTest.replacing(i, _child)) for i in moved)
    items[:] = [i for i in items if id(i) not in replaced] + list(replaced.values())


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the session's cluster in the background once a selected test needs it (and it can run here)."""
    global _session_cluster
    config = session.config
    wanted = [i for i in session.items if _needs_cluster(i)]
    if not wanted or config.option.collectonly or _session_cluster is not None:
        if _child is not None:
            _start_child(config, None)
        return
    from tests.simcluster.conftest import skip_reason
    from tests.simcluster.session import RELEASE_WORK_ATTRIBUTE, WORK_ATTRIBUTE, SessionCluster

    if skip_reason():
        return  # the fixtures skip with the reason
    work, release_of, seen = {}, {}, set()
    for item in wanted:
        module = getattr(item, "module", None)
        if "judged_early" in item.fixturenames and module is not None and module.__name__ not in seen:
            seen.add(module.__name__)
            # the module's batch, made here (in the main thread: it may read the environment), judged there; the
            # batches of a {release: batch} are judged each on a cluster of its release
            if hasattr(module, RELEASE_WORK_ATTRIBUTE):
                asked = _releases_asked(wanted, module)
                for release, each in getattr(module, RELEASE_WORK_ATTRIBUTE)().items():
                    if asked is None or release in asked:
                        work[f"{module.__name__}@{release}"] = each
                        release_of[f"{module.__name__}@{release}"] = release
            else:
                work[module.__name__] = getattr(module, WORK_ATTRIBUTE)()
    _session_cluster = SessionCluster(work, keep=any("sim" in item.fixturenames for item in wanted),
                                      release_of=release_of)
    note = _session_cluster.begin()
    if note:
        with on_terminal(config):
            print(f"\n{note}", flush=True)
    if _child is not None:
        _start_child(config, _session_cluster.programs_ready)


def _start_child(config: pytest.Config, after) -> None:
    """Start the second pytest process (after the programs this process builds, if it builds them), and the third
    at once (after this process lowered its priority for a build: the third yields to it too)."""
    assert _child is not None
    _child.start(after)
    if _third is not None:
        _third.start()
    with on_terminal(config):
        print(f"\n{len(_child.nodeids)} simulated-cluster tests run in a second pytest process beside the others, "
              f"on a cluster of their own; its output: {_child.log}", flush=True)
        if _third is not None:
            print(f"{len(_third.nodeids)} tests that need no cluster run in a third pytest process beside them; its "
                  f"output: {_third.log}", flush=True)


_session_cluster_times: list = []


def pytest_sessionfinish(session: pytest.Session) -> None:
    global _session_cluster, _child, _third
    for child in (_third, _child):
        if child is not None:
            child.stop()
            kept = session.testsfailed > 0  # its output stays for the failures' sake
            _session_cluster_times.append(child.summary(kept))
            if not kept:
                child.remove_folder()
    _child = _third = None
    if _session_cluster is not None:
        _session_cluster.stop()
        _session_cluster_times.append("simulated cluster, in the background: " + "; ".join(_session_cluster.times))
        _session_cluster = None


def pytest_terminal_summary(terminalreporter) -> None:
    for line in _session_cluster_times:
        terminalreporter.write_line(line)


def _the_session_cluster(request: pytest.FixtureRequest):
    from tests.simcluster.conftest import skip_reason

    reason = skip_reason()
    if reason:
        pytest.skip(reason)
    assert _session_cluster is not None, "the session's cluster starts at collection (pytest_collection_finish)"
    log = _session_cluster.waiting_for_build()
    if log is not None:
        with on_terminal(request.config):
            print(f"\nwaiting for the simulated cluster's programs to be built; progress in {log}", flush=True)
    return _session_cluster


@pytest.fixture(scope="session")
def sim(request: pytest.FixtureRequest):
    """The session's one simulated cluster (every simulated-cluster test and the oracle runs share it, tests/simcluster/session.py), once the
    oracle's batch runs on it are done; skips when it cannot run here."""
    return _the_session_cluster(request).ready_cluster()


@pytest.fixture(scope="module")
def judged_early(request: pytest.FixtureRequest):
    """The result of this module's batch run on the session's cluster (its ``JUDGED_EARLY`` function,
    tests/simcluster/session.py); ``{release: result}`` for a module that declares batches per release instead
    (``JUDGED_ON_RELEASES``)."""
    return _the_session_cluster(request).module_result(request.module.__name__)
