"""The Python API's cluster client (ascend_compile.Cluster) against a real kube-apiserver.

Skipped (by the ``control_plane`` fixture) without Go or kubectl, and skipped
here when the optional ``kubernetes`` package is not installed.
"""
from __future__ import annotations

import copy
import json
import runpy
from pathlib import Path
from typing import Any, Dict, List

import pytest

pytest.importorskip(
    "kubernetes",
    reason="the kubernetes Python client is not installed: pip install '.[k8s]' in the clone to test ascend_compile.Cluster",
)

import ascend_compile  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "build_job.py"


@pytest.fixture(scope="module")
def cluster(control_plane) -> ascend_compile.Cluster:
    with ascend_compile.Cluster.from_kubeconfig(str(control_plane.kubeconfig)) as c:
        yield c


def example_objects(capsys: pytest.CaptureFixture[str]) -> List[Dict[str, Any]]:
    """The objects examples/python/build_job.py builds (it prints their YAML; we take the objects)."""
    namespace = runpy.run_path(str(EXAMPLE))
    capsys.readouterr()
    return namespace["objects"]


def kubectl_json(control_plane, *args: str) -> Dict[str, Any]:
    return json.loads(control_plane.kubectl(*args, "-o", "json").stdout)


def test_create_status_delete_example_job(control_plane, cluster, capsys):
    objects = example_objects(capsys)
    job = objects[-1]
    name, namespace = job["metadata"]["name"], job["metadata"]["namespace"]
    assert job["kind"] == "AscendJob"

    assert cluster.ensure_namespace(namespace) is True
    assert cluster.ensure_namespace(namespace) is False

    created = cluster.create(objects)
    assert [o["kind"] for o in created] == [o["kind"] for o in objects]
    assert created[-1]["metadata"]["uid"]

    stored = kubectl_json(control_plane, "get", "ascendjobs.mindxdl.gitee.com", "-n", namespace, name)
    assert stored["spec"]["replicaSpecs"]["Worker"]["replicas"] == 1

    # No ascend-operator runs here: no conditions yet.
    state = cluster.status(name, "AscendJob", namespace)
    assert (state.kind, state.name, state.namespace) == ("AscendJob", name, namespace)
    assert state.state == "Pending" and state.observed is False and not state.terminal

    # What the operator would write: the last condition is the state.
    status = {"status": {"conditions": [
        {"type": "Created", "status": "True", "reason": "JobCreated", "message": f"Job {name} is create."},
        {"type": "Failed", "status": "True", "reason": "JobValidFailed", "message": "Replica: bad replicas"},
    ], "replicaStatuses": {"Master": {"failed": 1}}}}
    control_plane.kubectl("patch", "ascendjobs.mindxdl.gitee.com", name, "-n", namespace,
                          "--subresource=status", "--type=merge", "-p", json.dumps(status))
    state = cluster.status(name, "AscendJob", namespace)
    assert (state.state, state.reason, state.message) == ("Failed", "JobValidFailed", "Replica: bad replicas")
    assert state.terminal and state.succeeded is False

    # Creating it again: the server's AlreadyExists, as one clear error.
    with pytest.raises(ascend_compile.ClusterError) as info:
        cluster.create(objects)
    assert info.value.already_exists and info.value.status == 409
    assert "already exists" in info.value.message

    assert cluster.delete(name, "AscendJob", namespace) == [f"AscendJob {namespace}/{name}"]
    with pytest.raises(ascend_compile.ClusterError) as info:
        cluster.status(name, "AscendJob", namespace)
    assert info.value.not_found
    assert f'"{name}" not found' in info.value.message
    gone = control_plane.kubectl("get", "ascendjobs.mindxdl.gitee.com", "-n", namespace, "-o", "name").stdout
    assert name not in gone

    assert cluster.delete(name, "AscendJob", namespace, missing_ok=True) == []
    with pytest.raises(ascend_compile.ClusterError) as info:
        cluster.delete(name, "AscendJob", namespace)
    assert info.value.not_found


