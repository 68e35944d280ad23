"""``why`` and the job-state model on kubectl JSON recorded from the simulated cluster.

The recording (``data/cluster/ascendjob-min-available.json``) is an AscendJob whose
``schedulingPolicy.minAvailable`` (5) exceeds its 2 pods, on 4 module-910b-8 and 4 card-910b-2 nodes.
The other scenarios change one thing in it (what the cluster would show for that cause) and check
that the diagnosis names that cause first.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import tests.checkout  # noqa: F401 - imports this checkout as ascend_compile
from ascend_compile.kube import jobs
from ascend_compile.kube import why as why_module

HERE = Path(__file__).resolve().parent
RECORDING = json.loads((HERE / "data/cluster/ascendjob-min-available.json").read_text())


class ReadError(Exception):
    pass


class FakeReader:
    """Serves the recorded objects as a kubectl reader would."""

    errors = (ReadError,)

    def __init__(self, data: Dict[str, Any], forbidden: tuple = ()):
        self.data = data
        self.forbidden = forbidden
        self.asked: List[tuple] = []

    def get(self, resource: str, name: str, namespace: Optional[str]) -> Optional[Dict[str, Any]]:
        self.asked.append(("get", resource, name))
        if resource.startswith("queues"):
            queue = self.data.get("queue")
            return queue if queue and queue["metadata"]["name"] == name else None
        job = self.data["job"]
        return job if resource.startswith("ascendjobs") and job["metadata"]["name"] == name else None

    def list(self, resource: str, namespace: Optional[str], labels: str = "", fields: str = "") -> List[Dict[str, Any]]:
        self.asked.append(("list", resource, namespace, labels, fields))
        if resource in self.forbidden:
            raise ReadError(f'{resource} is forbidden: User "dev" cannot list resource "{resource}"')
        key = {"podgroups.scheduling.volcano.sh": "podgroups", "pods": "pods", "events": "events",
               "nodes": "nodes"}[resource]
        items = list(self.data[key]) + (list(self.data.get("other_pods", [])) if key == "pods" and namespace is None
                                        else [])
        if labels:
            name, _, value = labels.partition("=")
            items = [i for i in items if (i["metadata"].get("labels") or {}).get(name) == value]
        return items

    def logs(self, pod: str, namespace: str, container: str, tail: int, previous: bool = False) -> str:
        return self.data.get("logs", {}).get(pod, "")


def _explain(data, forbidden=()):
    return why_module.explain(FakeReader(data, forbidden), data["job"])


def _data(**changes):
    data = copy.deepcopy(RECORDING)
    for key, value in changes.items():
        data[key] = value
    return data


def _set_pods_template(data, **container_changes):
    """Change every replica's pod template and the recorded pods alike."""
    for rep in data["job"]["spec"]["replicaSpecs"].values():
        spec = rep["template"]["spec"]
        container_changes.get("template", lambda s: None)(spec)
    for pod in data["pods"]:
        container_changes.get("template", lambda s: None)(pod["spec"])


