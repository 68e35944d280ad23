"""An AscendJob whose pods split their NPUs over two containers runs, with the rank env of the ``ascend`` one.

The scheduler counts the pod's NPUs (all its containers: 4 + 4) and gives each pod the 8 devices of a node, but
ascend-operator reads the count from the Worker's ``ascend`` container alone: LOCAL_WORLD_SIZE=4,
WORLD_SIZE=4 x 2 pods, LOCAL_RANK=0,1,2,3, while ASCEND_VISIBLE_DEVICES (the pod's device annotation) lists 8.
Lint warns (AC703). The same job with all 8 NPUs on ``ascend`` gets 8 and 16.
"""
from __future__ import annotations

from typing import Any, Dict, List

from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "split-npu"
NPU = "huawei.com/Ascend910"


def _job(name: str, split: bool) -> List[Dict[str, Any]]:
    """Two pods of 8 NPUs; split: 4 on ``ascend`` and 4 on a second container ``helper``."""
    objects = jobs.operator_env_job(name, NAMESPACE)
    if split:
        for replica in jobs.ascend_job(objects)["spec"]["replicaSpecs"].values():
            containers = replica["template"]["spec"]["containers"]
            containers[0]["resources"] = {"requests": {NPU: 4}, "limits": {NPU: 4}}
            containers.append({"name": "helper", "image": "pytorch-train:latest",
                               "resources": {"requests": {NPU: 4}, "limits": {NPU: 4}}})
    return objects


def test_split_npu_pods_get_the_ascend_containers_count(sim):
    from ascend_compile.lint.oneshot import lint_objects

    whole, split = _job("whole", False), _job("split", True)
    assert not [f for f in lint_objects(whole) if f.rule == "AC703"]
    warned = [f for f in lint_objects(split) if f.rule == "AC703"]
    assert len(warned) == 2 and all(f.severity == "warning" for f in warned), warned  # Master and Worker
    assert not [f for f in lint_objects(split) if f.severity == "error"]
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(whole + split)

        def running(name: str):
            pods = jobs.pods_of(sim, NAMESPACE, "AscendJob", name)
            if len(pods) == 2 and all(p["status"].get("phase") == "Running" for p in pods):
                return pods
            return None

        for name, per_pod in (("whole", 8), ("split", 4)):
            pods = wait_for(lambda: running(name), timeout=180, what=f"2 running pods of {name}", sim=sim,
                            last=lambda: jobs.describe_namespace(sim, NAMESPACE))
            for pod in pods:
                env = jobs.ascend_env(pod)
                assert env["LOCAL_WORLD_SIZE"] == str(per_pod), (name, env)
                assert env["WORLD_SIZE"] == str(2 * per_pod), (name, env)
                assert env["LOCAL_RANK"] == ",".join(str(i) for i in range(per_pod)), (name, env)
                assert env["ASCEND_VISIBLE_DEVICES"] == {"fieldRef": {
                    "apiVersion": "v1", "fieldPath": f"metadata.annotations['{NPU}']"}}, (name, env)
                devices = pod["metadata"]["annotations"][NPU].split(",")
                assert len(devices) == 8, (name, devices)  # the scheduler placed the pod's total either way
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


def test_a_master_whose_npus_are_all_off_ascend_shares_rank_0_with_worker_0(sim):
    """The Master's NPUs all on a second container: no non-Worker ``ascend`` container asks for NPUs, so the
    operator sizes the job by the Workers alone (getTotalNpuReplicas, getNpuReqInfoPerPod) and ranks Workers from
    0 (createPodSpec): WORLD_SIZE leaves the Master out, and the Master and Worker-0 both get RANK=0."""
    from ascend_compile.lint.oneshot import lint_objects

    objects = _job("offmaster", False)
    master = jobs.ascend_job(objects)["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"]
    master[0]["resources"] = {}
    master.append({"name": "helper", "image": "pytorch-train:latest",
                   "resources": {"requests": {NPU: 8}, "limits": {NPU: 8}}})
    (warned,) = [f for f in lint_objects(objects) if f.rule == "AC703"]
    assert warned.severity == "warning" and "RANK=0" in warned.message and "WORLD_SIZE" in warned.message, warned
    assert not [f for f in lint_objects(objects) if f.severity == "error"]
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(objects)

        def running():
            pods = jobs.pods_of(sim, NAMESPACE, "AscendJob", "offmaster")
            if len(pods) == 2 and all(p["status"].get("phase") == "Running" for p in pods):
                return pods
            return None

        pods = wait_for(running, timeout=180, what="2 running pods of offmaster", sim=sim,
                        last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        envs = {p["metadata"]["labels"].get("replica-type", p["metadata"]["name"]): jobs.ascend_env(p) for p in pods}
        for role, env in envs.items():
            assert env["RANK"] == "0", (role, env)
            assert env["WORLD_SIZE"] == "8", (role, env)  # the Worker's 8 NPUs x 1 Worker: no room for the Master
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
