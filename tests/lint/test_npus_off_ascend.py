"""AC703's check of an AscendJob pod whose NPUs are not all on its ``ascend`` container: where the operator derives
its rank env from the ``ascend`` container's count it warns, and where it derives none, or is not involved (a
Volcano Job), it stays quiet.  The operator's side is shown by tests/simcluster/test_split_npu_env.py."""
from __future__ import annotations

import copy

from ascend_compile.lint.oneshot import lint_objects

NPU = "huawei.com/Ascend910"
OFF_ASCEND = "from its ascend container only"


def _pod(split_on: bool, resource: str = NPU):
    containers = [{"name": "ascend", "image": "torch:2.1",
                   "resources": {"requests": {resource: 4 if split_on else 8},
                                 "limits": {resource: 4 if split_on else 8}}}]
    if split_on:
        containers.append({"name": "helper", "image": "torch:2.1",
                           "resources": {"requests": {resource: 4}, "limits": {resource: 4}}})
    return {"replicas": 1, "template": {"spec": {"nodeSelector": {"accelerator-type": "module-910b-8"},
                                                 "containers": containers}}}


def _acjob(framework="pytorch", leader="Master", split=("Master", "Worker"), labels=None, resource=NPU):
    return {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
            "metadata": {"name": "j", "labels": {"framework": framework, **(labels or {})}},
            "spec": {"replicaSpecs": {role: _pod(role in split, resource) for role in (leader, "Worker")}}}


def _off_ascend(objects):
    return [(f.path, f.severity, f.message) for f in lint_objects(objects)
            if f.rule == "AC703" and OFF_ASCEND in f.message]


def test_split_pods_warn_with_the_frameworks_env():
    found = _off_ascend([_acjob()])
    assert [(path[2], severity) for path, severity, _ in found] == [("Master", "warning"), ("Worker", "warning")]
    assert "LOCAL_WORLD_SIZE and WORLD_SIZE" in found[1][2] and "(4 here)" in found[1][2]
    tf = _off_ascend([_acjob("tensorflow", "Chief", split=("Worker",))])
    assert len(tf) == 1 and "CM_LOCAL_WORKER and CM_WORKER_SIZE" in tf[0][2]


def test_only_the_split_replica_is_reported():
    found = _off_ascend([_acjob(split=("Master",))])
    assert [path[2] for path, _, _ in found] == ["Master"]


def test_all_npus_on_ascend_is_clean():
    assert _off_ascend([_acjob(split=())]) == []


def test_no_warning_where_the_operator_writes_no_count():
    soft = {"huawei.com/scheduler.softShareDev.aicoreQuota": "50",
            "huawei.com/scheduler.softShareDev.hbmQuota": "2048",
            "huawei.com/scheduler.softShareDev.policy": "fixed-share"}
    assert _off_ascend([_acjob(labels=soft)]) == []
    assert _off_ascend([_acjob(resource="huawei.com/npu-core")]) == []
    workers_only = _acjob("mindspore", "Scheduler")
    del workers_only["spec"]["replicaSpecs"]["Scheduler"]
    assert _off_ascend([workers_only]) == []


def test_not_for_a_volcano_job():
    pod = copy.deepcopy(_pod(True)["template"])
    job = {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
           "metadata": {"name": "v", "labels": {"framework": "pytorch"}},
           "spec": {"schedulerName": "volcano", "tasks": [{"name": "worker", "replicas": 2, "template": pod}]}}
    assert _off_ascend([job]) == []


def _master_off_ascend(framework="pytorch", leader="Master", worker_on_ascend=True):
    """The leader's NPUs all on a second container (its ascend container asks none), the Worker's on ascend."""
    job = _acjob(framework, leader, split=())
    leader_containers = job["spec"]["replicaSpecs"][leader]["template"]["spec"]["containers"]
    leader_containers[0]["resources"] = {}
    leader_containers.append({"name": "helper", "image": "torch:2.1",
                              "resources": {"requests": {NPU: 8}, "limits": {NPU: 8}}})
    if not worker_on_ascend:
        worker = job["spec"]["replicaSpecs"]["Worker"]["template"]["spec"]["containers"]
        worker.append(dict(leader_containers[1]))
        worker[0]["resources"] = {}
    return job


def test_a_leader_without_npus_on_ascend_is_told_it_shares_rank_0_with_worker_0():
    """The operator sizes the job by the Workers alone: the simulated cluster gives Master and Worker RANK=0,
    WORLD_SIZE=8 (tests/simcluster/test_split_npu_env.py)."""
    (found,) = _off_ascend([_master_off_ascend()])
    assert found[0][2] == "Master" and found[1] == "warning"
    assert "WORLD_SIZE leaves the Master pods out, and Master 0 and Worker 0 both get RANK=0" in found[2]
    (tf,) = _off_ascend([_master_off_ascend("tensorflow", "Chief")])
    assert "CM_WORKER_SIZE leaves the Chief pods out" in tf[2] and "CM_RANK=0" in tf[2]


def test_without_npus_on_any_ascend_container_no_rank_is_claimed():
    """No ascend container asks for NPUs: the operator writes no count env; the general wording stays."""
    found = _off_ascend([_master_off_ascend(worker_on_ascend=False)])
    assert [path[2] for path, _, _ in found] == ["Master", "Worker"]
    assert not any("RANK=0" in message for _, _, message in found)
