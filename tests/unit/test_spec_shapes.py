"""Per-replica settings, job shapes (inference, a Scheduler with NPUs, shared ranktable storage, multi-level
scheduling), the generated-key tables and the escape hatches, through compile (issue 15)."""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from ascend_compile import CompileError, compile_spec
from ascend_compile.jobspec import generated
from tests.checkout import run_cli


def _spec(namespace: Any = "train", **fields: Any) -> Dict[str, Any]:
    metadata = {"name": "job"}
    if namespace:
        metadata["namespace"] = namespace
    spec = {"framework": "pytorch", "profile": "module-910b-8", "image": "train:1"}
    if "pods" not in fields:
        spec["npus"] = 16
    spec.update(fields)
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": metadata, "spec": spec}


def _job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if o["kind"] in ("AscendJob", "Job"))


def _pod(job: Dict[str, Any], rtype: str) -> Dict[str, Any]:
    return job["spec"]["replicaSpecs"][rtype]["template"]["spec"]


def _refused(spec: Dict[str, Any]) -> List[Any]:
    with pytest.raises(CompileError) as caught:
        compile_spec(spec)
    return [(f.rule, f.path) for f in caught.value.findings]


# --------------------------------------------------------------------------- per replica type


def test_replica_settings_go_over_the_shared_ones():
    job = _job(compile_spec(_spec(
        env={"A": "1", "B": "2"}, volumes=[{"name": "data", "pvc": "d", "mountPath": "/d"}],
        ports=[{"name": "metrics", "containerPort": 9100}], resources={"cpu": "8"},
        replicaTypes={"Master": {"env": {"B": "master", "C": "3"}, "ports": [{"name": "ray", "containerPort": 6379}],
                                 "volumes": [{"name": "head", "emptyDir": {}, "mountPath": "/head"}],
                                 "resources": {"cpu": "16", "shm": "1Gi"}, "restartPolicy": "OnFailure"}})))
    master, worker = _pod(job, "Master"), _pod(job, "Worker")
    env = {e["name"]: e.get("value") for e in master["containers"][0]["env"]}
    assert (env["A"], env["B"], env["C"]) == ("1", "master", "3")
    assert {e["name"]: e.get("value") for e in worker["containers"][0]["env"]}["B"] == "2"
    assert [p["name"] for p in master["containers"][0]["ports"]] == ["ascendjob-port", "metrics", "ray"]
    assert [p["name"] for p in worker["containers"][0]["ports"]] == ["ascendjob-port", "metrics"]
    assert "head" in {v["name"] for v in master["volumes"]} and "head" not in {v["name"] for v in worker["volumes"]}
    assert master["containers"][0]["resources"]["requests"]["cpu"] == "16"
    assert worker["containers"][0]["resources"]["requests"]["cpu"] == "8"
    assert {"name": "dshm", "emptyDir": {"medium": "Memory", "sizeLimit": "1Gi"}} in master["volumes"]
    assert job["spec"]["replicaSpecs"]["Master"]["restartPolicy"] == "OnFailure"
    assert job["spec"]["replicaSpecs"]["Worker"]["restartPolicy"] == "Never"


@pytest.mark.parametrize("fields,expected", [
    ({"target": "VolcanoJob", "replicaTypes": {"Master": {"env": {"A": "1"}}}},
     ("AC020", ("spec", "replicaTypes", "Master"))),
    ({"npus": 8, "replicaTypes": {"Worker": {"env": {"A": "1"}}}}, ("AC020", ("spec", "replicaTypes", "Worker"))),
    ({"volumes": [{"name": "d", "pvc": "d", "mountPath": "/d"}],
      "replicaTypes": {"Worker": {"volumes": [{"name": "d", "pvc": "e", "mountPath": "/e"}]}}},
     ("AC020", ("spec", "replicaTypes", "Worker", "volumes", 0, "name"))),
    ({"replicaTypes": {"Worker": {"env": {"ASCEND_VISIBLE_DEVICES": "0"}}}},
     ("AC020", ("spec", "replicaTypes", "Worker", "env", "ASCEND_VISIBLE_DEVICES"))),
])
def test_replica_settings_that_cannot_apply_are_refused(fields, expected):
    assert expected in _refused(_spec(**fields))


