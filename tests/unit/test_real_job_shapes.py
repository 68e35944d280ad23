"""The job shapes real jobs use that issue 34 adds to the spec, through compile: Volcano job plugins, ...

Each shape also has a golden (``golden/showcase/``) and is run on the simulated cluster
(``tests/simcluster/test_real_job_shapes.py``)."""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from ascend_compile import CompileError, compile_spec


def _spec(**fields: Any) -> Dict[str, Any]:
    spec = {"framework": "pytorch", "profile": "module-910b-8", "image": "train:1", "target": "VolcanoJob",
            "npus": 16}
    spec.update(fields)
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": "job", "namespace": "train"}, "spec": spec}


def _job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if o["kind"] in ("AscendJob", "Job"))


def _refused(spec: Dict[str, Any]) -> List[Any]:
    with pytest.raises(CompileError) as caught:
        compile_spec(spec)
    return [(f.rule, f.path, f.message, f.hint) for f in caught.value.findings]


# --------------------------------------------------------------------------- Volcano job plugins


def test_a_training_volcano_job_gets_upstreams_training_plugins():
    assert _job(compile_spec(_spec()))["spec"]["plugins"] == {"ssh": [], "env": [], "svc": []}


def test_an_inference_volcano_job_gets_no_plugins():
    """Volcano's svc plugin would add a NetworkPolicy admitting only the job's own pods."""
    assert "plugins" not in _job(compile_spec(_spec(npus=1, ranktable="none")))["spec"]


@pytest.mark.parametrize("ranktable", ["file", "none"])
def test_plugins_as_written(ranktable):
    plugins = {"env": [], "svc": ["--disable-network-policy"]}
    job = _job(compile_spec(_spec(npus=1, ranktable=ranktable, plugins=plugins)))
    assert job["spec"]["plugins"] == plugins


def test_no_plugins_on_purpose():
    assert "plugins" not in _job(compile_spec(_spec(plugins={})))["spec"]


def test_plugins_on_an_ascendjob_are_refused():
    [(rule, path, message, hint)] = _refused(_spec(target="AscendJob", plugins={"svc": []}))
    assert (rule, path) == ("AC020", ("spec", "plugins"))
    assert "target: VolcanoJob" in hint


# --------------------------------------------------------------------------- a reset ConfigMap on its own


@pytest.mark.parametrize("mode,source", [("hostPath", {"path": "/user/restore/reset/train.reset-config-job"}),
                                         ("configMap", {"name": "reset-config-job"})])
def test_a_reset_configmap_on_its_own(mode, source):
    """resetConfig given, no rescheduling feature: the ConfigMap and the mount, and no feature's labels."""
    objects = compile_spec(_spec(target="AscendJob", resetConfig=mode))
    reset = [o for o in objects if o["kind"] == "ConfigMap" and o["metadata"]["name"] == "reset-config-job"]
    assert len(reset) == 1 and reset[0]["metadata"]["labels"] == {"reset": "true"}
    job = _job(objects)
    assert not {"pod-rescheduling", "fault-retry-times", "subHealthyStrategy"} & set(job["metadata"]["labels"])
    for replica in job["spec"]["replicaSpecs"].values():
        pod = replica["template"]["spec"]
        [volume] = [v for v in pod["volumes"] if v["name"] == "reset-config"]
        assert volume[next(k for k in volume if k != "name")] == source
        mounts = pod["containers"][0]["volumeMounts"]
        assert {"name": "reset-config", "mountPath": "/user/restore/reset/config", "readOnly": True} in mounts


def test_no_reset_configmap_unless_asked_for():
    objects = compile_spec(_spec(target="AscendJob"))
    assert [o["kind"] for o in objects] == ["AscendJob"]


# --------------------------------------------------------------------------- task and container names


def test_volcano_task_and_container_names():
    job = _job(compile_spec(_spec(taskName="default-test", containerName="infer",
                                  podTemplatePatch={"spec": {"containers": [{"name": "infer", "tty": True}]}})))
    [task] = job["spec"]["tasks"]
    assert task["name"] == "default-test"
    [container] = task["template"]["spec"]["containers"]
    assert container["name"] == "infer" and container["tty"] is True  # patched by its name


