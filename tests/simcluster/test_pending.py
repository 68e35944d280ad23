"""A job that cannot fit (more NPUs per pod than a node of its profile has) stays Pending, and the
scheduler's own reason is captured from the PodGroup."""
from __future__ import annotations

import json

import yaml

from tests.checkout import ROOT
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "pending"


def _impossible_job():
    """The module-910b-8 Volcano Job golden, asking for 16 NPUs per pod on 8-NPU nodes."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden/matrix/pytorch-module-910b-8-vcjob.yaml").read_text()) if d]
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
        if doc["kind"] == "Job":
            doc["metadata"]["name"] = "too-big"
            container = doc["spec"]["tasks"][0]["template"]["spec"]["containers"][0]
            container["resources"] = {"limits": {"huawei.com/Ascend910": 16}, "requests": {"huawei.com/Ascend910": 16}}
        else:
            doc["metadata"]["name"] = "rings-config-too-big"
    return docs


def _unschedulable(sim):
    for pg in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]:
        for cond in pg.get("status", {}).get("conditions") or []:
            if cond.get("type") == "Unschedulable" and cond.get("status") == "True" and cond.get("message"):
                return pg, cond
    return None


def test_impossible_npu_request_stays_pending_with_the_schedulers_reason(sim):
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(_impossible_job())
        pg, cond = wait_for(lambda: _unschedulable(sim), timeout=90, what="an Unschedulable PodGroup condition",
                            sim=sim, last=lambda: json.dumps(jobs.get_json(sim, "podgroups.scheduling.volcano.sh",
                                                                         "-n", NAMESPACE)["items"], indent=1))
        message = cond["message"]
        # the plugin's or the scheduler's own words about NPUs, not a generic timeout
        assert "npu" in message.lower() or "huawei.com/Ascend910" in message, message
        job = jobs.job_object(sim, NAMESPACE, "Job", "too-big")
        assert (job.get("status", {}).get("state") or {}).get("phase") == "Pending"
        pods = jobs.pods_of(sim, NAMESPACE, "Job", "too-big")
        assert all(not p["spec"].get("nodeName") for p in pods), "a pod was bound"
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
