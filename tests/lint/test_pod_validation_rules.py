"""AC217, AC707, AC708 and AC316's chip-model names: mistakes Kubernetes' own validation (or the device
plugin's resource names) turn into jobs that never run, found by the fidelity mutations of
tests/fidelity/mutations_user.py and shown on the simulated cluster in
tests/simcluster/test_rules_rejections.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from ascend_compile.lint.rules.env_field_ref import valid_env_field_path
from ascend_compile.lint.rules.leader_service_port import service_problem
from ascend_compile.quantity import parse

from .conftest import lint_text, one_pod_acjob


@pytest.mark.parametrize("text,value", [("500m", Fraction(1, 2)), ("2", 2), (8, 8), ("1Gi", 2 ** 30),
                                        ("1024Mi", 2 ** 30), ("1e3", 1000), ("1.5k", 1500), (".5", Fraction(1, 2))])
def test_quantities_as_kubernetes_reads_them(text, value):
    assert parse(text) == value


@pytest.mark.parametrize("text", ["32GB", "8 cores", "", "1.2.3", True, None, [1]])
def test_what_kubernetes_does_not_parse_is_none(text):
    assert parse(text) is None


@pytest.mark.parametrize("ports,bad", [
    ([{"containerPort": 2222}], 0),  # with the ascendjob-port the operator adds: two ports, one unnamed
    ([{"name": "ascendjob-port", "containerPort": 2222}, {"containerPort": 8080}], 1),
    ([{"name": "rendezvous", "containerPort": 2222}], 0),  # on the number of the added port
    ([{"name": "ascendjob-port", "containerPort": 2222}, {"name": "m", "containerPort": 2222}], 1),
])
def test_ports_the_leader_service_cannot_take(ports, bad):
    found = service_problem(ports)
    assert found is not None and found[0] == bad


@pytest.mark.parametrize("ports", [[], [{"name": "ascendjob-port", "containerPort": 2222}],
                                   [{"name": "master", "containerPort": 29500}],
                                   [{"name": "ascendjob-port", "containerPort": 29500},
                                    {"name": "m", "containerPort": 2222}]])
def test_ports_the_leader_service_takes(ports):
    assert service_problem(ports) is None


def test_a_port_under_another_name_and_number_stays_an_info():
    text = one_pod_acjob().replace("[{name: ascendjob-port, containerPort: 2222}]",
                                   "[{name: master, containerPort: 29500}]")
    assert {(f.rule, f.severity) for f in lint_text(text)} >= {("AC213", "info")}
    assert "AC217" not in {f.rule for f in lint_text(text)}


@pytest.mark.parametrize("path", ["metadata.name", "spec.host", "status.podIPs", "metadata.labels['app']",
                                  "metadata.annotations['huawei.com/Ascend910']"])
def test_env_field_paths_kubernetes_takes(path):
    assert valid_env_field_path(path)


@pytest.mark.parametrize("path", ["metadata.annotation['huawei.com/Ascend910']", 'metadata.annotations["x"]',
                                  "metadata.annotations", "status.hostIp", "spec.restartPolicy", "status.phase",
                                  "spec['x']"])
def test_env_field_paths_kubernetes_refuses(path):
    assert not valid_env_field_path(path)


@pytest.mark.parametrize("resource,rule", [("huawei.com/Ascend910B", "AC316"), ("huawei.com/Ascend910A3", "AC316"),
                                           ("huawei.com/Ascend-910", "AC316"), ("huawei.com/Ascend910", None),
                                           ("huawei.com/Ascend910-4c", None)])
def test_a_resource_named_after_the_chip_model_never_fits(resource, rule):
    errors = {f.rule for f in lint_text(one_pod_acjob(resource=resource, npus=8)) if f.severity == "error"}
    assert ("AC316" in errors) == (rule == "AC316"), errors