def test_default_task_and_container_names():
    [task] = _job(compile_spec(_spec()))["spec"]["tasks"]
    assert task["name"] == "worker" and task["template"]["spec"]["containers"][0]["name"] == "ascend"


@pytest.mark.parametrize("key", ["taskName", "containerName"])
def test_names_on_an_ascendjob_are_refused(key):
    [(rule, path, message, hint)] = _refused(_spec(target="AscendJob", **{key: "infer"}))
    assert (rule, path) == ("AC020", ("spec", key)) and "target: VolcanoJob" in hint


@pytest.mark.parametrize("key", ["taskName", "containerName"])
def test_names_must_be_dns_labels(key):
    assert [path for _, path, _, _ in _refused(_spec(**{key: "Default_Test"}))] == [("spec", key)]


# --------------------------------------------------------------------------- pod labels


def test_the_pod_app_label_and_other_pod_labels_of_a_volcano_job():
    [task] = _job(compile_spec(_spec(podLabels={"app": "infer", "team": "llm"})))["spec"]["tasks"]
    assert task["template"]["metadata"]["labels"] == {"app": "infer", "ring-controller.atlas": "ascend-910b",
                                                      "team": "llm"}


def test_the_pod_app_label_defaults_to_the_framework():
    [task] = _job(compile_spec(_spec()))["spec"]["tasks"]
    assert task["template"]["metadata"]["labels"]["app"] == "pytorch"


def test_the_pod_ring_label_is_still_the_profiles():
    [(rule, path, message, hint)] = _refused(_spec(podLabels={"ring-controller.atlas": "ascend-910"}))
    assert (rule, path) == ("AC024", ("spec", "podLabels", "ring-controller.atlas")) and "spec.profile" in hint


# --------------------------------------------------------------------------- map-form env with valueFrom


