"""``ascend-compile webhook manifests`` (issue 48): the RBAC reads exactly what the live inventory reader lists and
never Secrets nor with a write verb; the webhook is called for every kind the linter reads; Ignore by default; the
output is byte for byte the same twice, passes our own lint, and bad options exit 2 with the reason."""
from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

import pytest
import yaml

from ascend_compile.kube.inventory import read_inventory
from ascend_compile.podtemplates import BUILTIN
from ascend_compile.vocabulary import (ASCEND_JOB_API_GROUP, ASCEND_JOB_PLURAL, VOLCANO_JOB_API_GROUP,
                                       VOLCANO_JOB_PLURAL)
from tests.checkout import ROOT, run_cli

IMAGE = "registry.example.com/ascend-compile:1.4.0"
WRITE_VERBS = {"create", "update", "patch", "delete", "deletecollection", "escalate", "bind", "impersonate", "*"}
CA_PEM = ("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIBATAKBggqhkjOPQQDAjAAMB4XDTI2MDEwMTAwMDAwMFoX\n"
          "-----END CERTIFICATE-----\n")


def _objects(*args: str, cwd: Optional[Path] = None) -> List[Dict[str, Any]]:
    proc = run_cli("webhook", "manifests", "--image", IMAGE, *args, cwd=cwd)
    assert proc.returncode == 0, proc.stderr
    return [doc for doc in yaml.safe_load_all(proc.stdout) if doc]


def _one(objects: List[Dict[str, Any]], kind: str) -> Dict[str, Any]:
    found = [obj for obj in objects if obj["kind"] == kind]
    assert len(found) == 1, f"{len(found)} {kind} objects"
    return found[0]


class _RecordingReader:
    """A cluster with nothing in it that notes every resource the inventory reader lists."""

    errors: Tuple[type, ...] = ()

    def __init__(self) -> None:
        self.listed: Set[str] = set()

    def get(self, resource: str, name: str, namespace: Optional[str]) -> None:
        raise AssertionError(f"the inventory reader does not get single objects (asked for {resource})")

    def list(self, resource: str, namespace: Optional[str], labels: str = "", fields: str = "") -> List[Any]:
        self.listed.add(resource)
        return []


def _inventory_reads() -> Set[Tuple[str, str]]:
    """(API group, resource) of everything ``read_inventory`` lists, cluster-wide and for one namespace."""
    reader = _RecordingReader()
    read_inventory(reader)
    read_inventory(reader, namespace="team-a")
    out = set()
    for resource in reader.listed:
        plural, _, group = resource.partition(".")
        out.add((group, plural))
    return out


def test_cluster_role_grants_read_only_exactly_what_the_inventory_reader_lists() -> None:
    role = _one(_objects(), "ClusterRole")
    granted = {(group, resource) for rule in role["rules"] for group in rule["apiGroups"]
               for resource in rule["resources"]}
    assert granted == _inventory_reads()
    for rule in role["rules"]:
        assert sorted(rule["verbs"]) == ["get", "list", "watch"], rule
        assert not set(rule["verbs"]) & WRITE_VERBS
        assert "secrets" not in rule["resources"] and "*" not in rule["resources"] and "*" not in rule["apiGroups"]
        assert "resourceNames" not in rule and "nonResourceURLs" not in rule


def test_the_service_account_is_the_one_bound_and_the_one_the_pods_run_as() -> None:
    objects = _objects("--namespace", "admission")
    account = _one(objects, "ServiceAccount")["metadata"]
    binding = _one(objects, "ClusterRoleBinding")
    assert binding["roleRef"] == {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                                  "name": _one(objects, "ClusterRole")["metadata"]["name"]}
    assert binding["subjects"] == [{"kind": "ServiceAccount", "name": account["name"], "namespace": "admission"}]
    pod = _one(objects, "Deployment")["spec"]["template"]["spec"]
    assert pod["serviceAccountName"] == account["name"]
    assert not any(obj["kind"] in ("Role", "RoleBinding", "Secret") for obj in objects)


