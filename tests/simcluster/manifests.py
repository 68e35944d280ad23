"""What the cluster is configured with, read from the archives at start time (never copied into the repo).

- the CRDs: Volcano v1.12.0's ``installer/helm/chart/volcano/crd/bases/*.yaml`` and
  ``config/crd/jobflow/bases/*.yaml`` (the controller manager's and webhooks' version, for every
  release), and the AscendJob CRD from the release's operator ``build/ascend-operator.yaml``;
- the scheduler configuration: the ``volcano-scheduler.conf`` of the release's plugin's
  ``build/volcano-<its Volcano version>.yaml`` with two changes: the plugin's tier entry takes
  the name the plugin is registered under (as the release's build.sh's ``sed`` does), and ``useClusterInfoManager`` is
  ``"false"`` so the plugin reads the per-node ``mindx-dl-deviceinfo-<node>``
  ConfigMaps (there is no ClusterD here);
- the Volcano admission webhook configurations: the ones the Volcano chart
  (``templates/webhooks.yaml``) registers for its default ``enabled_admissions``,
  pointed at the local webhook server by URL instead of a Service.
"""
from __future__ import annotations

import tarfile
from pathlib import Path
from typing import Any, Dict, List

import yaml

from tests.simcluster import releases, sources

OPERATOR_YAML = "component/ascend-operator/build/ascend-operator.yaml"
VOLCANO_CRD_DIRS = ("volcano-v1.12.0/installer/helm/chart/volcano/crd/bases/",
                    "volcano-v1.12.0/config/crd/jobflow/bases/")

#: the Volcano chart's default ``custom.enabled_admissions`` (values.yaml of v1.12.0)
ENABLED_ADMISSIONS = ("/jobs/mutate", "/jobs/validate", "/podgroups/validate", "/queues/mutate",
                      "/queues/validate", "/hypernodes/validate")
#: namespaces the chart's webhooks leave alone (the release namespace and kube-system)
WEBHOOK_EXEMPT_NAMESPACES = ("volcano-system", "kube-system")


def _read_members(archive_key: str, wanted) -> Dict[str, bytes]:
    archive = sources.ARCHIVES[archive_key]
    out: Dict[str, bytes] = {}
    with tarfile.open(archive.path, "r:gz") as tar:
        for member in tar:
            if member.isfile() and wanted(member.name):
                handle = tar.extractfile(member)
                if handle is not None:
                    out[member.name] = handle.read()
    return out


def write_crds(dest: Path, release: str) -> List[Path]:
    """Write every CRD file a cluster of ``release`` installs into ``dest``; returns their paths."""
    dest.mkdir(parents=True, exist_ok=True)
    paths: List[Path] = []
    volcano = _read_members("volcano", lambda n: n.endswith(".yaml") and any(
        n.startswith(d) and "/" not in n[len(d):] for d in VOLCANO_CRD_DIRS))
    for name, data in sorted(volcano.items()):
        path = dest / Path(name).name
        path.write_bytes(data)
        paths.append(path)
    archive = releases.get(release).archive
    member = f"{sources.ARCHIVES[archive].top}/{OPERATOR_YAML}"
    operator = _read_members(archive, lambda n: n == member)[member]
    for doc in yaml.safe_load_all(operator):
        if isinstance(doc, dict) and doc.get("kind") == "CustomResourceDefinition":
            path = dest / "ascendjobs.mindxdl.gitee.com.yaml"
            path.write_text(yaml.safe_dump(doc, sort_keys=False))
            paths.append(path)
    if len(paths) < 9:
        raise sources.SourceError(f"expected 8 Volcano CRDs and the AscendJob CRD, found {len(paths)}")
    return paths


def scheduler_conf(release: str) -> Dict[str, Any]:
    """The scheduler configuration of ``release``'s plugin, adapted as the module docstring says."""
    chosen = releases.get(release)
    member = f"{sources.ARCHIVES[chosen.archive].top}/{chosen.scheduler_yaml}"
    text = _read_members(chosen.archive, lambda n: n == member)[member]
    for doc in yaml.safe_load_all(text):
        if isinstance(doc, dict) and doc.get("kind") == "ConfigMap" and \
                doc.get("metadata", {}).get("name") == "volcano-scheduler-configmap":
            conf = yaml.safe_load(doc["data"]["volcano-scheduler.conf"])
            break
    else:
        raise sources.SourceError(f"{member}: no volcano-scheduler-configmap")
    renamed = 0
    for tier in conf.get("tiers", []):
        for plugin in tier.get("plugins", []):
            if str(plugin.get("name", "")).startswith("volcano-npu"):
                plugin["name"] = chosen.plugin_name
                renamed += 1
    if renamed != 1:
        raise sources.SourceError(f"{member}: expected one volcano-npu plugin entry, found {renamed}")
    for configuration in conf.get("configurations", []):
        if configuration.get("name") == "init-params":
            configuration["arguments"]["useClusterInfoManager"] = "false"
            break
    else:
        raise sources.SourceError(f"{member}: no init-params configuration")
    return conf


def _webhook(path: str, port: int, mutating: bool) -> Dict[str, Any]:
    resource_group = {
        "jobs": ("batch.volcano.sh", "v1alpha1"), "podgroups": ("scheduling.volcano.sh", "v1beta1"),
        "queues": ("scheduling.volcano.sh", "v1beta1"), "hypernodes": ("topology.volcano.sh", "v1alpha1"),
    }
    resource, verb = path.strip("/").split("/")
    group, version = resource_group[resource]
    operations = ["CREATE"]
    if not mutating and resource in ("jobs", "hypernodes"):
        operations = ["CREATE", "UPDATE"]
    if not mutating and resource == "queues":
        operations = ["CREATE", "UPDATE", "DELETE"]
    singular = {"jobs": "job", "podgroups": "podgroup", "queues": "queue", "hypernodes": "hypernodes"}[resource]
    hook: Dict[str, Any] = {
        "name": f"{verb}{singular}.volcano.sh",
        "admissionReviewVersions": ["v1"],
        "clientConfig": {"url": f"https://127.0.0.1:{port}{path}"},
        "failurePolicy": "Fail",
        "matchPolicy": "Equivalent",
        "rules": [{"apiGroups": [group], "apiVersions": [version], "operations": operations,
                   "resources": [resource], "scope": "*"}],
        "sideEffects": "None" if resource == "hypernodes" else "NoneOnDryRun",
        "timeoutSeconds": 10,
    }
    if resource != "hypernodes":
        hook["namespaceSelector"] = {"matchExpressions": [{"key": "kubernetes.io/metadata.name", "operator": "NotIn",
                                                           "values": list(WEBHOOK_EXEMPT_NAMESPACES)}]}
        hook["objectSelector"] = {}
    if mutating:
        hook["reinvocationPolicy"] = "Never"
    return hook


def webhook_configurations(port: int) -> List[Dict[str, Any]]:
    """The chart's webhook configurations for its default admissions, by URL to 127.0.0.1:``port``."""
    out = []
    for path in ENABLED_ADMISSIONS:
        mutating = path.endswith("/mutate")
        out.append({
            "apiVersion": "admissionregistration.k8s.io/v1",
            "kind": "MutatingWebhookConfiguration" if mutating else "ValidatingWebhookConfiguration",
            # the name vc-webhook-manager looks up to fill in the CA bundle
            "metadata": {"name": "volcano-admission-service" + path.replace("/", "-")},
            "webhooks": [_webhook(path, port, mutating)],
        })
    return out