@pytest.mark.parametrize("where", [(), ("replicaTypes", "Worker")])
def test_map_form_env_with_value_from_hints_the_list_form(where):
    env = {"A": "1", "MY_IP": {"valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}}
    fields: Dict[str, Any] = {"env": env}
    for key in reversed(where):
        fields = {key: fields}
    [(rule, path, message, hint)] = _refused(_spec(**fields))
    assert (rule, path) == ("AC102", ("spec", *where, "env", "MY_IP"))
    assert "list of EnvVars" in hint and "{name: MY_IP, valueFrom: {...}}" in hint


def test_a_wrong_scalar_in_map_form_env_keeps_its_own_hint():
    [(rule, path, message, hint)] = _refused(_spec(env={"N": 1}))
    assert rule == "AC102" and hint.startswith("quote it")


# --------------------------------------------------------------------------- scheduling without node labels


def _names_hardware(job: Dict[str, Any]) -> List[Any]:
    pods = [r["template"]["spec"] for r in job["spec"].get("replicaSpecs", {}).values()] + \
        [t["template"]["spec"] for t in job["spec"].get("tasks", [])]
    return [job["metadata"].get("annotations", {}).get("huawei.com/schedule_policy")] + \
        [pod.get("nodeSelector") for pod in pods]


@pytest.mark.parametrize("fields", [
    {"profile": "module-910", "npus": 16},  # the plugin's handler for jobs without accelerator-type
    {"profile": "module-a3-16-super-pod", "npus": 32, "superPod": {"spBlock": 32}},  # its sp-block default
])
@pytest.mark.parametrize("target", ["AscendJob", "VolcanoJob"])
def test_scheduling_none_names_no_hardware(fields, target):
    job = _job(compile_spec(_spec(target=target, scheduling="none", **fields)))
    assert set(_names_hardware(job)) == {None}


def test_scheduling_none_with_host_arch_selects_only_that():
    job = _job(compile_spec(_spec(profile="module-910", scheduling="none", hostArch="huawei-arm")))
    assert {str(s) for s in _names_hardware(job)[1:]} == {str({"host-arch": "huawei-arm"})}


@pytest.mark.parametrize("fields,handler", [
    ({"profile": "module-910b-8", "npus": 16}, "module-910"),
    ({"profile": "module-a3-16-super-pod", "npus": 32}, "module-910"),  # without sp-block: not the super-pod one
])
def test_scheduling_none_where_the_default_handler_is_another_profiles(fields, handler):
    [(rule, path, message, hint)] = _refused(_spec(scheduling="none", **fields))
    assert (rule, path) == ("AC022", ("spec", "scheduling"))
    assert f"the rules of {handler}, not of {fields['profile']}" in message and "scheduling:" in hint


# --------------------------------------------------------------------------- patches over spec fields


@pytest.mark.parametrize("target,patch,where,names", [
    ("VolcanoJob", {"metadata": {"labels": {"fault-retry-times": "5"}}},
     ("metadata", "labels", "fault-retry-times"), "spec.faultRetryTimes"),
    ("AscendJob", {"metadata": {"labels": {"framework": "mindspore"}}}, ("metadata", "labels", "framework"),
     "spec.framework"),
    ("VolcanoJob", {"spec": {"maxRetry": 5}}, ("spec", "maxRetry"), "spec.retries"),
    ("VolcanoJob", {"spec": {"plugins": {"svc": ["--disable-network-policy"]}}}, ("spec", "plugins", "svc"),
     "spec.plugins"),
    ("VolcanoJob", {"spec": {"plugins": {"mpi": []}}}, ("spec", "plugins", "mpi"), "spec.plugins"),
    ("AscendJob", {"spec": {"runPolicy": {"schedulingPolicy": {"queue": "q"}}}},
     ("spec", "runPolicy", "schedulingPolicy", "queue"), "spec.queue"),
    ("VolcanoJob", {"spec": {"tasks": [{"name": "worker", "template": {"metadata": {"labels": {
        "ring-controller.atlas": "ascend-910"}}}}]}},
     ("spec", "tasks", 0, "template", "metadata", "labels", "ring-controller.atlas"), "spec.profile"),
])
def test_a_job_patch_over_a_spec_field_is_refused_naming_the_field(target, patch, where, names):
    """Issue 34: fault-retry-times "5" over faultRetryTimes: 3 passed lint, so it compiled silently."""
    [(rule, path, message, hint)] = _refused(_spec(target=target, faultRetryTimes=3, jobPatch=patch))
    assert (rule, path) == ("AC024", ("spec", "jobPatch", *where))
    assert names in message and names in hint


def test_a_pod_template_patch_over_the_ring_label_is_refused():
    patch = {"metadata": {"labels": {"ring-controller.atlas": "ascend-910"}}}
    [(rule, path, _, hint)] = _refused(_spec(replicaTypes={"Worker": {"podTemplatePatch": patch}}))
    assert (rule, path) == ("AC024", ("spec", "replicaTypes", "Worker", "podTemplatePatch", "metadata", "labels",
                                      "ring-controller.atlas")) and "spec.profile" in hint


def test_a_patch_that_restates_what_the_fields_say_is_not_an_override():
    patch = {"metadata": {"labels": {"fault-retry-times": "3"}}, "spec": {"plugins": {"svc": []}}}
    job = _job(compile_spec(_spec(faultRetryTimes=3, jobPatch=patch)))
    assert job["metadata"]["labels"]["fault-retry-times"] == "3"


def test_a_patch_that_adds_what_a_field_leaves_out_is_refused_naming_the_field():
    """Issue 46: a label a field writes, added by hand, is the field's to say (it brings what goes with it)."""
    patch = {"metadata": {"labels": {"pod-rescheduling": "on"}}}
    [(rule, path, _, hint)] = _refused(_spec(faultRetryTimes=3, jobPatch=patch))
    assert (rule, path) == ("AC024", ("spec", "jobPatch", "metadata", "labels", "pod-rescheduling"))
    assert "spec.podRescheduling" in hint


def test_patches_that_set_keys_no_field_owns_still_merge():
    job = _job(compile_spec(_spec(jobPatch={"metadata": {"labels": {"team": "a"}},
                                            "spec": {"priorityClassName": "high"}},
                                  podTemplatePatch={"metadata": {"labels": {"team": "a"}}})))
    assert job["metadata"]["labels"]["team"] == "a" and job["spec"]["priorityClassName"] == "high"
    assert job["spec"]["tasks"][0]["template"]["metadata"]["labels"]["team"] == "a"
