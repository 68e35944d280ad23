"""``ascend-compile cluster snapshot`` (issue 35) against a fake kubectl serving a cluster that has Secrets, env
values and ConfigMap data: the snapshot holds what the cluster-aware lint needs and none of those; it is
deterministic, written through the safe writer, checked against its schema when read back; an unreachable
cluster exits 4."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import yaml

from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

RECORDING = json.loads((Path(__file__).resolve().parents[1] / "unit/data/cluster/ascendjob-min-available.json"
                        ).read_text())
SECRET_VALUE = "c2VjcmV0LXRva2VuLXZhbHVl"  # what a Secret's data, an env value or ConfigMap data would leak
ENV_VALUE = "hunter2-env-value"
CM_VALUE = "configmap-data-value"


def _items(items: List[Dict[str, Any]]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items})


def _deployment(name: str, namespace: str, image: str) -> Dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "namespace": namespace},
            "spec": {"template": {"spec": {"containers": [
                {"name": name, "image": image, "env": [{"name": "TOKEN", "value": ENV_VALUE}],
                 "args": [f"--password={ENV_VALUE}"]}]}}}}


def _pod_with_env() -> Dict[str, Any]:
    pod = json.loads(json.dumps(RECORDING["pods"][0]))
    pod["spec"]["containers"][0]["env"] = [{"name": "PASSWORD", "value": ENV_VALUE}]
    return pod


def _serve(fake: Fake) -> None:
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "db", "namespace": "training"},
              "data": {"token": SECRET_VALUE}}
    fake.rules(
        {"match": ["get", "secrets"], "stdout": _items([secret])},
        {"match": ["get", "nodes"], "stdout": _items(RECORDING["nodes"])},
        {"match": ["get", "pods"], "stdout": _items([_pod_with_env()])},
        {"match": ["get", "queues.scheduling.volcano.sh"], "stdout": _items([
            {"metadata": {"name": "default"}, "spec": {"weight": 1}, "status": {"state": "Open"}},
            {"metadata": {"name": "closed-q"}, "spec": {"capability": {"huawei.com/Ascend910": "16"}},
             "status": {"state": "Closed"}}])},
        {"match": ["get", "namespaces"], "stdout": _items([{"metadata": {"name": n}}
                                                         for n in ("default", "kube-system", "training")])},
        {"match": ["get", "persistentvolumeclaims"], "stdout": _items([
            {"metadata": {"name": "data", "namespace": "training"}, "spec": {"volumeName": "pv-1"}}])},
        {"match": ["get", "configmaps"], "stdout": _items([
            {"metadata": {"name": "settings", "namespace": "training"}, "data": {"password": CM_VALUE}},
            {"metadata": {"name": "volcano-scheduler-configmap", "namespace": "volcano-system"},
             "data": {"volcano-scheduler.conf": "tiers:\n- plugins:\n  - name: volcano-npu_v26.1.0\n"}}])},
        {"match": ["get", "deployments.apps"], "stdout": _items([
            _deployment("volcano-scheduler", "volcano-system", "swr.example/volcanosh/vc-scheduler:v1.9.0"),
            _deployment("ascend-operator-manager", "mindx-dl", "ascend-operator:v7.1.RC1")])},
    )


def test_snapshot_holds_what_lint_needs_and_no_secret_env_or_data(fake: Fake, tmp_path: Path) -> None:
    _serve(fake)
    out = tmp_path / "cluster.yaml"
    proc = cli("cluster", "snapshot", "-o", str(out), "--context", "lab", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    for leak in (SECRET_VALUE, ENV_VALUE, CM_VALUE, "PASSWORD", "TOKEN", "pv-1", "baseDeviceInfos"):
        assert leak not in text, leak
    assert not any("secrets" in call["argv"] for call in fake.calls())  # Secrets are never even read
    doc = yaml.safe_load(text)
    assert doc["apiVersion"] == "ascend-compile.io/v1alpha1" and doc["kind"] == "ClusterSnapshot"
    assert doc["metadata"] == {"name": "lab"}
    spec = doc["spec"]
    assert spec["versions"] == {"ascend-operator": "v7.1.RC1", "ascend-plugin": "v26.1.0", "volcano": "v1.9.0"}
    assert [q["name"] for q in spec["queues"]] == ["closed-q", "default"]
    assert spec["queues"][0] == {"name": "closed-q", "state": "Closed", "capability": {"huawei.com/Ascend910": "16"}}
    namespaces = {ns["name"]: ns for ns in spec["namespaces"]}
    assert namespaces["training"] == {"name": "training", "persistentVolumeClaims": ["data"], "configMaps": ["settings"]}
    assert namespaces["default"] == {"name": "default", "persistentVolumeClaims": [], "configMaps": []}
    node = spec["nodes"][0]
    assert set(node) <= {"name", "ready", "unschedulable", "labels", "annotations", "taints", "npus"}
    assert all(key.startswith("huawei.com/") for key in node.get("annotations", {}))
    assert any("npus" in n for n in spec["nodes"])


def test_snapshot_is_deterministic_and_goes_to_stdout(fake: Fake) -> None:
    _serve(fake)
    first = cli("cluster", "snapshot", env=fake.env())
    second = cli("cluster", "snapshot", env=fake.env())
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout and first.stdout.startswith("apiVersion: ascend-compile.io/v1alpha1\n")


def test_snapshot_in_one_namespace_reads_only_it_and_kube_system(fake: Fake) -> None:
    _serve(fake)
    proc = cli("cluster", "snapshot", "-n", "training", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert [ns["name"] for ns in yaml.safe_load(proc.stdout)["spec"]["namespaces"]] == ["kube-system", "training"]
    claims = [c["argv"] for c in fake.calls() if "persistentvolumeclaims" in c["argv"]]
    assert claims and all("--all-namespaces" not in argv for argv in claims)


def test_snapshot_of_an_unreachable_cluster_exits_4_and_writes_nothing(fake: Fake, tmp_path: Path) -> None:
    fake.rules({"match": ["get"], "rc": 1, "stderr": "The connection to the server 127.0.0.1:1 was refused - "
                                                      "did you specify the right host or port?\n"})
    out = tmp_path / "cluster.yaml"
    proc = cli("cluster", "snapshot", "-o", str(out), env=fake.env())
    assert proc.returncode == 4, proc.stderr
    assert "was refused" in proc.stderr and not out.exists()


def test_snapshot_refuses_to_write_through_a_link(fake: Fake, tmp_path: Path) -> None:
    _serve(fake)
    target = tmp_path / "elsewhere.yaml"
    target.write_text("keep\n", encoding="utf-8")
    link = tmp_path / "cluster.yaml"
    link.symlink_to(target)
    proc = cli("cluster", "snapshot", "-o", str(link), env=fake.env())
    assert proc.returncode == 2 and "link" in proc.stderr
    assert target.read_text(encoding="utf-8") == "keep\n"


def test_a_forbidden_part_is_left_out_with_a_note_and_not_taken_for_empty(fake: Fake, tmp_path: Path) -> None:
    _serve(fake)
    rules = json.loads(fake.env()["FAKE_KUBECTL_RULES"])
    forbidden = {"match": ["get", "configmaps"], "rc": 1,
                 "stderr": 'Error from server (Forbidden): configmaps is forbidden: User "ci" cannot list resource '
                           '"configmaps" in API group "" at the cluster scope\n'}
    fake.rules(forbidden, *rules)
    out = tmp_path / "cluster.yaml"
    proc = cli("cluster", "snapshot", "-o", str(out), env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert "note: could not read ConfigMaps" in proc.stderr and "forbidden" in proc.stderr
    namespaces = yaml.safe_load(out.read_text(encoding="utf-8"))["spec"]["namespaces"]
    assert all("configMaps" not in ns for ns in namespaces)  # not read: unknown, never "none"
    assert {"name": "training", "persistentVolumeClaims": ["data"]} in namespaces
    case = Path(__file__).resolve().parents[1] / "lint" / "cases" / "AC909-cluster-config-map-missing.yaml"
    job = tmp_path / "job.yaml"
    job.write_text(case.read_text(encoding="utf-8").replace("namespace: team", "namespace: training"), encoding="utf-8")
    linted = cli("lint", "--no-cache", str(job), "--cluster-snapshot", str(out))
    assert "AC909" not in linted.stdout  # the rule says nothing about what the snapshot does not know
    claims = job.read_text(encoding="utf-8").replace("configMap: {name: train-config}",
                                                     "persistentVolumeClaim: {claimName: gone}")
    job.write_text(claims, encoding="utf-8")
    assert "AC908" in cli("lint", "--no-cache", str(job), "--cluster-snapshot", str(out)).stdout  # claims were read


def test_snapshot_records_where_a_job_without_a_namespace_lands(fake: Fake) -> None:
    _serve(fake)
    rules = json.loads(fake.env()["FAKE_KUBECTL_RULES"])
    fake.rules({"match": ["config", "view", "--minify"], "stdout": "training"}, *rules)
    proc = cli("cluster", "snapshot", "--context", "lab", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert yaml.safe_load(proc.stdout)["spec"]["defaultNamespace"] == "training"  # the context's namespace
    asked = [c["argv"] for c in fake.calls() if "config" in c["argv"]]
    assert asked and all("--context=lab" in argv for argv in asked)
    chosen = cli("cluster", "snapshot", "-n", "team", env=fake.env())
    assert yaml.safe_load(chosen.stdout)["spec"]["defaultNamespace"] == "team"  # -n wins
    fake.rules(*rules)  # a context without a namespace: kubectl's default
    assert yaml.safe_load(cli("cluster", "snapshot", env=fake.env()).stdout)["spec"]["defaultNamespace"] == "default"


def test_snapshot_in_one_namespace_still_reads_the_schedulers_configuration(fake: Fake) -> None:
    """With -n, the ConfigMap the Volcano scheduler's Deployment mounts is read, by its name, for its configuration:
    the plugin's multi-level topology and version; its name is not kept."""
    _serve(fake)
    rules = json.loads(fake.env()["FAKE_KUBECTL_RULES"])
    conf = ("tiers:\n- plugins:\n  - name: volcano-npu_v26.1.0\nconfigurations:\n- name: init-params\n  arguments:\n"
            "    resource-level-config: '{\"default\": {\"level1\": {\"label\": \"rack-id\"}}}'\n")
    scheduler = {"metadata": {"name": "volcano-scheduler-configmap", "namespace": "volcano-system"},
                 "data": {"volcano-scheduler.conf": conf}}
    deployment = _deployment("volcano-scheduler", "volcano-system", "swr.example/volcanosh/vc-scheduler:v1.9.0")
    deployment["spec"]["template"]["spec"]["volumes"] = [{"name": "conf",
                                                          "configMap": {"name": "volcano-scheduler-configmap"}}]
    fake.rules({"match": ["get", "configmaps", "--namespace=volcano-system", "volcano-scheduler-configmap"],
                "stdout": json.dumps(scheduler)},
               {"match": ["get", "deployments.apps"], "stdout": _items([deployment])},
               {"match": ["get", "configmaps"], "stdout": _items([])}, *rules)  # the others' ConfigMaps: none
    proc = cli("cluster", "snapshot", "-n", "training", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    spec = yaml.safe_load(proc.stdout)["spec"]
    assert spec["resourceLevels"] == {"default": ["rack-id"]} and spec["versions"]["ascend-plugin"] == "v26.1.0"
    assert [ns["name"] for ns in spec["namespaces"]] == ["kube-system", "training"]
    assert "volcano-scheduler-configmap" not in proc.stdout
