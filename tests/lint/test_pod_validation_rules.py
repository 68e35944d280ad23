"""AC217, AC707, AC708 and AC316's chip-model names: mistakes Kubernetes' own validation (or the device
plugin's resource names) turn into jobs that never run, found by the fidelity mutations of
tests/fidelity/mutations_user.py and shown on the simulated cluster in
tests/simcluster/test_rules_rejections.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from ascend_compile.lint.rules._downward import volume_file_path
from ascend_compile.lint.rules._labels import qualified_name
from ascend_compile.lint.rules.env_field_ref import valid_env_field_path
from ascend_compile.lint.rules.leader_service_port import service_problem
from ascend_compile.manifest.quantity import canonical, parse

from .conftest import lint_text, one_pod_acjob


@pytest.mark.parametrize("text,value", [("500m", Fraction(1, 2)), ("2", 2), (8, 8), ("1Gi", 2 ** 30),
                                        ("1024Mi", 2 ** 30), ("1e3", 1000), ("1.5k", 1500), (".5", Fraction(1, 2))])
def test_quantities_as_kubernetes_reads_them(text, value):
    assert parse(text) == value


@pytest.mark.parametrize("text", ["32GB", "8 cores", "", "1.2.3", True, None, [1]])
def test_what_kubernetes_does_not_parse_is_none(text):
    assert parse(text) is None


#: text -> resource.ParseQuantity(text).String(), printed by a Go program built on k8s.io/apimachinery v0.32.4
GO_CANONICAL = {"1m": "1m", "1000m": "1", "0.001": "1m", "1e-3": "1e-3", "1e3": "1e3", "1000": "1k", "1024": "1024",
                "1024Ki": "1Mi", "0.5Ki": "512", "1e0": "1e0", "1E3": "1E3", "1.0": "1", "0.1": "100m", "1e1": "10",
                "1000000Ki": "1000000Ki", "1.5Ki": "1536", "0.9765625Ki": "1k", "1000k": "1M", "+1": "+1",
                "1.024Ki": "1048576m", "20e-1": "2", "1000e0": "1e3", "1e-2": "10e-3", "-1024Ki": "-1Mi",
                "1e-10": "1e-9", "1.0Ki": "1Ki", "8Ki": "8Ki", "01": "01", "0": "0"}


@pytest.mark.parametrize("text,written", sorted(GO_CANONICAL.items()))
def test_quantities_as_kubernetes_writes_them_back(text, written):
    assert canonical(text) == written


@pytest.mark.parametrize("text", ["1e9999999", "1e" + "9" * 5000, "9" * 5000, 10 ** 5000], ids=range(4))
def test_absurd_quantities_are_left_alone_at_once(text):
    assert canonical(text) is None and (parse(text) is None) is not isinstance(text, int)


def test_numbers_are_written_back_as_their_json_text():
    assert (canonical(1024), canonical(0.001), canonical(1), canonical("x"), canonical(True)) == ("1024", "1m", "1",
                                                                                                  None, None)


@pytest.mark.parametrize("key,valid", [("app", True), ("app.kubernetes.io/name", True), ("huawei.com/Ascend910", True),
                                       ("a_b.C-1", True), ("job name", False), ("-app", False), ("a/b/c", False),
                                       ("/app", False), ("Example.com/app", False), ("x" * 64, False),
                                       ("app.", False), ("", False)])
def test_label_keys_as_kubernetes_checks_them(key, valid):
    assert qualified_name(key) is valid


@pytest.mark.parametrize("path,refused", [("ip", False), ("a/b..c", False), ("x..", False), ("", True), (None, True),
                                          ("/etc/ip", True), ("../ip", True), ("a/../ip", True), ("..data", True),
                                          ("..", True)])
def test_downward_volume_file_paths(path, refused):
    assert (volume_file_path(path) is not None) is refused


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
                                  "metadata.annotations['huawei.com/Ascend910']",
                                  "metadata.annotations['Example.COM/Devices']"])  # annotation keys: lower-cased
def test_env_field_paths_kubernetes_takes(path):
    assert valid_env_field_path(path)


@pytest.mark.parametrize("path", ["metadata.annotation['huawei.com/Ascend910']", 'metadata.annotations["x"]',
                                  "metadata.annotations", "status.hostIp", "spec.restartPolicy", "status.phase",
                                  "spec['x']", "metadata.labels['a b']", "metadata.labels['Example.com/x']",
                                  "metadata.name['x']", "['x']"])
def test_env_field_paths_kubernetes_refuses(path):
    assert not valid_env_field_path(path)


@pytest.mark.parametrize("resource,rule", [("huawei.com/Ascend910B", "AC316"), ("huawei.com/Ascend910A3", "AC316"),
                                           ("huawei.com/Ascend-910", "AC316"), ("huawei.com/Ascend910", None),
                                           ("huawei.com/Ascend910-4c", None)])
def test_a_resource_named_after_the_chip_model_never_fits(resource, rule):
    errors = {f.rule for f in lint_text(one_pod_acjob(resource=resource, npus=8)) if f.severity == "error"}
    assert ("AC316" in errors) == (rule == "AC316"), errors