# --------------------------------------------------------------------------- shapes


def test_inference_volcano_job_has_no_ranktable_wiring():
    """As upstream's inference sample (infer-vcjob-910.yaml): the job label, no ConfigMap, no job plugins."""
    objects = compile_spec(_spec(target="VolcanoJob", npus=1, ranktable="none"))
    assert [o["kind"] for o in objects] == ["Job"]
    job = objects[0]
    assert job["metadata"]["labels"]["ring-controller.atlas"] == "ascend-910b"
    assert "plugins" not in job["spec"]
    container = job["spec"]["tasks"][0]["template"]["spec"]["containers"][0]
    assert [e["name"] for e in container["env"]] == ["ASCEND_VISIBLE_DEVICES"]
    assert {m["name"] for m in container["volumeMounts"]} == {"ascend-driver", "dshm", "localtime"}


def test_an_ascendjob_has_no_ranktable_none():
    assert ("AC020", ("spec", "ranktable")) in _refused(_spec(ranktable="none"))


@pytest.mark.parametrize("volume,source,sub_path", [
    ({"nfs": "10.0.0.5:/mindx/ranktable/"}, {"nfs": {"server": "10.0.0.5", "path": "/mindx/ranktable/train.job"}},
     None),
    ({"pvc": "claim"}, {"persistentVolumeClaim": {"claimName": "claim"}}, "train.job"),
])
def test_shared_ranktable_storage(volume, source, sub_path):
    pod = _pod(_job(compile_spec(_spec(ranktable="hostPath", ranktableVolume=volume))), "Worker")
    assert dict(source, name="ranktable") in pod["volumes"]
    mount = next(m for m in pod["containers"][0]["volumeMounts"] if m["name"] == "ranktable")
    assert mount.get("subPath") == sub_path and mount["mountPath"] == "/user/serverid/devindex/config"


def test_shared_ranktable_storage_needs_the_shared_directory_mode():
    assert ("AC020", ("spec", "ranktableVolume")) in _refused(_spec(ranktableVolume={"pvc": "c"}))


def test_mindspore_scheduler_that_holds_npus():
    job = _job(compile_spec(_spec(framework="mindspore", npus=32, schedulerHoldsNpus=True)))
    specs = job["spec"]["replicaSpecs"]
    assert {k: v["replicas"] for k, v in specs.items()} == {"Scheduler": 1, "Worker": 3}
    for rtype in specs:
        assert _pod(job, rtype)["containers"][0]["resources"]["requests"]["huawei.com/Ascend910"] == 8
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] == 4


@pytest.mark.parametrize("fields", [{"schedulerHoldsNpus": True},
                                    {"framework": "mindspore", "npus": 8, "schedulerHoldsNpus": True}])
def test_scheduler_holds_npus_only_where_it_means_something(fields):
    assert ("AC020", ("spec", "schedulerHoldsNpus")) in _refused(_spec(**fields))


def test_multi_level_annotations():
    job = _job(compile_spec(_spec(profile="module-a3-16-super-pod", npus=128, multiLevel=[2, 4])))
    assert job["metadata"]["annotations"] == {"huawei.com/schedule_policy": "multilevel",
                                              "huawei.com/affinity-config": "level1=2,level2=4"}


@pytest.mark.parametrize("fields", [
    {"profile": "module-a3-16-super-pod", "npus": 128, "multiLevel": [3]},  # 8 pods
    {"profile": "module-a3-16-super-pod", "npus": 128, "multiLevel": [4, 2]},  # 2 is not a multiple of 4
    {"pods": 4, "npusPerPod": 4, "multiLevel": [2]},  # not whole nodes
    {"profile": "950-super-pod", "npus": 16, "multiLevel": [2]},  # huawei.com/npu
])
def test_multi_level_the_scheduler_refuses(fields):
    assert ("AC310", ("spec", "multiLevel")) in _refused(_spec(**fields))


