"""A schedule policy picks the scheduler's handler, not the nodes: without an ``accelerator-type`` selector the
pods may land on any node that handler takes.

``chip1-node2`` is the card handler (1 to 8 NPUs per pod; it takes nodes of up to 8 NPUs). A job naming it
with 8 NPUs per pod and no node selector runs on an 8-NPU server, so lint reports no error for it (it did:
"8 NPUs per pod is not allowed on card-910", as if the pods had to land on the 2-NPU card servers the
policy was written for). With the card servers' selector the same job never fits, and lint still says so.
And a handler refuses idle nodes larger than the servers it serves (AC317, a warning).
"""
from __future__ import annotations

import yaml

from tests.checkout import ROOT
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "policy-nodes"
POLICY = "huawei.com/schedule_policy"


def _job(name: str, selector: bool):
    """The card-910b-2 Volcano Job golden: one pod of 8 NPUs, named by the chip1-node2 policy."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden/matrix/pytorch-card-910b-2-vcjob.yaml").read_text()) if d]
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
        if doc["kind"] != "Job":
            doc["metadata"]["name"] = f"rings-config-{name}"
            continue
        doc["metadata"]["name"] = name
        doc["metadata"].setdefault("annotations", {})[POLICY] = "chip1-node2"
        doc["spec"]["minAvailable"] = 1
        task = doc["spec"]["tasks"][0]
        task["replicas"] = 1
        spec = task["template"]["spec"]
        if not selector:
            spec["nodeSelector"].pop("accelerator-type")
        for volume in spec["volumes"]:
            if "configMap" in volume:
                volume["configMap"]["name"] = f"rings-config-{name}"
        spec["containers"][0]["resources"] = {"requests": {"huawei.com/Ascend910": 8},
                                              "limits": {"huawei.com/Ascend910": 8}}
        spec["containers"][0]["env"][0]["name"] = name
        for term in spec["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]:
            term["labelSelector"]["matchExpressions"][0]["values"] = [name]
    return docs


def _lint_errors(docs):
    from ascend_compile.lint.oneshot import lint_objects

    return [f"{f.rule} {f.message}" for f in lint_objects(docs) if f.severity == "error"]


def test_a_policy_without_a_selector_runs_on_any_node_its_handler_takes(sim):
    jobs.create_namespace(sim, NAMESPACE)
    try:
        free, bound = _job("free", selector=False), _job("bound", selector=True)
        assert _lint_errors(free) == []
        assert any(e.startswith("AC301") for e in _lint_errors(bound))
        sim.apply_objects(free + bound)

        def placed():
            pods = [p for p in jobs.pods_of(sim, NAMESPACE, "Job", "free") if p["spec"].get("nodeName")]
            return pods or None

        pod, = wait_for(placed, timeout=90, what="the pod of the job without a selector on a node", sim=sim,
                        last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        node = jobs.get_json(sim, "node", pod["spec"]["nodeName"])
        assert node["status"]["capacity"]["huawei.com/Ascend910"] == "8", node["metadata"]["name"]
        reason = wait_for(lambda: jobs.podgroup_unschedulable(sim, NAMESPACE, "bound"), timeout=90, sim=sim,
                          what="the scheduler's reason for the job bound to the 2-NPU card servers",
                          last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        print(reason)
        assert all(not p["spec"].get("nodeName") for p in jobs.pods_of(sim, NAMESPACE, "Job", "bound"))
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


def test_a_policy_whose_handler_refuses_the_selected_nodes_stays_pending_on_idle_nodes(sim):
    """AC317: chip1-node2 (the card handler, nodes of up to 8 NPUs) on pods selecting the 16-NPU module-a3-16
    nodes: every idle one is refused ("node npu top<...> is invalid"), and lint warns."""
    jobs.create_namespace(sim, NAMESPACE)
    try:
        docs = _job("big-nodes", selector=True)
        job = next(d for d in docs if d["kind"] == "Job")
        job["spec"]["tasks"][0]["template"]["spec"]["nodeSelector"]["accelerator-type"] = "module-a3-16"
        from ascend_compile.lint.oneshot import lint_objects

        found = [(f.rule, f.severity) for f in lint_objects(docs) if f.severity in ("error", "warning")]
        assert ("AC317", "warning") in found and not [f for f in found if f[1] == "error"], found
        sim.apply_objects(docs)
        reason = wait_for(lambda: jobs.podgroup_unschedulable(sim, NAMESPACE, "big-nodes"), timeout=90, sim=sim,
                          what="the scheduler's reason for the job on nodes larger than its handler takes",
                          last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        print(reason)
        assert "is invalid" in reason
        assert all(not p["spec"].get("nodeName") for p in jobs.pods_of(sim, NAMESPACE, "Job", "big-nodes"))
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
