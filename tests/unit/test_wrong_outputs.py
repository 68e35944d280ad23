"""The three outputs issue 15 found wrong (exit 0, wrong manifest), each pinned by a test.

1. A Volcano Job with ``faultRetryTimes`` must restart nothing in place (pod ``restartPolicy: Never``,
   upstream's YAML reference, ``MC: docs/zh/scheduling/06_api/15_yaml_configuration.md``, row
   ``restartPolicy``) and leave failed pods to the Ascend plugin: no Volcano policies (the reference's
   ``PodFailed -> Ignore`` is refused by Volcano's admission webhook, and the samples' ``PodEvicted ->
   RestartJob`` would count each retry against ``maxRetry``: lint AC408); with ``OnFailure`` the kubelet
   restarts the container, the pod never fails and the plugin's retry never starts.
2. ``spec.labels`` / ``spec.annotations`` / ``podLabels`` / ``podAnnotations`` must not silently
   replace the labels and annotations the compiler generates: a compile error names the field to use.
3. The ranktable directory (hostPath, type Directory) is mounted on NPU pods only, never on the
   NPU-less MindSpore Scheduler, which may land on a node without that directory.
"""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from ascend_compile import CompileError, compile_spec, lint_manifests


def _spec(**fields: Any) -> Dict[str, Any]:
    metadata = {"name": fields.pop("name", "demo")}
    if "namespace" in fields:
        metadata["namespace"] = fields.pop("namespace")
    spec = {"framework": "pytorch", "profile": "module-910b-8", "npus": 16, "image": "train:1"}
    spec.update(fields)
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": metadata, "spec": spec}


def _job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if o["kind"] in ("AscendJob", "Job"))


# --------------------------------------------------------------------------- 1. fault-retry-times on a Volcano Job


def test_volcano_job_with_fault_retry_times_lets_failed_pods_fail():
    objects = compile_spec(_spec(target="VolcanoJob", faultRetryTimes=3))
    job = _job(objects)
    assert job["metadata"]["labels"]["fault-retry-times"] == "3"
    assert job["spec"]["tasks"][0]["template"]["spec"]["restartPolicy"] == "Never"
    assert "policies" not in job["spec"]
    assert [f for f in lint_manifests(objects) if f.severity != "info"] == []


def test_volcano_job_without_fault_retry_times_keeps_the_sample_policy():
    job = _job(compile_spec(_spec(target="VolcanoJob")))
    assert job["spec"]["tasks"][0]["template"]["spec"]["restartPolicy"] == "OnFailure"
    assert job["spec"]["policies"] == [{"event": "PodEvicted", "action": "RestartJob"}]


# --------------------------------------------------------------------------- 2. no silent override


@pytest.mark.parametrize("field,key,value,names", [
    ("labels", "framework", "mindspore", "spec.framework"),
    ("labels", "fault-scheduling", "grace", "spec.faultScheduling"),
    ("labels", "ring-controller.atlas", "ascend-910", "spec.profile"),
    ("annotations", "sp-block", "8", "spec.superPod.spBlock"),
    ("annotations", "huawei.com/schedule_policy", "chip4-node8", "spec.profile"),
    ("podLabels", "ring-controller.atlas", "ascend-910", "spec.profile"),
])
def test_free_form_labels_cannot_replace_generated_ones(field, key, value, names):
    with pytest.raises(CompileError) as caught:
        compile_spec(_spec(scheduling="schedulePolicy", **{field: {key: value}}))
    finding = caught.value.findings[0]
    assert finding.path == ("spec", field, key)
    assert names in finding.message + finding.hint


def test_free_form_labels_that_the_compiler_does_not_generate_still_pass():
    job = _job(compile_spec(_spec(labels={"team": "ml"}, annotations={"owner": "a"})))
    assert job["metadata"]["labels"]["team"] == "ml"
    assert job["metadata"]["annotations"]["owner"] == "a"


# --------------------------------------------------------------------------- 3. ranktable only on NPU pods


@pytest.mark.parametrize("ranktable", ["hostPath", "file"])
def test_ranktable_is_not_mounted_on_the_npu_less_mindspore_scheduler(ranktable):
    job = _job(compile_spec(_spec(framework="mindspore", namespace="train", ranktable=ranktable)))
    scheduler = job["spec"]["replicaSpecs"]["Scheduler"]["template"]["spec"]
    worker = job["spec"]["replicaSpecs"]["Worker"]["template"]["spec"]
    ranktable_volumes = {"ranktable", "ascend-910-config"}
    assert not ranktable_volumes & {v["name"] for v in scheduler["volumes"]}
    assert not ranktable_volumes & {m["name"] for m in scheduler["containers"][0]["volumeMounts"]}
    assert ranktable_volumes & {v["name"] for v in worker["volumes"]}