def _admitted(webhook: Dict[str, Any]) -> Set[Tuple[str, str]]:
    out = set()
    for rule in webhook["rules"]:
        assert rule["operations"] == ["CREATE", "UPDATE"] and rule["apiVersions"] == ["*"], rule
        out |= {(group, resource) for group in rule["apiGroups"] for resource in rule["resources"]}
    return out


def test_webhook_is_called_for_every_kind_the_linter_reads() -> None:
    (webhook,) = _one(_objects(), "ValidatingWebhookConfiguration")["webhooks"]
    wanted = {(ASCEND_JOB_API_GROUP, ASCEND_JOB_PLURAL), (VOLCANO_JOB_API_GROUP, VOLCANO_JOB_PLURAL)}
    wanted |= {(group, entry.kind.lower() + "s") for entry in BUILTIN for group in entry.groups}
    assert _admitted(webhook) == wanted
    assert webhook["admissionReviewVersions"] == ["v1"] and webhook["sideEffects"] == "None"
    assert webhook["matchPolicy"] == "Equivalent" and webhook["timeoutSeconds"] == 10


def test_the_configs_pod_template_kinds_are_admitted_too(tmp_path: Path) -> None:
    config = tmp_path / "webhook-config.yaml"
    config.write_text("podTemplates:\n- apiVersion: example.com/v1\n  kind: TrainingPolicy\n"
                      "  paths: [spec.template]\n", encoding="utf-8")
    objects = _objects("--config", str(config))
    (webhook,) = _one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    assert ("example.com", "trainingpolicies") in _admitted(webhook)
    assert _one(objects, "ConfigMap")["data"] == {"config.yaml": config.read_text(encoding="utf-8")}


def test_failure_policy_is_ignore_unless_fail_is_asked_for() -> None:
    for args, policy, mode in (((), "Ignore", "ignore"), (("--failure-policy", "Fail"), "Fail", "fail")):
        objects = _objects(*args)
        (webhook,) = _one(objects, "ValidatingWebhookConfiguration")["webhooks"]
        assert webhook["failurePolicy"] == policy
        container = _one(objects, "Deployment")["spec"]["template"]["spec"]["containers"][0]
        assert container["args"][container["args"].index("--failure-mode") + 1] == mode


def test_namespaces_left_out_and_selected() -> None:
    objects = _objects("--namespace", "admission", "--namespace-selector", "ascend.example.com/admission=on",
                       "--namespace-selector", "team=research")
    (webhook,) = _one(objects, "ValidatingWebhookConfiguration")["webhooks"]
    selector = webhook["namespaceSelector"]
    assert selector["matchExpressions"] == [{"key": "kubernetes.io/metadata.name", "operator": "NotIn",
                                             "values": ["admission", "kube-system"]}]
    assert selector["matchLabels"] == {"ascend.example.com/admission": "on", "team": "research"}
    assert all(obj["metadata"].get("namespace", "admission") == "admission" for obj in objects)


def test_cert_manager_injects_the_ca_and_self_signed_carries_the_given_one(tmp_path: Path) -> None:
    managed = _objects()
    config = _one(managed, "ValidatingWebhookConfiguration")
    certificate = _one(managed, "Certificate")
    assert config["metadata"]["annotations"]["cert-manager.io/inject-ca-from"] == \
        f"ascend-compile/{certificate['metadata']['name']}"
    assert "caBundle" not in config["webhooks"][0]["clientConfig"]
    service = _one(managed, "Service")["metadata"]["name"]
    assert certificate["spec"]["dnsNames"] == [f"{service}.ascend-compile.svc",
                                               f"{service}.ascend-compile.svc.cluster.local"]
    tls_volume = next(v for v in _one(managed, "Deployment")["spec"]["template"]["spec"]["volumes"] if "secret" in v)
    assert tls_volume["secret"]["secretName"] == certificate["spec"]["secretName"]

    ca = tmp_path / "ca.pem"
    ca.write_text(CA_PEM, encoding="ascii")
    own = _objects("--tls", "self-signed", "--ca-bundle", str(ca))
    client = _one(own, "ValidatingWebhookConfiguration")["webhooks"][0]["clientConfig"]
    assert base64.b64decode(client["caBundle"]).decode("ascii") == CA_PEM
    assert not any(obj["kind"] in ("Issuer", "Certificate") for obj in own)


