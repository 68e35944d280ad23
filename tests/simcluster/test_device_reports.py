"""The stand-in for each node's device plugin (tests/simcluster/deviceplugin.py) reports what a real one would: the
devices its active pods do not hold, re-written when that changes, with a newer UpdateTime and the matching
CheckCode; and on v7.0.RC1's cluster, whose scheduler plugin takes a node's free devices from that report only, a
node's NPUs are placed again after the job that held them ended (without the reports they are not)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from tests.simcluster import deviceplugin, nodes
from tests.simcluster.cluster import SimCluster
from tests.simcluster.oracle import judge_manifests
from tests.simcluster.release_shapes import vcjob

RESOURCE = "huawei.com/Ascend910"
#: a minute after the first report (nodes.UPDATE_TIME)
NOW = nodes.UPDATE_TIME + 60


def _pod(node: str, devices: str, phase: str = "Running") -> Dict[str, Any]:
    return {"metadata": {"annotations": {RESOURCE: devices}}, "spec": {"nodeName": node}, "status": {"phase": phase}}


class _Response:
    def __init__(self, data: Dict[str, Any]):
        self.data = json.dumps(data).encode()


class _CoreApi:
    """The two calls the reports make, on a list of pods; records every ConfigMap written."""

    def __init__(self) -> None:
        self.pods: List[Dict[str, Any]] = []
        self.written: Dict[str, Dict[str, Any]] = {}

    def list_pod_for_all_namespaces(self, _preload_content: bool = True) -> _Response:
        return _Response({"items": self.pods})

    def patch_namespaced_config_map(self, name: str, namespace: str, body: Dict[str, Any]) -> None:
        assert namespace == nodes.DEVICE_INFO_NAMESPACE
        self.written[name] = json.loads(body["data"][nodes.DEVICE_INFO_KEY])


@pytest.fixture
def fake_nodes() -> List[nodes.FakeNode]:
    profiles = nodes.load_profiles()
    return (nodes.render_cluster([profiles["module-910b-8"]], 2)
            + nodes.render_cluster([profiles["module-a3-16-super-pod"]], 1))


def _reports(fake_nodes: List[nodes.FakeNode], tmp_path: Path):
    api = _CoreApi()
    return api, deviceplugin.DeviceReports(lambda: api, fake_nodes, tmp_path / "device-plugin.log")


def test_a_report_lists_the_devices_no_active_pod_holds(fake_nodes, tmp_path) -> None:
    api, reports = _reports(fake_nodes, tmp_path)
    node = fake_nodes[0].name
    api.pods = [_pod(node, "Ascend910-0,Ascend910-1"), _pod(node, "Ascend910-5"),
                _pod(node, "Ascend910-2", phase="Succeeded"), _pod(node, "Ascend910-3", phase="Failed"),
                _pod(fake_nodes[1].name, "Ascend910-7")]
    assert reports.report(now=NOW) == [node, fake_nodes[1].name]
    config = api.written[nodes.DEVICE_INFO_PREFIX + node]
    assert config["DeviceInfo"]["DeviceList"] == {
        RESOURCE: "Ascend910-2,Ascend910-3,Ascend910-4,Ascend910-6,Ascend910-7", f"{RESOURCE}-NetworkUnhealthy": ""}
    assert config["DeviceInfo"]["UpdateTime"] == NOW
    assert config["CheckCode"] == nodes.check_code(config["DeviceInfo"])
    assert f"{node}: UpdateTime {NOW}" in (tmp_path / "device-plugin.log").read_text()


def test_a_report_is_written_when_it_changed_each_newer_than_the_last(fake_nodes, tmp_path) -> None:
    api, reports = _reports(fake_nodes, tmp_path)
    node, name = fake_nodes[0].name, nodes.DEVICE_INFO_PREFIX + fake_nodes[0].name
    assert reports.report(now=NOW) == []  # every device free, as first reported: nothing to write
    api.pods = [_pod(node, "Ascend910-0")]
    assert reports.report(now=NOW) == [node]
    api.pods = []
    assert reports.report(now=NOW) == [node]  # the same second: still a newer report
    assert api.written[name]["DeviceInfo"]["UpdateTime"] == (NOW + 1)
    assert api.written[name]["DeviceInfo"]["DeviceList"][RESOURCE] == ",".join(f"Ascend910-{i}" for i in range(8))
    assert reports.report(now=(NOW + 100)) == []
    later = (NOW + 1) + deviceplugin.REWRITE_AFTER
    assert reports.report(now=later) == [f.name for f in fake_nodes]  # unchanged, but an hour old


def test_a_super_pod_server_keeps_its_place_in_the_report(fake_nodes, tmp_path) -> None:
    api, reports = _reports(fake_nodes, tmp_path)
    server = fake_nodes[2]
    api.pods = [_pod(server.name, "Ascend910-15")]
    assert reports.report(now=NOW) == [server.name]
    config = api.written[nodes.DEVICE_INFO_PREFIX + server.name]
    first = json.loads(server.device_info["data"][nodes.DEVICE_INFO_KEY])
    assert (config["SuperPodID"], config["ServerIndex"]) == (first["SuperPodID"], first["ServerIndex"])
    assert config["DeviceInfo"]["DeviceList"][RESOURCE] == ",".join(f"Ascend910-{i}" for i in range(15))


def _one_after_the_other(sim: SimCluster) -> List[str]:
    """Two jobs of a whole node's NPUs, the second submitted after the first ran and was deleted: their outcomes."""
    job = vcjob("whole-node", "module-910b-8", 8, accelerator_type="module-910b-8")
    first = judge_manifests({"first": [job]}, sim=sim, quiet=8.0, round_timeout=60)
    second = judge_manifests({"second": [job]}, sim=sim, quiet=20.0, round_timeout=60)
    return [v.outcome for v in first + second] + [second[0].line()]


@pytest.mark.parametrize("reports", [True, False], ids=["reported", "never-reported-again"])
def test_on_v7_0_rc1_a_node_is_placed_again_after_its_job_ended_once_its_device_plugin_reports(
        reports: bool, monkeypatch) -> None:
    if not reports:  # the cluster before the stand-in: the first report stays the last
        monkeypatch.setattr(deviceplugin.DeviceReports, "report", lambda self, now=None: [])
    with SimCluster(profiles=["module-910b-8"], nodes_per_profile=1, release="v7.0.RC1") as sim:
        outcomes = _one_after_the_other(sim)
    # without a new report the plugin still holds the first job's devices as taken: the one idle node never takes
    # the second job ("1/0 tasks in gang unschedulable")
    assert outcomes[:2] == ["running", "running" if reports else "pending"], outcomes