def test_volcano_job_with_ranktable_configmap(control_plane, cluster):
    spec = ascend_compile.JobSpec(name="vc-demo", namespace="default", framework="mindspore", profile="module-910b-8",
                            npus=16, image="swr.example.com/ml/mindspore-train:2.3", target="VolcanoJob")
    objects = ascend_compile.compile_spec(spec)
    assert [o["kind"] for o in objects] == ["ConfigMap", "Job"]
    cluster.create(list(reversed(objects)))  # order does not matter: ConfigMap first, always

    state = cluster.status("vc-demo", "VolcanoJob", "default")
    assert state.kind == "Job" and state.state == "Pending" and state.observed is False
    configmap = kubectl_json(control_plane, "get", "configmap", "-n", "default", "rings-config-vc-demo")
    assert "hccl.json" in configmap["data"]

    assert cluster.delete("vc-demo", "Job", "default") == [
        "Volcano Job default/vc-demo", "ConfigMap default/rings-config-vc-demo"]
    left = control_plane.kubectl("get", "configmaps,jobs.batch.volcano.sh", "-n", "default", "-o", "name").stdout
    assert "vc-demo" not in left


def test_server_rejection_is_one_clear_error_and_nothing_is_left(control_plane, cluster):
    spec = ascend_compile.JobSpec(name="vc-bad", namespace="default", framework="pytorch", profile="module-910b-8",
                            npus=16, image="swr.example.com/ml/pytorch-train:2.1.0", target="VolcanoJob")
    objects = copy.deepcopy(ascend_compile.compile_spec(spec))
    objects[-1]["spec"]["minAvailable"] = "two"  # the CRD schema wants an integer
    with pytest.raises(ascend_compile.ClusterError) as info:
        cluster.create(objects)
    err = info.value
    assert err.status == 422 and err.reason == "Invalid"
    assert "spec.minAvailable" in err.message and "integer" in err.message, err.message
    assert "create Volcano Job default/vc-bad" in str(err)
    # The ConfigMap this call created first was rolled back.
    left = control_plane.kubectl("get", "configmaps", "-n", "default", "-o", "name").stdout
    assert "rings-config-vc-bad" not in left


def test_unknown_namespace_is_the_servers_message(cluster):
    spec = ascend_compile.JobSpec(name="lost", namespace="no-such-namespace", framework="pytorch",
                            profile="module-910b-8", npus=8, image="swr.example.com/ml/pytorch-train:2.1.0")
    with pytest.raises(ascend_compile.ClusterError) as info:
        cluster.create(ascend_compile.compile_spec(spec))
    assert info.value.not_found
    assert 'namespaces "no-such-namespace" not found' in info.value.message


def test_bad_kubeconfig_is_a_cluster_error(tmp_path):
    with pytest.raises(ascend_compile.ClusterError) as info:
        ascend_compile.Cluster.from_kubeconfig(str(tmp_path / "missing"))
    assert "kubeconfig" in str(info.value)


def test_a_cluster_error_is_an_ascend_compile_error(tmp_path):
    """One hierarchy (docs/api.md): code that catches AscendCompileError catches the client's errors too."""
    with pytest.raises(ascend_compile.AscendCompileError) as info:
        ascend_compile.Cluster.from_kubeconfig(str(tmp_path / "missing"))
    [finding] = info.value.findings
    assert (finding.rule, finding.message) == ("AC017", str(info.value)) and finding.message.startswith("connect: ")
    assert "kubeconfig" in finding.hint


def test_unreachable_server_is_a_cluster_error(control_plane, tmp_path):
    config = Path(control_plane.kubeconfig).read_text()
    server = control_plane.server
    # A port nothing listens on.
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dead = tmp_path / "kubeconfig"
    dead.write_text(config.replace(server, f"https://127.0.0.1:{port}"))
    with ascend_compile.Cluster.from_kubeconfig(str(dead)) as c:
        c.api_client.configuration.retries = 0
        with pytest.raises(ascend_compile.ClusterError) as info:
            c.status("x", "AscendJob", "default")
    assert info.value.status is None
    assert "cannot reach the API server" in info.value.message
