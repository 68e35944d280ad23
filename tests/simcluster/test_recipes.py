"""Our fake nodes against upstream's own kwok recipes (tests/st/spec/*.py in the MindCluster archive).

No cluster needed: these read the recipes out of the archive and compare.
"""
from __future__ import annotations

import ast
import json
import tarfile
from typing import Any, Dict

import pytest
import yaml

from tests.simcluster import manifests, nodes, releases, sources

RECIPES = {"910ax8": "module-910b-8", "910csuperpod": "module-a3-16-super-pod"}


@pytest.fixture(scope="module")
def recipes() -> Dict[str, Dict[str, Any]]:
    reason = sources.missing_reason()
    if reason:
        pytest.skip(reason)
    out: Dict[str, Dict[str, Any]] = {}
    with tarfile.open(sources.ARCHIVES["mind-cluster"].path, "r:gz") as tar:
        for recipe in RECIPES:
            handle = tar.extractfile(f"mind-cluster/tests/st/spec/{recipe}.py")
            assert handle is not None
            tree = ast.parse(handle.read().decode())
            values: Dict[str, Any] = {}
            for node in tree.body:
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
                    name = node.targets[0].id
                    if name in ("NODE_TEMPLATE", "DEFAULT_DEVICEINFO_TEMPLATE", "DEFAULT_DEVICEINFO_CHECKCODE",
                                "CARD_NUMBER"):
                        # string constants and '+' of string constants only
                        values[name] = eval(compile(ast.Expression(node.value), recipe, "eval"), {"__builtins__": {}})
            out[recipe] = values
    return out


def _render(profile: nodes.HardwareProfile) -> nodes.FakeNode:
    if profile.super_pod:
        return nodes.render_node(profile, 0, super_pod_id=0, server_index=0)
    return nodes.render_node(profile, 0)


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_check_code_is_the_recipes_own(recipes, recipe):
    values = recipes[recipe]
    device_info = json.loads(values["DEFAULT_DEVICEINFO_TEMPLATE"])
    assert nodes.check_code(device_info) == values["DEFAULT_DEVICEINFO_CHECKCODE"]


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_device_info_matches_the_recipe(recipes, recipe):
    values = recipes[recipe]
    profile = nodes.load_profiles()[RECIPES[recipe]]
    assert profile.npus_per_node == values["CARD_NUMBER"]
    fake = _render(profile)
    config = json.loads(fake.device_info["data"]["DeviceInfoCfg"])
    ours, theirs = config["DeviceInfo"], json.loads(values["DEFAULT_DEVICEINFO_TEMPLATE"])
    assert ours["DeviceList"] == theirs["DeviceList"]
    assert config["CheckCode"] == nodes.check_code(ours)
    if profile.super_pod:
        assert (config["SuperPodID"], config["ServerIndex"]) == (0, 0)
    assert fake.device_info["metadata"]["namespace"] == "kube-system"
    assert fake.device_info["metadata"]["labels"] == {"mx-consumer-cim": "true"}


@pytest.mark.parametrize("recipe", sorted(RECIPES))
def test_node_has_the_recipes_annotations_and_resources(recipes, recipe):
    template = recipes[recipe]["NODE_TEMPLATE"].replace("'{{base_device_infos}}'", "'{}'").replace(
        "{{node_name}}", "n")
    theirs = yaml.safe_load(template)
    profile = nodes.load_profiles()[RECIPES[recipe]]
    fake = _render(profile)
    ours = fake.node
    assert set(theirs["metadata"]["annotations"]) <= set(ours["metadata"]["annotations"])
    for key in ("huawei.com/Ascend910", "huawei.com/Ascend910-Fault", "huawei.com/Ascend910-NetworkUnhealthy"):
        assert ours["metadata"]["annotations"][key] == str(theirs["metadata"]["annotations"][key])
    assert ours["status"]["allocatable"]["huawei.com/Ascend910"] == str(theirs["status"]["allocatable"]["huawei.com/Ascend910"])
    assert set(theirs["metadata"]["labels"]) - {"accelerator-type"} <= set(ours["metadata"]["labels"])
    base = json.loads(ours["metadata"]["annotations"]["baseDeviceInfos"])
    assert len(base) == profile.npus_per_node
    if profile.super_pod:
        assert all("SuperDeviceID" in v for v in base.values())


def test_every_profile_node_follows_its_profile():
    for profile in nodes.load_profiles().values():
        if not profile.simulated:
            continue
        node = nodes.render_node(profile, 1).node
        labels = node["metadata"]["labels"]
        assert labels["host-arch"] == profile.host_arch, profile.name
        assert labels.get("accelerator-type") == profile.accelerator_type, profile.name
        assert node["status"]["allocatable"][profile.resource] == str(profile.npus_per_node)
        assert node["metadata"]["annotations"][nodes.KWOK_NODE_ANNOTATION] == "fake"


@pytest.mark.parametrize("release", list(releases.RELEASES))
def test_scheduler_configuration_names_the_registered_plugin(release):
    """The tier entry is the name the build registers the plugin under (``-X PluginName``): were they to differ,
    Volcano would never call the plugin's predicates, node order or job checks (BUILDING-RELEASES.md)."""
    reason = sources.missing_reason()
    if reason:
        pytest.skip(reason)
    conf = manifests.scheduler_conf(release)
    names = [p["name"] for tier in conf["tiers"] for p in tier["plugins"]]
    assert [n for n in names if n.startswith("volcano-npu")] == [releases.get(release).plugin_name]
    init = next(c for c in conf["configurations"] if c["name"] == "init-params")["arguments"]
    assert init["useClusterInfoManager"] == "false"

