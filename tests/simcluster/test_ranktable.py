"""The ranktable path: what ascend-operator writes into ``rings-config-<job>`` once the plugin placed every
pod (Volcano Job, and AscendJob in file mode), and the env it injects into an AscendJob in env mode."""
from __future__ import annotations

import json
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for


def _apply_spec(sim, spec_path) -> Dict[str, Any]:
    spec = yaml.safe_load(spec_path.read_text())
    jobs.create_namespace(sim, spec["metadata"]["namespace"])
    out = run_cli("apply", str(spec_path), "--kubeconfig", str(sim.kubeconfig))
    assert out.returncode == 0, out.stderr
    return spec


def _completed_ranktable(sim, namespace: str, name: str) -> Dict[str, Any]:
    def read():
        cm = jobs.get_json(sim, "configmap", f"rings-config-{name}", "-n", namespace)
        table = json.loads(cm["data"]["hccl.json"])
        return table if table.get("status") == "completed" else None

    return wait_for(read, timeout=120, what=f"rings-config-{name} to be completed by ascend-operator", sim=sim,
                    last=lambda: json.dumps(jobs.get_json(sim, "configmap", f"rings-config-{name}", "-n",
                                                          namespace)["data"]))


def _device_ips(sim, node: str) -> set:
    annotations = jobs.get_json(sim, "node", node)["metadata"]["annotations"]
    return {info["IP"] for info in json.loads(annotations["baseDeviceInfos"]).values()}


def _check_table(sim, table: Dict[str, Any], pods: List[Dict[str, Any]], per_pod: int) -> None:
    servers = table["server_list"]
    assert int(table["server_count"]) == len(pods) == len(servers)
    nodes_ips = set()
    for pod in pods:
        nodes_ips |= _device_ips(sim, pod["spec"]["nodeName"])
    ranks = []
    for server in servers:
        assert len(server["device"]) == per_pod, server
        for device in server["device"]:
            assert device["device_ip"] in nodes_ips, device
            ranks.append(int(device["rank_id"]))
    assert sorted(ranks) == list(range(len(pods) * per_pod))


def _running(sim, namespace, kind, name, count):
    def check():
        pods = jobs.pods_of(sim, namespace, kind, name)
        return pods if len(pods) == count and set(jobs.phases(pods)) == {"Running"} else None

    return wait_for(check, timeout=120, what=f"{count} running pods of {name}", sim=sim,
                    last=lambda: jobs.describe_namespace(sim, namespace))


def test_volcano_job_ranktable_written_by_the_operator(sim):
    spec_path = ROOT / "examples" / "matrix" / "pytorch-module-910b-8-vcjob.yaml"
    spec = _apply_spec(sim, spec_path)
    namespace, name = spec["metadata"]["namespace"], spec["metadata"]["name"]
    try:
        pods = _running(sim, namespace, "Job", name, 2)
        table = _completed_ranktable(sim, namespace, name)
        assert table["version"] == "1.0"
        _check_table(sim, table, pods, 8)
    finally:
        run_cli("delete", str(spec_path), "--kubeconfig", str(sim.kubeconfig), "--ignore-not-found")
        jobs.clean_namespace(sim, namespace)


def test_ascendjob_file_mode_ranktable_written_by_the_operator(sim):
    spec_path = ROOT / "examples" / "pytorch-hostnetwork-ranktable.yaml"
    spec = _apply_spec(sim, spec_path)
    namespace, name = spec["metadata"]["namespace"], spec["metadata"]["name"]
    try:
        pods = _running(sim, namespace, "AscendJob", name, 4)
        table = _completed_ranktable(sim, namespace, name)
        _check_table(sim, table, pods, 8)
    finally:
        run_cli("delete", str(spec_path), "--kubeconfig", str(sim.kubeconfig), "--ignore-not-found")
        jobs.clean_namespace(sim, namespace)


def test_ascendjob_env_mode_gets_the_framework_env(sim):
    spec_path = ROOT / "examples" / "matrix" / "pytorch-card-910b-2-acjob.yaml"
    spec = _apply_spec(sim, spec_path)
    namespace, name = spec["metadata"]["namespace"], spec["metadata"]["name"]
    try:
        pods = _running(sim, namespace, "AscendJob", name, 2)
        ranks = set()
        for pod in pods:
            container = next(c for c in pod["spec"]["containers"] if c["name"] == "ascend")
            env = {e["name"]: e for e in container.get("env", [])}
            for key in ("MASTER_ADDR", "MASTER_PORT", "RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE"):
                assert key in env, f"{key} not injected into {pod['metadata']['name']}: {sorted(env)}"
            # PyTorch: one process per NPU; RANK is the pod's (node's) rank
            assert env["WORLD_SIZE"].get("value") == "4", env["WORLD_SIZE"]
            assert env["LOCAL_WORLD_SIZE"].get("value") == "2", env["LOCAL_WORLD_SIZE"]
            ranks.add(env["RANK"].get("value"))
        assert ranks == {"0", "1"}, ranks
    finally:
        run_cli("delete", str(spec_path), "--kubeconfig", str(sim.kubeconfig), "--ignore-not-found")
        jobs.clean_namespace(sim, namespace)
