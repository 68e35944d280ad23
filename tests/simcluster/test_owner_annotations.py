"""A Deployment's own annotations never reach the scheduler: Volcano's PodGroup for its pods takes only the
owner's ``volcano.sh/`` annotations, and the Ascend plugin reads the PodGroup's and the pods' annotations.

The simulated cluster runs no kube-controller-manager, so this test does its part by hand, as the Deployment
and ReplicaSet controllers would: a ReplicaSet carrying the Deployment's annotations, and a pod of its
template owned by it. Volcano's own controller then makes the PodGroup. Lint reports a policy on a
Deployment's metadata (AC307): an error for ``huawei.com/npu``, where the policy is the only way to a
handler; a warning here (a 910 card job: its node selector decides, and it runs). The same holds for the
plugin's other job annotations (sp-block here: AC318).
"""
from __future__ import annotations

from typing import Any, Dict

from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "owner-annotations"
POLICY = "huawei.com/schedule_policy"
SP_BLOCK = "sp-block"
INHERITED = "volcano.sh/example"


def _template() -> Dict[str, Any]:
    return {"metadata": {"labels": {"app": "owned"}},
            "spec": {"schedulerName": "volcano", "nodeSelector": {"accelerator-type": "card-910b-2"},
                     "containers": [{"name": "ascend", "image": "train:latest",
                                     "resources": {"requests": {"huawei.com/Ascend910": 2},
                                                   "limits": {"huawei.com/Ascend910": 2}}}]}}


def _deployment() -> Dict[str, Any]:
    return {"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "owned", "namespace": NAMESPACE,
                         "annotations": {POLICY: "chip1-node2", SP_BLOCK: "2", INHERITED: "yes"}},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "owned"}}, "template": _template()}}


def _pod_group_of(sim, owner_uid: str):
    """The PodGroup Volcano makes for the pods of a controller outside any Volcano Job: ``podgroup-<its uid>``."""
    for group in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]:
        if group["metadata"]["name"] == f"podgroup-{owner_uid}":
            return group
    return None


def test_a_deployments_policy_does_not_reach_the_pod_group(sim):
    from ascend_compile.lint.oneshot import lint_objects

    deployment = _deployment()
    found = sorted((f.rule, f.severity) for f in lint_objects([deployment]) if f.rule in ("AC307", "AC318"))
    assert found == [("AC307", "warning"), ("AC318", "warning")], found  # the policy, and sp-block
    jobs.create_namespace(sim, NAMESPACE)
    try:
        # what the Deployment controller makes: a ReplicaSet with the Deployment's annotations and template
        sim.apply_objects([{"apiVersion": "apps/v1", "kind": "ReplicaSet",
                            "metadata": {"name": "owned-5d9c", "namespace": NAMESPACE,
                                         "annotations": dict(deployment["metadata"]["annotations"])},
                            "spec": deployment["spec"]}])
        rs = jobs.get_json(sim, "replicaset", "owned-5d9c", "-n", NAMESPACE)
        # ... and what the ReplicaSet controller makes: a pod of the template, owned by it
        owner = {"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "owned-5d9c", "uid": rs["metadata"]["uid"],
                 "controller": True, "blockOwnerDeletion": True}
        pod = {"apiVersion": "v1", "kind": "Pod",
               "metadata": {**_template()["metadata"], "name": "owned-5d9c-x1", "namespace": NAMESPACE,
                            "ownerReferences": [owner]},
               "spec": _template()["spec"]}
        sim.apply_objects([pod])
        group = wait_for(lambda: _pod_group_of(sim, rs["metadata"]["uid"]), timeout=60, what="the PodGroup Volcano makes for the pod",
                         sim=sim, last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        annotations = group["metadata"].get("annotations") or {}
        assert annotations.get(INHERITED) == "yes", annotations  # the owner's volcano.sh/ keys are inherited
        assert POLICY not in annotations and SP_BLOCK not in annotations, annotations  # ... and nothing else

        def placed():
            return jobs.get_json(sim, "pod", "owned-5d9c-x1", "-n", NAMESPACE)["spec"].get("nodeName")

        node = wait_for(placed, timeout=90, what="the pod on a node", sim=sim,
                        last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        labels = jobs.get_json(sim, "node", node)["metadata"]["labels"]
        assert labels.get("accelerator-type") == "card-910b-2", labels  # the node selector decided
    finally:
        sim.kubectl("delete", "pods,replicasets", "--all", "-n", NAMESPACE, "--wait=false", check=False)
        jobs.clean_namespace(sim, NAMESPACE)
