"""A job that cannot fit (more NPUs per pod than a node of its profile has) stays Pending, and the
scheduler's own reason is captured from the PodGroup."""
from __future__ import annotations

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


def _npu_reason(sim):
    """The first Unschedulable condition (or Warning event) whose message names the NPU problem."""
    messages = []
    for pg in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]:
        for cond in pg.get("status", {}).get("conditions") or []:
            if cond.get("type") == "Unschedulable" and cond.get("status") == "True":
                messages.append(f"PodGroup {cond.get('reason')}: {cond.get('message')}")
    for event in jobs.get_json(sim, "events", "-n", NAMESPACE, "--field-selector=type=Warning")["items"]:
        messages.append(f"{event['involvedObject'].get('kind')} {event.get('reason')}: {event.get('message')}")
    return next((m for m in messages if "npu" in m.lower() or "Ascend910" in m), None)


def test_impossible_npu_request_stays_pending_with_the_schedulers_reason(sim):
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(_impossible_job())
        # the plugin's or the scheduler's own words about the NPUs, not a generic timeout
        reason = wait_for(lambda: _npu_reason(sim), timeout=90, what="the scheduler's reason naming the NPUs",
                          sim=sim, last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        print(reason)
        job = jobs.job_object(sim, NAMESPACE, "Job", "too-big")
        assert (job.get("status", {}).get("state") or {}).get("phase") == "Pending"
        pods = jobs.pods_of(sim, NAMESPACE, "Job", "too-big")
        assert all(not p["spec"].get("nodeName") for p in pods), "a pod was bound"
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
