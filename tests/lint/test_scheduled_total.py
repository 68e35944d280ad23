"""The super-pod arithmetic uses the total the plugin sees: the NPUs of the job's minAvailable pods.

The plugin reads a job's NPU total from its PodGroup's minResources (``GetVCJobReqNPUTypeFromJobInfo`` in
ascend-for-volcano ``plugin/job.go``), which covers minAvailable pods only.  The simulated cluster keeps
such a job Pending: "distributed super-pod job require npu(16) should be multiple of sp-block".
"""
from __future__ import annotations

import os

import yaml

from .conftest import SAMPLES, needs_shared

SAMPLE = os.path.join(SAMPLES, "tests__st__testcases__multi_pod_schedule__resources_0001__job_llama-2x16.yaml")


def _errors(docs):
    from ascend_compile.lint.oneshot import lint_objects

    return [f for f in lint_objects(docs) if f.severity == "error"]


def test_min_available_below_the_pods_shrinks_the_total_the_sp_block_must_divide():
    needs_shared(SAMPLE)
    with open(SAMPLE, encoding="utf-8") as handle:
        docs = [d for d in yaml.safe_load_all(handle) if d]
    assert _errors(docs) == []  # 2 pods x 16 NPUs, sp-block 32, minAvailable 2
    job = next(d for d in docs if d["kind"] == "AscendJob")
    job["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] = 1
    found = _errors(docs)
    assert [f.rule for f in found] == ["AC302"]
    assert "16 NPUs" in found[0].message and "minAvailable" in found[0].message
