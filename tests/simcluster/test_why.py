"""``ascend-compile why`` on the simulated cluster: for each kind of stuck job, the real cause in the first lines.

All the stuck jobs go in at once (one namespace, one wait): a job asking for more NPUs per pod than
any node has, one selecting a host-arch no node carries, one in a closed queue, one whose image
cannot be pulled (kwok stage ``sim-pod-image-pull``), one mounting a volume it does not declare, an
AscendJob whose ``schedulingPolicy.minAvailable`` exceeds its pods, and a Volcano Job asking for too
many NPUs.  Each is asked ``why`` through the CLI (exit 0) and its first two lines are checked for
the cause; the Python client's ``Cluster.why`` answers alike.  The lifecycle of a job that fails,
restarts and succeeds is in ``test_why_lifecycle.py``.
"""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for
from tests.simcluster.stages import IMAGE_PULL_LABEL

NAMESPACE = "why"
CLOSED_QUEUE = "why-closed"
GOLDEN = ROOT / "golden/matrix/pytorch-module-910b-8-acjob.yaml"


def _golden() -> List[Dict[str, Any]]:
    return [d for d in yaml.safe_load_all(GOLDEN.read_text()) if d]


def _job(name: str, change: Callable[[Dict[str, Any]], None]) -> List[Dict[str, Any]]:
    """The module-910b-8 AscendJob golden renamed to ``name`` (with its ConfigMap), changed by ``change``."""
    docs = copy.deepcopy(_golden())
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
        if doc["kind"] == "AscendJob":
            doc["metadata"]["name"] = name
            change(doc)
        else:
            doc["metadata"]["name"] = f"rings-config-{name}"
    return docs


def _pod_specs(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    return [rep["template"] for rep in job["spec"]["replicaSpecs"].values()]


def _npus(count: int) -> Callable[[Dict[str, Any]], None]:
    def change(job):
        for template in _pod_specs(job):
            template["spec"]["containers"][0]["resources"] = {"limits": {"huawei.com/Ascend910": count},
                                                              "requests": {"huawei.com/Ascend910": count}}
    return change


def _host_arch(value: str) -> Callable[[Dict[str, Any]], None]:
    def change(job):
        for template in _pod_specs(job):
            template["spec"]["nodeSelector"]["host-arch"] = value
    return change


def _queue(name: str) -> Callable[[Dict[str, Any]], None]:
    def change(job):
        job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] = name
    return change


def _image_pull(job):
    for template in _pod_specs(job):
        template["metadata"].setdefault("labels", {})[IMAGE_PULL_LABEL] = "fail"
        template["spec"]["containers"][0]["image"] = "registry.invalid/pytorch-train:missing"


def _missing_volume(job):
    """A container mounts ``data``, which the pod no longer declares: the operator cannot create the pods."""
    for template in _pod_specs(job):
        template["spec"]["volumes"] = [v for v in template["spec"]["volumes"] if v["name"] != "data"]


def _min_available(job):
    job["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] = 5


SCENARIOS = {
    "too-many-npus": _npus(16),
    "no-such-arch": _host_arch("huawei-x86"),
    "closed-queue": _queue(CLOSED_QUEUE),
    "image-pull": _image_pull,
    "gang-too-big": _min_available,
    "missing-volume": _missing_volume,
}


def _volcano_job_too_big() -> List[Dict[str, Any]]:
    """The module-910b-8 Volcano Job golden asking for 16 NPUs per pod (its nodes have 8)."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden/matrix/pytorch-module-910b-8-vcjob.yaml").read_text()) if d]
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
        if doc["kind"] == "Job":
            doc["metadata"]["name"] = "vcjob-too-many-npus"
            for task in doc["spec"]["tasks"]:
                task["template"]["spec"]["containers"][0]["resources"] = {
                    "limits": {"huawei.com/Ascend910": 16}, "requests": {"huawei.com/Ascend910": 16}}
        else:
            doc["metadata"]["name"] = "rings-config-vcjob-too-many-npus"
    return docs


def _close_queue(sim, name: str) -> None:
    """A Volcano queue closed the way vcctl closes one: a CloseQueue Command the queue controller acts on."""
    sim.kubectl("apply", "-f", "-", input=json.dumps({
        "apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "metadata": {"name": name},
        "spec": {"weight": 1, "reclaimable": True}}))
    uid = jobs.get_json(sim, "queues.scheduling.volcano.sh", name)["metadata"]["uid"]
    target = {"apiVersion": "scheduling.volcano.sh/v1beta1", "kind": "Queue", "name": name, "uid": uid}
    sim.kubectl("create", "-f", "-", input=json.dumps({
        "apiVersion": "bus.volcano.sh/v1alpha1", "kind": "Command",
        "metadata": {"generateName": f"{name}-close-", "namespace": "default",
                     "ownerReferences": [{**target, "controller": True}]},
        "action": "CloseQueue", "target": target}))
    wait_for(lambda: (jobs.get_json(sim, "queues.scheduling.volcano.sh", name).get("status") or {}).get("state")
             == "Closed", timeout=30, what=f"queue {name} closed", sim=sim)


@pytest.fixture(scope="module")
def stuck(sim):
    """Every scenario's job submitted at once; yields when each shows the state its cause leads to."""
    jobs.create_namespace(sim, NAMESPACE)
    _close_queue(sim, CLOSED_QUEUE)
    sim.apply_objects([obj for name, change in SCENARIOS.items() for obj in _job(name, change)]
                      + _volcano_job_too_big())
    try:
        yield
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
        sim.kubectl("delete", "queues.scheduling.volcano.sh", CLOSED_QUEUE, "--wait=false", check=False)


def _why(sim, name: str, *extra: str):
    return run_cli("why", name, "-n", NAMESPACE, "--kubeconfig", str(sim.kubeconfig), *extra)


def _why_when(sim, name: str, code: str) -> List[str]:
    """``why NAME`` once its JSON names ``code`` first (the cluster needs a moment to show it); its text lines."""
    def check():
        out = _why(sim, name, "-o", "json")
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)["cause"]["code"] == code

    wait_for(check, timeout=90, what=f"why {name} to name {code}", sim=sim,
             last=lambda: _why(sim, name).stdout + jobs.describe_namespace(sim, NAMESPACE))
    out = _why(sim, name)
    assert out.returncode == 0, out.stderr
    print(out.stdout)
    return out.stdout.splitlines()