def _gang_fixed(data, pods=2):
    """The recording with its gang fixed: minAvailable (and the PodGroup's minMember) ``pods``, every pod by default."""
    data["job"]["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] = pods
    for pg in data["podgroups"]:
        pg["spec"]["minMember"] = pods
        pg["status"]["conditions"] = []
        pg["status"]["phase"] = "Inqueue"
    return data


def test_min_available_above_the_pods_is_named_first_not_the_operators_reason():
    why = _explain(_data())
    lines = why.lines()
    assert lines[0].startswith("AscendJob matrix/big: Created (PodGroupNotInitialized)")
    assert lines[1] == ("why: the job needs 5 pods running together (minAvailable 5) but has only 2: it can never "
                        "be scheduled; set spec.runPolicy.schedulingPolicy.minAvailable to 2 or less")
    assert "pod group is not ready, 2 Pending, 5 minAvailable" in lines[2]
    assert why.causes[0].code == "min-available"
    assert "scheduler is running" in (why.note or "")
    assert [c.code for c in why.causes] == ["min-available"]  # the scheduler's echo of it is not a second cause
    assert why.causes[0].rules == ["AC216"]  # the lint rule that predicts it
    assert "  see: ascend-compile explain AC216" in lines
    data = why.as_dict()
    assert data["cause"]["code"] == "min-available"
    assert data["podGroups"][0]["minMember"] == 5
    assert {f["verdict"] for f in data["nodeFit"]} == {"fits"}
    json.dumps(data)


def test_no_node_with_the_selected_labels_names_the_nearest_miss():
    data = _gang_fixed(_data())
    _set_pods_template(data, template=lambda spec: spec["nodeSelector"].update({"host-arch": "huawei-x86"}))
    why = _explain(data)
    assert why.causes[0].code == "no-nodes"
    assert why.lines()[1] == ("why: Master+Worker: 0 nodes are accelerator-type=module-910b-8,host-arch=huawei-x86; "
                              "nearest: 4 nodes have host-arch=huawei-arm (not host-arch=huawei-x86)")


def _npus(count):
    def change(spec):
        spec["containers"][0]["resources"] = {"limits": {"huawei.com/Ascend910": count},
                                              "requests": {"huawei.com/Ascend910": count}}
    return change


def test_more_npus_per_pod_than_any_matching_node_has():
    data = _gang_fixed(_data())
    _set_pods_template(data, template=_npus(16))
    why = _explain(data)
    assert why.causes[0].code == "npus-never-fit"
    assert why.lines()[1] == ("why: Master+Worker: 4 nodes are accelerator-type=module-910b-8,host-arch=huawei-arm, but none "
                              "has 16 Ascend910 at all (at most 8 per node): a pod asking for 16 can never be placed")
    # our lint rule predicts it: its ID and the explain command follow the cause
    assert why.causes[0].rules == ["AC301"]
    assert "  see: ascend-compile explain AC301" in why.lines()


def test_npus_held_by_other_pods():
    data = _gang_fixed(_data())
    data["other_pods"] = [
        {"metadata": {"name": f"other-{i}", "namespace": "else"}, "status": {"phase": "Running"},
         "spec": {"nodeName": f"sim-module-910b-8-{i}", "containers": [
             {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": "8"}}}]}} for i in range(4)]
    why = _explain(data)
    assert why.causes[0].code == "npus-busy"
    assert why.lines()[1].startswith("why: Master+Worker: 4 nodes are accelerator-type=module-910b-8,host-arch=huawei-arm, "
                                     "but 0 have 8 free Ascend910")
    assert why.lines()[1].endswith("held by else/other-0 (8 Ascend910), else/other-1 (8 Ascend910), "
                                   "else/other-2 (8 Ascend910) and 1 more")


def test_closed_queue():
    data = _gang_fixed(_data())
    data["queue"]["status"]["state"] = "Closed"
    why = _explain(data)
    assert why.causes[0].code == "queue-closed"
    assert why.lines()[1].startswith("why: the queue 'default' is Closed")


def test_missing_queue():
    data = _gang_fixed(_data())
    data["queue"] = None
    assert _explain(data).causes[0].code == "queue-missing"


def test_image_that_cannot_be_pulled():
    data = _gang_fixed(_data())
    for i, pod in enumerate(data["pods"]):
        pod["spec"]["nodeName"] = f"sim-module-910b-8-{i}"
        pod["status"] = {"phase": "Pending", "containerStatuses": [
            {"name": "ascend", "restartCount": 0, "state": {"waiting": {
                "reason": "ImagePullBackOff", "message": 'Back-off pulling image "nope:latest"'}}}]}
    why = _explain(data)
    assert why.causes[0].code == "image-pull"
    assert why.lines()[1] == ('why: pod big-master-0: container ascend cannot pull its image (ImagePullBackOff): '
                              'Back-off pulling image "nope:latest" (and 1 more pod(s) alike)')


def test_forbidden_reads_are_noted_not_fatal():
    data = _gang_fixed(_data())
    why = _explain(data, forbidden=("nodes", "events"))
    assert why.view.nodes is None and why.fit == []
    assert any("could not read nodes" in n and "forbidden" in n for n in why.view.notes)
    assert any("note: could not read events" in line for line in why.lines())


def test_failed_job_shows_exit_codes_and_the_log_tail():
    data = _gang_fixed(_data())
    data["job"]["status"]["conditions"].append(
        {"type": "Failed", "status": "True", "reason": "JobFailed", "message": "pod big-worker-0 failed",
         "lastTransitionTime": "2026-12-01T03:00:00Z"})
    data["job"]["status"]["completionTime"] = "2026-12-01T03:00:00Z"
    for pod in data["pods"]:
        pod["spec"]["nodeName"] = "sim-module-910b-8-0"
        pod["status"] = {"phase": "Failed", "containerStatuses": [
            {"name": "ascend", "restartCount": 0, "state": {"terminated": {"exitCode": 3, "reason": "Error"}}}]}
    data["logs"] = {"big-master-0": "step 1\nRuntimeError: HCCL init failed\n"}
    why = _explain(data)
    lines = why.lines()
    assert lines[1] == "why: the job failed: JobFailed: pod big-worker-0 failed"
    assert "  pod big-master-0: ascend exited 3 (Error)" in lines
    assert "  RuntimeError: HCCL init failed" in lines
    assert why.view.state.completion_time == "2026-12-01T03:00:00Z"


def test_job_state_times():
    acjob = {"kind": "AscendJob", "metadata": {"name": "a"}, "status": {
        "startTime": "2026-01-01T00:00:00Z", "completionTime": "2026-01-01T01:00:00Z",
        "conditions": [{"type": "Succeeded", "status": "True"}]}}
    state = jobs.job_state(acjob)
    assert state.times() == "started 2026-01-01T00:00:00Z, completed 2026-01-01T01:00:00Z"
    assert state.as_dict()["completionTime"] == "2026-01-01T01:00:00Z"
    vcjob = {"kind": "Job", "metadata": {"name": "v"}, "status": {"state": {"phase": "Completed"}, "conditions": [
        {"status": "Pending", "lastTransitionTime": "t0"}, {"status": "Running", "lastTransitionTime": "t1"},
        {"status": "Completing", "lastTransitionTime": "t2"}, {"status": "Completed", "lastTransitionTime": "t3"}]}}
    assert jobs.job_state(vcjob).times() == "started t1, completed t3"
    assert jobs.job_state({"kind": "Job", "metadata": {"name": "v"}, "status": {"state": {"phase": "Running"}}}
                          ).times() == ""


def test_more_pods_than_the_matching_nodes_can_take_even_idle():
    data = _gang_fixed(_data(), pods=6)  # every pod together
    data["job"]["spec"]["replicaSpecs"]["Worker"]["replicas"] = 5  # 6 pods of 8 NPUs; 4 nodes of 8
    why = _explain(data)
    assert why.causes[0].code == "too-few-nodes"
    assert why.lines()[1] == ("why: Master+Worker: 4 nodes are accelerator-type=module-910b-8,host-arch=huawei-arm; "
                              "even idle they take at most 4 pods of 8 Ascend910, but the job runs 6 together: it can "
                              "never be placed")


def test_the_jobs_own_anti_affinity_allows_one_pod_per_node():
    data = _gang_fixed(_data(), pods=6)
    data["job"]["spec"]["replicaSpecs"]["Worker"]["replicas"] = 5
    _set_pods_template(data, template=_npus(4))  # two pods would fit on a node, but the anti-affinity forbids it
    for rep in data["job"]["spec"]["replicaSpecs"].values():
        term = rep["template"]["spec"]["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
        term[0]["labelSelector"]["matchExpressions"][0]["values"] = ["big"]
    why = _explain(data)
    assert why.causes[0].code == "too-few-nodes"
    assert "at most 4 pods of 4 Ascend910 (one pod per node: the job's anti-affinity)" in why.lines()[1]
    for rep in data["job"]["spec"]["replicaSpecs"].values():  # without it, 8 pods of 4 NPUs fit
        rep["template"]["spec"]["affinity"] = {}
    # node fit finds nothing wrong: only the scheduler's (recorded) words on the pods are left
    assert _explain(data).causes[0].code == "unschedulable"


def test_a_schedule_policy_job_names_the_node_family_it_stands_for():
    data = _gang_fixed(_data())
    data["job"]["metadata"].setdefault("annotations", {})["huawei.com/schedule_policy"] = "chip8-node8"
    _set_pods_template(data, template=lambda spec: spec["nodeSelector"].pop("accelerator-type"))
    _set_pods_template(data, template=_npus(16))
    why = _explain(data)
    # the nodeSelector now only says host-arch: all 8 nodes match it, and the policy's family is 4 of them
    assert why.causes[0].code == "npus-never-fit"
    assert why.lines()[1].endswith("; schedule_policy chip8-node8 is accelerator-type module-910b-8: 4 of the 8 "
                                   "selected nodes")
    assert why.fit[0].as_dict()["family"].startswith("schedule_policy chip8-node8")


def test_a_placed_pod_that_cannot_mount_the_ranktable_configmap():
    data = _gang_fixed(_data())
    for i, pod in enumerate(data["pods"]):
        pod["spec"]["nodeName"] = f"sim-module-910b-8-{i}"
        pod["status"] = {"phase": "Pending", "containerStatuses": [
            {"name": "ascend", "restartCount": 0, "state": {"waiting": {"reason": "ContainerCreating"}}}]}
    data["events"].append({
        "involvedObject": {"kind": "Pod", "name": "big-worker-0", "namespace": "matrix"}, "type": "Warning",
        "reason": "FailedMount", "count": 3, "lastTimestamp": "2026-12-01T03:00:00Z",
        "message": 'MountVolume.SetUp failed for volume "ranktable" : configmap "rings-config-big" not found'})
    why = _explain(data)
    assert why.causes[0].code == "mount-failed"
    assert why.lines()[1] == ('why: pod big-worker-0: a volume cannot be mounted (FailedMount): MountVolume.SetUp '
                              'failed for volume "ranktable" : configmap "rings-config-big" not found')


def _running(data, annotated: bool, npus: int = 8):
    """The recorded job with its gang fixed, asking ``npus`` per pod, its pods bound and Running, with or without
    the Ascend plugin's device annotation."""
    data = _gang_fixed(data)
    data["job"]["status"] = {"conditions": [{"type": "Running", "status": "True", "reason": "JobRunning",
                                             "message": "Job matrix/big is running."}]}
    for rep in data["job"]["spec"]["replicaSpecs"].values():
        rep["template"]["spec"]["containers"][0]["resources"] = {
            "limits": {"huawei.com/Ascend910": npus}, "requests": {"huawei.com/Ascend910": npus}}
    for i, pod in enumerate(data["pods"]):
        pod["spec"]["nodeName"] = f"sim-module-910b-8-{i}"
        pod["spec"]["containers"][0]["resources"] = {"limits": {"huawei.com/Ascend910": str(npus)},
                                                     "requests": {"huawei.com/Ascend910": str(npus)}}
        pod["status"] = {"phase": "Running", "containerStatuses": [
            {"name": "ascend", "restartCount": 0, "state": {"running": {"startedAt": "2026-12-01T03:00:00Z"}}}]}
        if annotated:
            pod["metadata"]["annotations"]["huawei.com/Ascend910"] = ",".join(f"Ascend910-{n}" for n in range(npus))
    for pg in data["podgroups"]:
        pg["status"]["phase"] = "Running"
    return data


def test_npu_pods_running_without_the_device_annotation_are_said_first():
    """Bound and Running, the AscendJob Running, but no pod got NPUs: that comes before "the job is running"."""
    why = _explain(_running(_data(), annotated=False))
    assert why.causes[0].code == "no-npus"
    assert why.lines()[1] == ("why: running without NPUs: the scheduler assigned none to 2 of 2 NPU pods (no "
                              "huawei.com/Ascend910 device annotation), so their containers see no NPU")
    assert why.lines()[2] == "  pod big-master-0 on sim-module-910b-8-0: asks for 8 huawei.com/Ascend910, none assigned"


def test_running_without_npus_carries_lints_reason():
    """The issue's shape: 6 NPUs a pod in a job of two, which lint refuses (AC301); pods found bound without NPUs
    get lint's reason on the first line."""
    data = _running(_data(), annotated=False, npus=6)
    for rep in data["job"]["spec"]["replicaSpecs"].values():  # Atlas 800 (910): 1, 2, 4 or 8 a pod
        rep["template"]["spec"]["nodeSelector"]["accelerator-type"] = "module"
    why = _explain(data)
    assert why.causes[0].code == "no-npus"
    assert why.lines()[1].startswith("why: running without NPUs: the scheduler assigned none to 2 of 2 NPU pods")
    assert " — AC301: " in why.lines()[1]
    assert why.causes[0].rules == ["AC301"]


def test_npu_pods_with_the_device_annotation_are_running():
    why = _explain(_running(_data(), annotated=True))
    assert why.causes[0].code == "running"
    assert why.lines()[1] == "why: the job is running: 2 of 2 pods Running"


def _refused(data):
    """The recorded job, its gang fixed, with the PodGroup conditions of a job the Ascend plugin refuses."""
    data = _gang_fixed(data)
    message = ("InvalidResourceRequest: expected: job<matrix/big-f62c50fa> req npu num should small than 8, and not in "
               "map[3:{} 5:{} 6:{} 7:{}], actual: task<master> req npu: 6task<worker> req npu: 6, ")
    for pg in data["podgroups"]:
        pg["status"]["conditions"] = [
            {"type": "Unschedulable", "status": "True", "reason": "NotEnoughResources",
             "message": "2/2 tasks in gang unschedulable: pod group is not ready, 2 Pending, 2 minAvailable"},
            {"type": "Unschedulable", "status": "True", "reason": "JobValidateFailed", "message": message}]
    return data, message


def test_the_plugins_refusal_is_the_reason_not_the_gangs_echo():
    """Created/PodGroupNotInitialized with the scheduler up: the PodGroup's JobValidateFailed condition (the Ascend
    plugin's ValidNPUJob) is the real reason, not "pod group is not ready"."""
    data, message = _refused(_data())
    why = _explain(data)
    assert why.causes[0].code == "job-refused"
    assert why.lines()[1] == (f"why: the scheduler refuses the job (JobValidateFailed): {message}; it stays Pending "
                              "until the job is changed")


def test_a_lint_rule_that_crashes_is_our_bug_not_silence(monkeypatch):
    """kube/why.py's lint of the stored job raises what lint reports as its own crash (the CLI exits 3)."""
    import pytest

    from ascend_compile.errors import InternalError
    from ascend_compile.lint.rules import npu_count

    def crash(obj, run):
        raise ValueError("boom")

    from ascend_compile.lint import registry

    monkeypatch.setattr(npu_count, "check", crash)
    monkeypatch.setattr(registry, "_UNITS", {})  # the rule units are imported afresh, with the crashing check
    with pytest.raises(InternalError, match="linting the job as stored failed"):
        _explain(_data())


def test_the_plugins_refusal_comes_before_npus_other_jobs_hold():
    """Freed NPUs would not help a job the plugin refuses: the refusal is said first, the busy nodes after it."""
    data, _ = _refused(_data())
    data["other_pods"] = [
        {"metadata": {"name": f"other-{i}", "namespace": "else"}, "status": {"phase": "Running"},
         "spec": {"nodeName": f"sim-module-910b-8-{i}", "containers": [
             {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": "8"}}}]}} for i in range(4)]
    why = _explain(data)
    assert [c.code for c in why.causes] == ["job-refused", "npus-busy"]
