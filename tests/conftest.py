"""Shared test plumbing: repo paths, the ../shared facts folder, --update-golden, and the kustomize the KRM
tests run."""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Iterator

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


def pytest_configure(config: pytest.Config) -> None:
    # The lint result cache of every command the tests run goes to a folder of this session (the
    # user's own cache stays untouched); the cache is exact, so it changes no test's outcome.
    if "ASCEND_COMPILE_CACHE_DIR" not in os.environ:
        import atexit
        import shutil
        import tempfile

        folder = tempfile.mkdtemp(prefix="ascend-compile-test-cache-")
        atexit.register(shutil.rmtree, folder, True)
        os.environ["ASCEND_COMPILE_CACHE_DIR"] = folder


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

    reason = controlplane.go_unavailable_reason()
    if reason:
        pytest.skip(f"kustomize is built from sigs.k8s.io/kustomize/kustomize/v5@{build.KUSTOMIZE_VERSION} and "
                    f"{reason} (or set KUSTOMIZE to a kustomize v5 binary)")
    cached = build.component_dir(build.COMPONENTS["kustomize"], build.go_version()) / "kustomize"
    if cached.is_file():
        return str(cached)
    with on_terminal(request.config):
        print("\nbuilding kustomize for the KRM tests from its Go module: a minute the first time, cached "
              "after that", flush=True)
        binaries = build.build_all(only=("kustomize",))
    return str(binaries["kustomize"])


#: the fixtures that start a simulated cluster (tests/simcluster, tests/fidelity)
_CLUSTER_FIXTURES = {"sim", "fidelity_sim"}
_cluster_programs_tried = False


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before the first test that starts a simulated cluster, build its programs (many minutes, once, when
    the cache lacks them) with the progress on the terminal; the cluster fixtures then find them cached.
    Without this the build ran inside a fixture, its progress captured: a silent terminal for 15 minutes."""
    global _cluster_programs_tried
    if _cluster_programs_tried or not _CLUSTER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return
    _cluster_programs_tried = True
    from tests.integration import controlplane
    from tests.simcluster import build
    from tests.simcluster.conftest import skip_reason

    if skip_reason() or (build.cached_binaries() is not None and controlplane.binary_path().is_file()):
        return  # the fixture skips, or everything is built
    with on_terminal(item.config):
        print("\nbuilding the simulated cluster's programs (kube-apiserver, Volcano with the Ascend plugin, "
              "ascend-operator, kwok) from their pinned sources and Go modules: many minutes the first time, "
              "cached after that", flush=True)
        try:
            controlplane.build_binary(verbose=True)
            build.build_all()
        except Exception as exc:  # the fixture builds again and reports the error as the tests' error
            print(f"build failed: {exc}", flush=True)

