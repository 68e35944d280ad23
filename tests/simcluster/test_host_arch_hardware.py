"""AC319: a host-arch selector that contradicts the hardware the accelerator-type names never schedules.

Upstream's inference sample (samples/inference/volcano/infer-vcjob-910.yaml) selects ``accelerator-type:
module-910b-8`` (Atlas 800I/800T A2: arm hosts) with ``host-arch: huawei-arm``. The simulated nodes are labelled as
the profiles say (module-910b-8 nodes carry host-arch=huawei-arm). With ``huawei-x86`` the job's pods match no node
and stay Pending, and lint warns; as published, the job is placed and lint says nothing of it.
"""
from __future__ import annotations

import os

import yaml

from tests.checkout import SHARED
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "host-arch-hardware"
SAMPLE = SHARED / "upstream" / "samples" / "samples__inference__volcano__infer-vcjob-910.yaml"


def _job(name: str, arch: str):
    job = yaml.safe_load(SAMPLE.read_text())
    job["metadata"].update(name=name, namespace=NAMESPACE)
    job["spec"]["tasks"][0]["template"]["spec"]["nodeSelector"]["host-arch"] = arch
    return job


def _warnings(job):
    from ascend_compile.lint.oneshot import lint_objects

    return [(f.rule, f.severity) for f in lint_objects([job]) if f.rule == "AC319"]


def test_the_other_host_arch_of_the_hardware_stays_pending(sim):
    assert os.path.exists(SAMPLE)
    jobs.create_namespace(sim, NAMESPACE)
    try:
        arm, x86 = _job("on-arm", "huawei-arm"), _job("on-x86", "huawei-x86")
        assert _warnings(arm) == [] and _warnings(x86) == [("AC319", "warning")]
        sim.apply_objects([arm, x86])

        def placed():
            return [p for p in jobs.pods_of(sim, NAMESPACE, "Job", "on-arm") if p["spec"].get("nodeName")] or None

        pod, = wait_for(placed, timeout=90, what="the arm job's pod on a node", sim=sim,
                        last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        node = jobs.get_json(sim, "node", pod["spec"]["nodeName"])
        assert node["metadata"]["labels"]["accelerator-type"] == "module-910b-8"
        reason = wait_for(lambda: jobs.podgroup_unschedulable(sim, NAMESPACE, "on-x86"), timeout=90, sim=sim,
                          what="the scheduler's reason for the x86 job", last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        print(reason)
        assert "node affinity/selector" in reason
        assert all(not p["spec"].get("nodeName") for p in jobs.pods_of(sim, NAMESPACE, "Job", "on-x86"))
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