# --------------------------------------------------------------------------- generated keys


def test_every_generated_label_and_annotation_names_its_field():
    """Compile a spec that turns everything on: each key the compiler writes is in the tables that refuse it."""
    objects = compile_spec(_spec(
        target="VolcanoJob", scheduling="schedulePolicy", torAffinity="normal-schema", faultRetryTimes=3,
        podRescheduling=True, subHealthyStrategy="graceExit"))
    objects += compile_spec(_spec(
        profile="module-a3-16-super-pod", npus=64, superPod={"spBlock": 32}, multiLevel=[2], faultRetryTimes=3,
        processRecovery={"strategies": ["recover"], "waitRescheduleTimeout": 60}))
    objects += compile_spec(_spec(profile="950-super-pod", scheduling="schedulePolicy", superPod={"raBlock": 8}))
    tables = {**generated.JOB_LABELS, **generated.JOB_ANNOTATIONS, **generated.POD_LABELS,
              **generated.VOLCANO_DEFAULT_POD_LABELS}
    for job in (o for o in objects if o["kind"] != "ConfigMap"):
        keys = set(job["metadata"].get("labels", {})) | set(job["metadata"].get("annotations", {}))
        templates = [r["template"] for r in job["spec"].get("replicaSpecs", {}).values()] + \
            [t["template"] for t in job["spec"].get("tasks", [])]
        for template in templates:
            keys |= set(template["metadata"].get("labels", {})) | set(template["metadata"].get("annotations", {}))
        assert keys - set(tables) == set(), f"{job['metadata']['name']}: keys without a spec field"


# --------------------------------------------------------------------------- escape hatches


def test_job_patch_merges_into_the_job_object():
    job = _job(compile_spec(_spec(jobPatch={"spec": {"runPolicy": {"ttlSecondsAfterFinished": 60}}})))
    assert job["spec"]["runPolicy"] == {"ttlSecondsAfterFinished": 60,
                                        "schedulingPolicy": {"minAvailable": 2, "queue": "default"}}


def test_replica_patch_applies_to_its_replica_only():
    job = _job(compile_spec(_spec(replicaTypes={"Worker": {"podTemplatePatch": {"spec": {"priorityClassName": "hi"}}}})))
    assert _pod(job, "Worker")["priorityClassName"] == "hi"
    assert "priorityClassName" not in _pod(job, "Master")


@pytest.mark.parametrize("patch_field,patch,where", [
    ("podTemplatePatch", {"spec": {"containers": [{"name": "ascend", "ports": [{"containerPort": 8080}]}]}},
     ("spec", "podTemplatePatch", "spec", "containers", 0, "ports", 0)),
    ("jobPatch", {"spec": {"replicaSpecs": {"Master": {"template": {"spec": {"volumes": [{"emptyDir": {}}]}}}}}},
     ("spec", "jobPatch", "spec", "replicaSpecs", "Master", "template", "spec", "volumes", 0)),
])
def test_a_patch_that_cannot_merge_is_a_located_compile_error(patch_field, patch, where):
    assert ("AC025", where) in _refused(_spec(**{patch_field: patch}))


def test_a_container_name_that_is_a_list_is_a_compile_error_not_a_crash(tmp_path):
    """Issue 16 item 9: a list as a patched container's name crashed the merge."""
    spec = tmp_path / "job.yaml"
    spec.write_text("apiVersion: ascend-compile.io/v1alpha1\nkind: TrainingJob\nmetadata: {name: job}\n"
                    "spec:\n  framework: pytorch\n  profile: module-910b-8\n  npus: 8\n  image: t:1\n"
                    "  podTemplatePatch:\n    spec:\n      containers:\n      - name: [ascend]\n        image: t:2\n")
    result = run_cli("compile", str(spec))
    assert result.returncode == 1, result.stderr
    assert "AC025" in result.stdout + result.stderr and "Traceback" not in result.stderr
    assert "job.yaml:12:9:" in result.stdout + result.stderr  # the line of the offending item
