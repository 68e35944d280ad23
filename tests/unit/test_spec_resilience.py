"""Fault tolerance in the spec: the consistent set compile emits, and the combinations it refuses (issue 15)."""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from ascend_compile import CompileError, compile_spec, lint_manifests


def _spec(namespace: Any = "train", **fields: Any) -> Dict[str, Any]:
    metadata = {"name": "job"}
    if namespace:
        metadata["namespace"] = namespace
    spec = {"framework": "pytorch", "profile": "module-910b-8", "npus": 16, "image": "train:1"}
    spec.update(fields)
    return {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": metadata, "spec": spec}


def _job(objects: List[Dict[str, Any]]) -> Dict[str, Any]:
    return next(o for o in objects if o["kind"] in ("AscendJob", "Job"))


def _templates(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    if job["kind"] == "AscendJob":
        return [r["template"] for r in job["spec"]["replicaSpecs"].values()]
    return [t["template"] for t in job["spec"]["tasks"]]


def _refused(spec: Dict[str, Any]) -> List[Any]:
    with pytest.raises(CompileError) as caught:
        compile_spec(spec)
    return [(f.rule, f.path) for f in caught.value.findings]


def _clean(objects: List[Dict[str, Any]]) -> None:
    findings = [f for f in lint_manifests(objects) if f.severity in ("error", "warning")]
    assert not findings, [(f.rule, f.message) for f in findings]


# --------------------------------------------------------------------------- what is emitted


def test_fault_retry_times_alone_switches_rescheduling_on():
    """The simulated cluster's finding: without fault-scheduling the plugin never retries the AscendJob."""
    objects = compile_spec(_spec(faultRetryTimes=2))
    job = _job(objects)
    assert job["metadata"]["labels"]["fault-scheduling"] == "force"
    assert {r["restartPolicy"] for r in job["spec"]["replicaSpecs"].values()} == {"Never"}
    _clean(objects)


def test_process_recovery_emits_the_whole_set():
    objects = compile_spec(_spec(faultRetryTimes=3, processRecovery={"strategies": ["recover", "dump"],
                                                                      "waitRescheduleTimeout": 120}))
    reset, job = objects
    assert reset["metadata"] == {"name": "reset-config-job", "namespace": "train", "labels": {"reset": "true"}}
    assert reset["data"] == {"reset.json": '{"status":"initializing"}', "checkCode": ""}
    meta = job["metadata"]
    assert meta["labels"]["fault-scheduling"] == "grace"  # the YAML reference's choice for process recovery
    assert meta["annotations"] == {"recover-strategy": "recover,dump", "wait-reschedule-timeout": "120"}
    for template in _templates(job):
        container = template["spec"]["containers"][0]
        assert {"name": "taskd-port", "containerPort": 9601} in container["ports"]
        assert {"name": "ttp-port", "containerPort": 8000} in container["ports"]
        assert {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}} in container["env"]
        assert {"name": "TTP_PORT", "value": "8000"} in container["env"]
        assert {"name": "reset-config", "mountPath": "/user/restore/reset/config", "readOnly": True} \
            in container["volumeMounts"]
        assert {"name": "reset-config", "hostPath": {"path": "/user/restore/reset/train.reset-config-job"}} \
            in template["spec"]["volumes"]
    _clean(objects)


def test_without_dump_there_is_no_ttp_port():
    job = _job(compile_spec(_spec(faultRetryTimes=3, processRecovery={"strategies": ["retry"]})))
    container = _templates(job)[0]["spec"]["containers"][0]
    assert [p["name"] for p in container["ports"]] == ["ascendjob-port", "taskd-port"]
    assert "TTP_PORT" not in {e["name"] for e in container["env"]}


def test_reset_config_as_a_configmap_volume_needs_no_namespace():
    objects = compile_spec(_spec(namespace=None, subHealthyStrategy="graceExit", resetConfig="configMap"))
    job = _job(objects)
    assert job["metadata"]["labels"]["subHealthyStrategy"] == "graceExit"
    assert {"name": "reset-config", "configMap": {"name": "reset-config-job"}} in _templates(job)[0]["spec"]["volumes"]
    _clean(objects)


def test_volcano_job_with_pod_rescheduling_has_no_policies():
    objects = compile_spec(_spec(target="VolcanoJob", podRescheduling=True))
    job = _job(objects)
    assert "policies" not in job["spec"]
    assert job["metadata"]["labels"]["pod-rescheduling"] == "on"
    _clean(objects)


def test_grace_period_reaches_every_pod():
    job = _job(compile_spec(_spec(faultScheduling="grace", terminationGracePeriodSeconds=900)))
    assert {t["spec"]["terminationGracePeriodSeconds"] for t in _templates(job)} == {900}


# --------------------------------------------------------------------------- what is refused


@pytest.mark.parametrize("fields,expected", [
    ({"processRecovery": {"strategies": ["recover"]}}, ("AC311", ("spec", "processRecovery"))),
    ({"target": "VolcanoJob", "faultRetryTimes": 3, "processRecovery": {"strategies": ["retry"]}},
     ("AC311", ("spec", "processRecovery"))),
    ({"faultScheduling": "off", "podRescheduling": True}, ("AC311", ("spec", "faultScheduling"))),
    ({"framework": "tensorflow", "subHealthyStrategy": "hotSwitch"}, ("AC311", ("spec", "subHealthyStrategy"))),
    ({"target": "VolcanoJob", "restartPolicy": "ExitCode"}, ("AC020", ("spec", "restartPolicy"))),
    ({"podRescheduling": True, "env": {"POD_IP": "1.2.3.4"}}, ("AC020", ("spec", "env", "POD_IP"))),
    ({"podRescheduling": True, "ports": [{"name": "taskd-port", "containerPort": 9000}]},
     ("AC020", ("spec", "ports", 0))),
    ({"ports": [{"name": "x", "containerPort": 2222}]}, ("AC020", ("spec", "ports", 0))),
    ({"ports": [{"name": "x", "containerPort": 80}, {"name": "x", "containerPort": 81}]},
     ("AC020", ("spec", "ports", 1))),
])
def test_inconsistent_fault_tolerance_is_refused(fields, expected):
    assert expected in _refused(_spec(**fields))


def _for(release: str):
    from ascend_compile.config import ClusterSettings, ProjectConfig

    return ProjectConfig(cluster=ClusterSettings(release, None))


@pytest.mark.parametrize("release", ["v6.0.0", "v7.0.RC1"])
@pytest.mark.parametrize("fields,path", [
    ({"faultRetryTimes": 3, "restartPolicy": "OnFailure"}, ("spec", "restartPolicy")),
    ({"faultRetryTimes": 3, "replicaTypes": {"Worker": {"restartPolicy": "Always"}}},
     ("spec", "replicaTypes", "Worker", "restartPolicy")),
])
def test_a_retry_lost_to_in_place_restarts_is_refused_where_the_plugin_counts_only_failed_pods(release, fields, path):
    """Up to v7.0.RC1 the plugin counts only Failed pods: lint warns (AC312) and compile refuses the same spec."""
    with pytest.raises(CompileError) as caught:
        compile_spec(_spec(**fields), config=_for(release))
    assert ("AC312", path) in [(f.rule, f.path) for f in caught.value.findings]
    assert release in next(f.message for f in caught.value.findings if f.rule == "AC312")


@pytest.mark.parametrize("release", [None, "v7.3.2", "v26.0.1", "v26.1.0"])
@pytest.mark.parametrize("policy", ["OnFailure", "Always", "ExitCode"])
def test_in_place_restarts_keep_the_retry_from_v7_3_2_and_exit_code_is_never_in_place(release, policy):
    """From v7.3.2 a container restarted after a non-zero exit counts as failed, so the pairing retries the job (lint
    says nothing there either); ExitCode gives the pods Never on every release."""
    config = _for(release) if release else None
    fields = {"faultRetryTimes": 3, "replicaTypes": {"Worker": {"restartPolicy": policy}}}
    objects = compile_spec(_spec(**fields), config=config)
    job = _job(objects)
    assert job["spec"]["replicaSpecs"]["Worker"]["restartPolicy"] == policy
    assert not [f for f in lint_manifests(objects, config=config) if f.rule == "AC312" and f.severity != "info"]


def test_exit_code_is_not_refused_even_where_only_failed_pods_count():
    compile_spec(_spec(faultRetryTimes=3, replicaTypes={"Worker": {"restartPolicy": "ExitCode"}}),
                 config=_for("v7.0.RC1"))


def test_reset_config_on_the_node_needs_a_namespace():
    assert ("AC020", ("spec",)) in _refused(_spec(namespace=None, podRescheduling=True))
    assert ("AC020", ("spec", "resetConfig")) in _refused(_spec(namespace=None, podRescheduling=True,
                                                                resetConfig="hostPath"))
