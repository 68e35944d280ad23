"""The device stack is part of the target (issue 45): ``--device-stack``, the config's ``cluster.deviceStack`` and a
snapshot whose nodes offer HAMi's resources choose it, ``--show-config`` says which and why, and a bad one is refused
with its place."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest
import yaml

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

ROOT = Path(__file__).resolve().parents[2]
HAMI_SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "hami.yaml"
SMALL_SNAPSHOT = ROOT / "tests" / "lint" / "clusters" / "small.yaml"
#: a pod HAMi's device plugin serves (a 910B4 whole card by its chip-model name)
POD = ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n  schedulerName: volcano\n"
       "  minAvailable: 1\n  queue: default\n  tasks:\n  - name: serve\n    replicas: 1\n    template:\n      spec:\n"
       "        restartPolicy: Never\n        containers:\n        - name: infer\n          image: serve:1.0\n"
       "          resources:\n            requests: {huawei.com/Ascend910B4: 8}\n"
       "            limits: {huawei.com/Ascend910B4: 8}\n")


def _repo(tmp_path: Path, config: str = "") -> Path:
    (tmp_path / ".git").mkdir()
    if config:
        (tmp_path / ".ascend-compile.yaml").write_text(config)
    (tmp_path / "job.yaml").write_text(POD)
    return tmp_path


def _target_line(*args: str, cwd: Path) -> str:
    proc = cli("lint", "--show-config", *args, cwd=str(cwd))
    assert proc.returncode == 0, proc.stderr
    return next(line for line in proc.stdout.splitlines() if line.startswith("target: "))


def test_without_anything_the_stack_is_mindclusters_by_default(tmp_path: Path) -> None:
    line = _target_line(cwd=_repo(tmp_path))
    assert line.endswith("device stack: MindCluster's device plugin: the default (nothing named a device stack)")


def test_the_flag_beats_the_config_and_both_say_so(tmp_path: Path) -> None:
    repo = _repo(tmp_path, "cluster:\n  deviceStack: hami\n")
    assert "device stack: HAMi (its scheduler and its Ascend device plugin): cluster.deviceStack in" in \
        _target_line(cwd=repo)
    flag = _target_line("--device-stack", "volcano-vnpu:mindcluster", cwd=repo)
    assert "MindCluster vNPU mode, judged for Volcano v1.15.1: --device-stack volcano-vnpu:mindcluster" in flag


def test_a_snapshot_whose_nodes_offer_hamis_resources_selects_hami(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    line = _target_line("--cluster-snapshot", str(HAMI_SNAPSHOT), cwd=repo)
    assert "device stack: HAMi" in line and "offer huawei.com/Ascend910B4" in line and "hami.yaml" in line
    assert "device stack: MindCluster's" in _target_line("--cluster-snapshot", str(SMALL_SNAPSHOT), cwd=repo)
    assert "--device-stack mindcluster" in _target_line("--cluster-snapshot", str(HAMI_SNAPSHOT), "--device-stack",
                                                        "mindcluster", cwd=repo)


def test_the_stack_decides_whether_hamis_resource_is_an_error(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    default = cli("lint", "job.yaml", cwd=str(repo))
    assert default.returncode == 0 and "warning:" in default.stdout and "[AC316]" in default.stdout  # no CI gate shut
    assert "error:" not in default.stdout and "written for HAMi's Ascend device plugin" in default.stdout
    named = cli("lint", "--device-stack", "mindcluster", "job.yaml", cwd=str(repo))
    assert named.returncode == 1 and "error:" in named.stdout and "[AC316]" in named.stdout
    hami = cli("lint", "--device-stack", "hami", "job.yaml", cwd=str(repo))
    assert hami.returncode == 0, hami.stdout


def test_the_inventory_beats_the_default(tmp_path: Path) -> None:
    """A node of the snapshot offers huawei.com/Ascend910B4 (allocatable 8): no finding says no node offers it,
    whatever stack is named."""
    repo = _repo(tmp_path)
    for stack in ((), ("--device-stack", "mindcluster")):
        proc = cli("lint", "--cluster-snapshot", str(HAMI_SNAPSHOT), *stack, "job.yaml", cwd=str(repo))
        assert proc.returncode == 0, proc.stdout


@pytest.mark.parametrize("config,where", [("cluster:\n  deviceStack: volcano\n", ":2:16"),
                                          ("cluster:\n  deviceStack: [hami]\n", ":2:16")])
def test_an_unknown_stack_is_refused_with_its_place(tmp_path: Path, config: str, where: str) -> None:
    repo = _repo(tmp_path, config)
    proc = cli("lint", "job.yaml", cwd=str(repo))
    assert proc.returncode == 2, proc.stderr
    assert f".ascend-compile.yaml{where}" in proc.stderr and "is not a device stack" in proc.stderr
    assert "volcano-vnpu:hami" in proc.stderr


def test_an_unknown_stack_flag_is_a_usage_error(tmp_path: Path) -> None:
    proc = cli("lint", "--device-stack", "volcano", "job.yaml", cwd=str(_repo(tmp_path)))
    assert proc.returncode == 2 and "--device-stack: 'volcano' is not a device stack" in proc.stderr


def test_the_config_shows_the_stack(tmp_path: Path) -> None:
    proc = cli("lint", "--show-config", cwd=str(_repo(tmp_path, "cluster:\n  deviceStack: Volcano-vnpu/HAMI\n")))
    settings = yaml.safe_load(next(line for line in proc.stdout.splitlines()
                                   if line.startswith("settings: "))[len("settings: "):])
    assert settings["cluster"]["deviceStack"] == "volcano-vnpu:hami"


def test_a_snapshot_whose_scheduler_turns_on_one_deviceshare_mode_selects_it(tmp_path: Path) -> None:
    """The snapshot's deviceShare (the Ascend mode Volcano's deviceshare plugin runs in) beats the guess from the
    nodes' resources; a flag beats both."""
    repo = _repo(tmp_path)
    snapshot = tmp_path / "vnpu.yaml"
    snapshot.write_text(HAMI_SNAPSHOT.read_text(encoding="utf-8").replace("spec:\n", "spec:\n  deviceShare: [hami]\n", 1))
    line = _target_line("--cluster-snapshot", str(snapshot), cwd=repo)
    assert "device stack: Volcano's native Ascend device sharing in HAMi mode" in line
    assert "deviceshare's hami mode" in line and "vnpu.yaml" in line
    assert "--device-stack hami" in _target_line("--cluster-snapshot", str(snapshot), "--device-stack", "hami",
                                                 cwd=repo)


