"""The schedule policies lint knows are the plugin's own: the keys of its handler factory's policy map.

Read from the pinned MindCluster source archive (``../shared/upstream/src``), so a new upstream policy, or one
we invented, fails here rather than in a user's CI.
"""
from __future__ import annotations

import glob
import os
import re
import tarfile

import pytest

from .conftest import SHARED

ARCHIVES = sorted(glob.glob(os.path.join(SHARED, "upstream", "src", "mind-cluster-*.tar.gz")))
FACTORY = "component/ascend-for-volcano/internal/npu/factory.go"
CONSTANTS = "component/ascend-for-volcano/common/util/constants.go"


def _read(archive: str, suffix: str) -> str:
    with tarfile.open(archive) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith(suffix))
        return tar.extractfile(member).read().decode("utf-8")


def _plugin_policies():
    if not ARCHIVES:
        pytest.skip("the MindCluster source archive is not available (the shared research folder is not checked out)")
    factory, constants = _read(ARCHIVES[-1], FACTORY), _read(ARCHIVES[-1], CONSTANTS)
    body = re.search(r"var policy910HandlerMap = map\[string\]string\{(.*?)\n\}", factory, re.S).group(1)
    names = re.findall(r"^\s*util\.(\w+)\s*:", body, re.M)
    values = dict(re.findall(r'^\s*(\w+)\s*=\s*"([^"]*)"', constants, re.M))
    return {values[name] for name in names}


RELEASE_ARCHIVES = os.path.join(SHARED, "upstream", "src", "releases")


def _policies_of(archive: str):
    """The keys of the factory's policy map in one source archive; None when the tree has no such map."""
    try:
        factory, constants = _read(archive, FACTORY), _read(archive, CONSTANTS)
    except StopIteration:
        return None
    found = re.search(r"var policy910HandlerMap = map\[string\]string\{(.*?)\n\}", factory, re.S)
    if not found:
        return None
    values = dict(re.findall(r'^\s*(\w+)\s*=\s*"([^"]*)"', constants, re.M))
    return {values[name] for name in re.findall(r"^\s*util\.(\w+)\s*:", found.group(1), re.M)}


def test_the_policy_table_is_the_plugins():
    from ascend_compile import releases

    policies = _plugin_policies()
    assert len(policies) == 17  # at the pinned commit, incl. multilevel, chip1-softShareDev, chip2-node8
    assert set(releases.value("schedule-policies", releases.DEFAULT_RELEASE)) == policies


@pytest.mark.parametrize("release", ["v6.0.0", "v7.0.RC1", "v7.3.2", "v26.0.1", "v26.1.0"])
def test_each_releases_policy_table_is_its_plugins(release):
    """schedule-policies per release: read from that release's own source archive (no map: the annotation is not
    read at all, and the tree has no literal of it)."""
    from ascend_compile import releases

    archive = os.path.join(RELEASE_ARCHIVES, f"mind-cluster-{release}.tar.gz")
    if not os.path.exists(archive):
        pytest.skip(f"{archive} is not available (the shared research folder is not checked out)")
    found = _policies_of(archive)
    assert set(releases.value("schedule-policies", release)) == (found or set())
    if not found:
        with tarfile.open(archive) as tar:
            texts = (tar.extractfile(m).read() for m in tar.getmembers()
                     if "ascend-for-volcano" in m.name and m.name.endswith(".go") and m.isfile())
            assert not any(b'"huawei.com/schedule_policy"' in text for text in texts)


def test_every_profile_policy_is_one_the_plugin_knows():
    from ascend_compile import releases
    from ascend_compile.hardware.profiles import ProfileRegistry

    known = releases.value("schedule-policies", releases.DEFAULT_RELEASE)
    for profile in ProfileRegistry().all():
        assert profile.schedule_policy is None or profile.schedule_policy in known, profile.name


@pytest.mark.parametrize("policy", ["chip2-node8", "chip1-node16", "module-a3-16", "multilevel"])
def test_a_policy_of_the_plugin_is_not_reported_unknown(policy):
    from .conftest import lint_text

    job = f"""\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: p
  annotations: {{huawei.com/schedule_policy: {policy}}}
spec:
  minAvailable: 1
  schedulerName: volcano
  tasks:
  - name: worker
    replicas: 1
    template:
      spec:
        containers:
        - name: train
          image: torch:2.1
          resources:
            requests: {{huawei.com/npu: 8}}
            limits: {{huawei.com/npu: 8}}
"""
    assert [f for f in lint_text(job, "p.yaml") if f.rule == "AC307"] == []