def test_the_deployment_is_locked_down_and_stays_available() -> None:
    objects = _objects()
    deployment = _one(objects, "Deployment")["spec"]
    assert deployment["replicas"] == 2
    assert deployment["strategy"]["rollingUpdate"]["maxUnavailable"] == 0
    pod = deployment["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["affinity"]["podAntiAffinity"] and pod["terminationGracePeriodSeconds"] > 0
    (container,) = pod["containers"]
    context = container["securityContext"]
    assert context["readOnlyRootFilesystem"] is True and context["allowPrivilegeEscalation"] is False
    assert context["capabilities"] == {"drop": ["ALL"]}
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["resources"]["requests"] and container["resources"]["limits"]["memory"]
    assert _one(objects, "PodDisruptionBudget")["spec"]["minAvailable"] == 1
    (port,) = _one(objects, "Service")["spec"]["ports"]
    (served,) = container["ports"]
    assert port["port"] == 443 and port["targetPort"] == served["name"] and served["containerPort"] == 8443
    assert "--audit" not in container["args"]
    audit = _one(_objects("--audit"), "Deployment")["spec"]["template"]["spec"]["containers"][0]
    assert "--audit" in audit["args"]


def test_output_is_byte_identical_twice_and_passes_our_own_lint(tmp_path: Path) -> None:
    first = run_cli("webhook", "manifests", "--image", IMAGE)
    second = run_cli("webhook", "manifests", "--image", IMAGE)
    assert first.returncode == 0 and first.stdout == second.stdout
    out = tmp_path / "webhook.yaml"
    out.write_text(first.stdout, encoding="utf-8")
    linted = run_cli("lint", "--no-config", "--no-cache", "--format", "json", str(out))
    assert linted.returncode == 0, linted.stdout + linted.stderr
    data = json.loads(linted.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    assert [f for f in findings if f["severity"] in ("warning", "error")] == []


@pytest.mark.parametrize("args, message", [
    (("--namespace", "Bad_Name"), "--namespace: 'Bad_Name' is not a namespace name"),
    (("--timeout-seconds", "31"), "--timeout-seconds: 31 is outside 1..30"),
    (("--replicas", "0"), "--replicas: 0 must be at least 1"),
    (("--failure-policy", "Sometimes"), "'Sometimes' is not one of 'Ignore', 'Fail'"),
    (("--namespace-selector", "team"), "--namespace-selector: 'team' is not KEY=VALUE"),
    (("--namespace-selector", "te am=x"), "the key's name 'te am' is not a label name"),
    (("--tls", "self-signed"), "--tls self-signed needs --ca-bundle FILE"),
    (("--ca-bundle", "CA"), "--ca-bundle is only for --tls self-signed"),
    (("--tls", "self-signed", "--ca-bundle", "KEY"), "the file holds a private key"),
    (("--tls", "self-signed", "--ca-bundle", "MISSING"), "does not exist"),
    (("--config", "PROFILE_DIRS"), "names files beside it (profileDirs)"),
])
def test_bad_options_exit_2_with_the_reason_and_print_nothing(tmp_path: Path, args: Tuple[str, ...],
                                                              message: str) -> None:
    (tmp_path / "ca.pem").write_text(CA_PEM, encoding="ascii")
    (tmp_path / "tls.key").write_text("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
    (tmp_path / "config.yaml").write_text("profileDirs: [profiles]\n", encoding="utf-8")
    (tmp_path / "profiles").mkdir()
    files = {"CA": "ca.pem", "KEY": "tls.key", "MISSING": "missing.pem", "PROFILE_DIRS": "config.yaml"}
    args = tuple(str(tmp_path / files[a]) if a in files else a for a in args)
    proc = run_cli("webhook", "manifests", "--image", IMAGE, *args)
    assert proc.returncode == 2, proc.stderr
    assert message in proc.stderr and proc.stdout == ""
    assert "Traceback" not in proc.stderr


def test_a_config_lint_would_refuse_is_refused_at_its_line(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("lint:\n  failOn: warning\nunknownKey: 1\n", encoding="utf-8")
    proc = run_cli("webhook", "manifests", "--image", IMAGE, "--config", str(config))
    assert proc.returncode == 2 and proc.stdout == ""
    assert f"{config.name}:3:1" in proc.stderr and "unknownKey" in proc.stderr


def test_missing_image_is_a_usage_error() -> None:
    proc = run_cli("webhook", "manifests")
    assert proc.returncode == 2 and "--image" in proc.stderr and proc.stdout == ""


def test_a_teams_profiles_are_carried_and_read_by_the_server(tmp_path: Path) -> None:
    """--profile-dir: each profile file becomes a key of a ConfigMap the pods mount, serve is told to read that
    folder, and a changed profile changes the pods' config hash (so the Deployment rolls)."""
    folder = tmp_path / "hw-profiles"
    folder.mkdir()
    text = (ROOT / "profiles" / "module-910b-8.yaml").read_text(encoding="utf-8").replace(
        "name: module-910b-8", "name: team-a2-8", 1)
    (folder / "team-a2-8.yaml").write_text(text, encoding="utf-8")
    objects = _objects("--profile-dir", str(folder))
    maps = {obj["metadata"]["name"]: obj["data"] for obj in objects if obj["kind"] == "ConfigMap"}
    assert maps["ascend-compile-webhook-profiles"] == {"team-a2-8.yaml": text}
    pod = _one(objects, "Deployment")["spec"]["template"]
    (container,) = pod["spec"]["containers"]
    at = container["args"].index("--profile-dir")
    mounted = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
    assert mounted[container["args"][at + 1]] == "profiles"
    assert {"name": "profiles", "configMap": {"name": "ascend-compile-webhook-profiles"}} in pod["spec"]["volumes"]
    without = _one(_objects(), "Deployment")["spec"]["template"]["metadata"]["annotations"]
    assert pod["metadata"]["annotations"] != without


def test_a_bad_profile_is_refused_at_its_line_and_nothing_is_printed(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("name: [\n", encoding="utf-8")
    proc = run_cli("webhook", "manifests", "--image", IMAGE, "--profile-dir", str(tmp_path))
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "broken.yaml:2:1" in proc.stderr


def test_every_option_the_deployment_gives_serve_is_one_serve_takes(tmp_path: Path) -> None:
    """The container's args are the image's entry point's (``webhook serve``) options, with every option turned on."""
    import click

    from ascend_compile.cli.webhook import serve

    (tmp_path / "team.yaml").write_text((ROOT / "profiles" / "module-910b-8.yaml").read_text(encoding="utf-8")
                                        .replace("name: module-910b-8", "name: team", 1), encoding="utf-8")
    objects = _objects("--profile-dir", str(tmp_path), "--audit", "--failure-policy", "Fail")
    (container,) = _one(objects, "Deployment")["spec"]["template"]["spec"]["containers"]
    taken = {opt for param in serve.params if isinstance(param, click.Option) for opt in param.opts}
    given = [arg for arg in container["args"] if arg.startswith("--")]
    assert given and set(given) <= taken, set(given) - taken
    assert serve.make_context("serve", list(container["args"])).params["failure_mode"] == "fail"