def _items(objs: Any) -> str:
    import json

    return json.dumps({"apiVersion": "v1", "kind": "List", "items": objs})


def _scheduler_conf() -> Dict[str, Any]:
    conf = {"tiers": [{"plugins": [{"name": "deviceshare", "arguments": {"deviceshare.AscendHAMiVNPUEnable": True}}]}]}
    return {"metadata": {"name": "volcano-scheduler-configmap", "namespace": "volcano-system"},
            "data": {"volcano-scheduler.conf": yaml.safe_dump(conf)}}


def test_cluster_snapshot_reads_the_soft_slicing_and_the_deviceshare_modes(fake: Fake, tmp_path: Path) -> None:
    """Read live (a fake kubectl): a node's hami-vnpu-core annotation and the deviceshare plugin's arguments reach the
    snapshot, which reads back through its schema and judges for Volcano's HAMi mode; no other annotation is kept."""
    items = _items
    node = {"metadata": {"name": "b3-0", "annotations": {"hami-vnpu-core": "false", "hami.io/node-register-x": "[]"}},
            "status": {"allocatable": {"huawei.com/Ascend910B3": "8"}, "conditions": [{"type": "Ready", "status": "True"}]}}
    fake.rules(
        {"match": ["config", "view", "--minify"], "stdout": "default"},
        {"match": ["get", "nodes"], "stdout": items([node])},
        {"match": ["get", "configmaps"], "stdout": items([_scheduler_conf()])},
        {"match": ["get"], "stdout": items([])},
    )
    out = tmp_path / "cluster.yaml"
    proc = cli("cluster", "snapshot", "-o", str(out), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    spec = yaml.safe_load(out.read_text(encoding="utf-8"))["spec"]
    assert spec["deviceShare"] == ["hami"] and spec["nodes"][0]["hamiVnpuCore"] is False
    assert "annotations" not in spec["nodes"][0] and "node-register" not in out.read_text(encoding="utf-8")
    (tmp_path / "repo").mkdir()
    line = _target_line("--cluster-snapshot", str(out), cwd=_repo(tmp_path / "repo"))
    assert "in HAMi mode" in line


def test_in_one_namespace_the_schedulers_configuration_is_read_by_name(fake: Fake) -> None:
    """With -n, the ConfigMap the Volcano scheduler's Deployment mounts is read with a get by its name (RBAC: get on
    that one ConfigMap), not by listing its namespace."""
    scheduler = {"metadata": {"name": "volcano-scheduler", "namespace": "volcano-system"},
                 "spec": {"template": {"spec": {
                     "containers": [{"name": "volcano-scheduler", "image": "volcanosh/vc-scheduler:v1.15.1"}],
                     "volumes": [{"name": "conf", "configMap": {"name": "volcano-scheduler-configmap"}},
                                 {"name": "logs", "emptyDir": {}}]}}}}
    fake.rules(
        {"match": ["get", "configmaps", "volcano-scheduler-configmap"], "stdout": json.dumps(_scheduler_conf())},
        {"match": ["get", "deployments.apps"], "stdout": _items([scheduler])},
        {"match": ["get", "configmaps", "--namespace=volcano-system"], "rc": 1,
         "stderr": "Error from server (Forbidden): configmaps is forbidden\n"},
        {"match": ["get"], "stdout": _items([])},
    )
    proc = cli("cluster", "snapshot", "-n", "training", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert yaml.safe_load(proc.stdout)["spec"]["deviceShare"] == ["hami"]
    reads = [c["argv"] for c in fake.calls() if "configmaps" in c["argv"] and "--namespace=volcano-system" in c["argv"]]
    assert reads and all("volcano-scheduler-configmap" in argv for argv in reads)