def test_more_npus_per_pod_than_a_node_has(sim, stuck):
    lines = _why_when(sim, "too-many-npus", "npus-never-fit")
    assert lines[0].startswith(f"AscendJob {NAMESPACE}/too-many-npus: ")
    assert lines[1] == (f"why: Master+Worker: {sim.nodes_per_profile} nodes are accelerator-type=module-910b-8,"
                        "host-arch=huawei-arm, but none has "
                        "16 Ascend910 at all (at most 8 per node): a pod asking for 16 can never be placed")
    assert "  see: ascend-compile explain AC301" in lines  # our lint rule predicts it


def test_a_volcano_job_asking_for_more_npus_than_a_node_has(sim, stuck):
    lines = _why_when(sim, "vcjob-too-many-npus", "npus-never-fit")
    assert lines[0].startswith(f"Volcano Job {NAMESPACE}/vcjob-too-many-npus: Pending")
    assert lines[1] == (f"why: worker: {sim.nodes_per_profile} nodes are accelerator-type=module-910b-8,"
                        "host-arch=huawei-arm, but none has "
                        "16 Ascend910 at all (at most 8 per node): a pod asking for 16 can never be placed")


def test_no_node_with_the_selected_host_arch(sim, stuck):
    lines = _why_when(sim, "no-such-arch", "no-nodes")
    assert lines[1].startswith("why: Master+Worker: 0 nodes are accelerator-type=module-910b-8,host-arch=huawei-x86; "
                               "nearest: ")
    assert "have host-arch=huawei-arm (not host-arch=huawei-x86)" in lines[1]


def test_closed_queue(sim, stuck):
    lines = _why_when(sim, "closed-queue", "queue-closed")
    assert lines[1] == (f"why: the queue '{CLOSED_QUEUE}' is Closed: it admits no new jobs; open it or use another "
                        "queue")


def test_image_that_cannot_be_pulled(sim, stuck):
    lines = _why_when(sim, "image-pull", "image-pull")
    assert lines[1].startswith("why: pod image-pull-master-0: container ascend cannot pull its image "
                               "(ImagePullBackOff): Back-off pulling image \"registry.invalid/pytorch-train:missing\"")


def test_a_mount_naming_no_volume(sim, stuck):
    lines = _why_when(sim, "missing-volume", "create-pod-failed")
    assert lines[1].startswith("why: the controller cannot create the pods (0 of 2 exist): ")
    assert 'volumeMounts[1].name: Not found: "data"' in lines[1]


def test_min_available_above_the_pods(sim, stuck):
    lines = _why_when(sim, "gang-too-big", "min-available")
    # the operator's own condition points at the scheduler; why names the real cause and says so
    assert "PodGroupNotInitialized" in lines[0]
    assert lines[1] == ("why: the job needs 5 pods running together (minAvailable 5) but has only 2: it can never "
                        "be scheduled; set spec.runPolicy.schedulingPolicy.minAvailable to 2 or less")
    assert lines[2].startswith("  scheduler: ") and "5 minAvailable" in lines[2]
    assert any(line.startswith("note: the operator's reason PodGroupNotInitialized") for line in lines)
    assert "  see: ascend-compile explain AC216" in lines  # the lint rule that predicts it


def test_the_python_client_says_the_same(sim, stuck):
    import ascend_compile

    _why_when(sim, "gang-too-big", "min-available")
    with ascend_compile.Cluster.from_kubeconfig(str(sim.kubeconfig)) as cluster:
        why = cluster.why("gang-too-big", "AscendJob", NAMESPACE)
        events = cluster.events("gang-too-big", "AscendJob", NAMESPACE)
    assert why.causes[0].code == "min-available"
    assert why.lines()[1] == _why(sim, "gang-too-big").stdout.splitlines()[1]
    assert any(e.kind == "PodGroup" and e.reason == "Unschedulable" for e in events)
