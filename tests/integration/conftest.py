"""Integration tests against a real kube-apiserver + etcd (see controlplane.py).

Every test collected under tests/integration gets the ``integration`` marker, so
``pytest -m "not integration"`` leaves them out.

The ``control_plane`` fixture skips (one line) when Go or kubectl is missing,
when ../shared (the upstream CRDs) is absent, or when
ASCEND_COMPILE_SKIP_INTEGRATION=1.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
SHARED = REPO_ROOT.parent / "shared"
CRD_DIR = SHARED / "upstream" / "crds"

# Volcano v1.15.0 CRDs rather than v1.9.0: the v1.15.0 schemas carry more
# validation (e.g. Queue spec.weight minimum 1 / maximum 65535 with default 1,
# more enums and minimums), so a manifest the test apiserver accepts is
# accepted by the newer schema too. Switch VOLCANO_VERSION to test the old one.
VOLCANO_VERSION = "v1.15.0"
CRD_FILES = (
    "CustomResourceDefinition-ascendjobs.mindxdl.gitee.com.yaml",
    f"volcano-{VOLCANO_VERSION}/batch.volcano.sh_jobs.yaml",
    f"volcano-{VOLCANO_VERSION}/scheduling.volcano.sh_podgroups.yaml",
    f"volcano-{VOLCANO_VERSION}/scheduling.volcano.sh_queues.yaml",
)


def _load_controlplane():
    """Import controlplane.py by path: works whatever pytest's import mode is
    and whether or not tests/ is a package."""
    name = "ascend_compile_integration_controlplane"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, HERE / "controlplane.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


controlplane = _load_controlplane()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "integration: needs a real kube-apiserver built from Go (tests/integration)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.integration)


def integration_skip_reason() -> str | None:
    if os.environ.get("ASCEND_COMPILE_SKIP_INTEGRATION") == "1":
        return "integration tests disabled by ASCEND_COMPILE_SKIP_INTEGRATION=1"
    reason = controlplane.go_unavailable_reason()
    if reason:
        return reason
    reason = controlplane.kubectl_unavailable_reason()
    if reason:
        return reason
    if not CRD_DIR.is_dir():
        return f"{CRD_DIR} is absent (../shared not laid beside the repo): no upstream CRDs to install"
    return None


@pytest.fixture(scope="session")
def controlplane_lib(request):
    """The controlplane module (ControlPlane, build_binary, ...), for tests that
    start their own control plane; skips like ``control_plane``."""
    reason = integration_skip_reason()
    if reason:
        pytest.skip(reason)
    build_where_seen(request.config)
    return controlplane


@pytest.fixture(scope="session")
def crd_paths() -> list[Path]:
    return [CRD_DIR / name for name in CRD_FILES]


@pytest.fixture(scope="session")
def control_plane(crd_paths, request):
    """A started ControlPlane with the AscendJob and Volcano CRDs Established
    and the Volcano ``default`` Queue created."""
    reason = integration_skip_reason()
    if reason:
        pytest.skip(reason)
    missing = [str(p) for p in crd_paths if not p.is_file()]
    if missing:
        pytest.fail(f"CRD files missing from ../shared: {', '.join(missing)}")
    build_where_seen(request.config)
    with controlplane.ControlPlane(crds=crd_paths, create_default_queue=True) as cp:
        yield cp


def build_where_seen(config: pytest.Config) -> None:
    """Build the control plane (minutes, once) with its progress on the terminal, not in captured output:
    a newcomer staring at a silent terminal assumes it hung."""
    if controlplane.binary_path().is_file():
        return
    capture = config.pluginmanager.getplugin("capturemanager")
    with capture.global_and_fixture_disabled():
        print("\nbuilding the test control plane (kube-apiserver + etcd) from Go modules: "
              "a few minutes the first time, cached after that", flush=True)
        controlplane.build_binary(verbose=True)
