"""What to apply to run the admission webhook in a cluster (``webhook manifests``): pure, options in, objects out.

The objects: the namespace, the service account and its read-only ClusterRole (exactly the resources the live
inventory lists, :data:`ascend_compile.kube.inventory.RESOURCES`; never Secrets, never a write verb), the project
config as a ConfigMap, the Deployment (``webhook serve``, replicas spread over nodes, locked down), its
PodDisruptionBudget and Service, the serving certificate (cert-manager's, or the user's own), and the
ValidatingWebhookConfiguration: CREATE and UPDATE of AscendJobs, Volcano Jobs and every kind with pod templates the
linter reads (:mod:`ascend_compile.podtemplates`), outside kube-system and the webhook's own namespace.
``docs/admission.md`` says how to install, upgrade and run it.
"""
from __future__ import annotations

import base64
import hashlib
from typing import Any, Dict, List, Set, Tuple

from ..kube.inventory import RESOURCES
from ..podtemplates import BUILTIN, PodTemplateKind
from ..records import record
from ..vocabulary import (ASCEND_JOB_API_GROUP, ASCEND_JOB_PLURAL, DNS1123_LABEL, DNS1123_SUBDOMAIN,
                          MAX_LABEL_LENGTH, MAX_SUBDOMAIN_LENGTH, QUALIFIED_NAME, VOLCANO_JOB_API_GROUP,
                          VOLCANO_JOB_PLURAL)

NAME = "ascend-compile-webhook"
#: the webhook's name in its configuration (a qualified name of three parts or more, as the API requires)
WEBHOOK_NAME = "jobs.webhook.ascend-compile.io"
DEFAULT_NAMESPACE = "ascend-compile"
FAILURE_POLICIES = ("Ignore", "Fail")
TLS_SOURCES = ("cert-manager", "self-signed")
#: the time limits the API allows a webhook (seconds), and ours by default
MIN_TIMEOUT, MAX_TIMEOUT, DEFAULT_TIMEOUT = 1, 30, 10
#: two: one answers while the other restarts
DEFAULT_REPLICAS = 2
#: the Secret with the serving certificate: cert-manager's Certificate writes it, or the user makes it
TLS_SECRET = f"{NAME}-tls"
CONFIG_MAP = f"{NAME}-config"
CONFIG_KEY = "config.yaml"
#: the team's hardware profiles (``--profile-dir``), one key per profile file
PROFILES_MAP = f"{NAME}-profiles"
VALIDATE_PATH = "/validate"
PORT = 8443
#: the user the image runs as (the Dockerfile's USER)
USER_ID = 65532
READ_VERBS = ("get", "list", "watch")
_SYSTEM_NAMESPACE = "kube-system"
_NAMESPACE_NAME_LABEL = "kubernetes.io/metadata.name"
_INJECT_CA = "cert-manager.io/inject-ca-from"
_CONFIG_HASH = "ascend-compile.io/config-sha256"
_TLS_DIR = "/etc/ascend-compile/tls"
_CONFIG_DIR = "/etc/ascend-compile/config"
_PROFILES_DIR = "/etc/ascend-compile/profiles"
_PEM_CERTIFICATE = b"-----BEGIN CERTIFICATE-----"
_LABELS = {"app.kubernetes.io/name": NAME, "app.kubernetes.io/component": "admission-webhook"}


@record(frozen=True)
class Options:
    """``webhook manifests``' options; ``ca_bundle`` is the PEM text of ``--ca-bundle``, ``config_text`` the project
    config's text and ``config_kinds`` its ``podTemplates`` kinds (the webhook checks those too), ``profiles`` the
    team's profile files (file name, text) from ``--profile-dir``."""

    image: str
    namespace: str = DEFAULT_NAMESPACE
    failure_policy: str = FAILURE_POLICIES[0]
    timeout_seconds: int = DEFAULT_TIMEOUT
    audit: bool = False
    tls: str = TLS_SOURCES[0]
    ca_bundle: bytes = b""
    namespace_selector: Tuple[Tuple[str, str], ...] = ()
    replicas: int = DEFAULT_REPLICAS
    config_text: str = ""
    config_kinds: Tuple[PodTemplateKind, ...] = ()
    profiles: Tuple[Tuple[str, str], ...] = ()


def problems(options: Options) -> List[str]:
    """What is wrong with the options, each with how to fix it (none: :func:`objects` may run)."""
    out: List[str] = []
    if not DNS1123_LABEL.match(options.namespace) or len(options.namespace) > MAX_LABEL_LENGTH:
        out.append(f"--namespace: {options.namespace!r} is not a namespace name (lower-case letters, digits and "
                   f"'-', at most {MAX_LABEL_LENGTH}, a letter or digit at each end)")
    if not options.image or any(c.isspace() for c in options.image):
        out.append(f"--image: {options.image!r} is not an image reference; give the image you built from the "
                   "Dockerfile, e.g. registry.example.com/ascend-compile:1.4.0")
    if options.failure_policy not in FAILURE_POLICIES:
        out.append(f"--failure-policy: {options.failure_policy!r} is not one of {', '.join(FAILURE_POLICIES)}")
    if not MIN_TIMEOUT <= options.timeout_seconds <= MAX_TIMEOUT:
        out.append(f"--timeout-seconds: {options.timeout_seconds} is outside {MIN_TIMEOUT}..{MAX_TIMEOUT}, the range "
                   "the API server allows a webhook")
    if options.replicas < 1:
        out.append(f"--replicas: {options.replicas} must be at least 1 (2, the default, keeps admissions answered "
                   "while one replica restarts)")
    out += _tls_problems(options)
    for key, value in options.namespace_selector:
        why = label_problem(key, value)
        if why:
            out.append(f"--namespace-selector: {key}={value}: {why}")
    return out


def _tls_problems(options: Options) -> List[str]:
    if options.tls not in TLS_SOURCES:
        return [f"--tls: {options.tls!r} is not one of {', '.join(TLS_SOURCES)}"]
    if options.tls == "cert-manager":
        return ["--ca-bundle is only for --tls self-signed (cert-manager injects the CA bundle itself)"] \
            if options.ca_bundle else []
    if not options.ca_bundle:
        return ["--tls self-signed needs --ca-bundle FILE: the PEM certificate of the CA that signed the serving "
                "certificate (docs/admission.md shows the openssl commands)"]
    if b"PRIVATE KEY" in options.ca_bundle:
        return ["--ca-bundle: the file holds a private key; give the CA's certificate (ca.pem), never a key"]
    if _PEM_CERTIFICATE not in options.ca_bundle:
        return ["--ca-bundle: the file holds no PEM certificate (a '-----BEGIN CERTIFICATE-----' block); give the "
                "CA's certificate, e.g. the ca.pem openssl wrote"]
    return []


def label_problem(key: str, value: str) -> str:
    """Why ``key=value`` is not a label Kubernetes accepts ("" when it is)."""
    prefix, slash, name = key.rpartition("/")
    if slash and (not DNS1123_SUBDOMAIN.match(prefix) or len(prefix) > MAX_SUBDOMAIN_LENGTH):
        return f"the key's prefix {prefix!r} is not a DNS subdomain (e.g. example.com)"
    if not QUALIFIED_NAME.match(name) or len(name) > MAX_LABEL_LENGTH:
        return (f"the key's name {name!r} is not a label name (letters, digits, '-', '_' and '.', at most "
                f"{MAX_LABEL_LENGTH}, a letter or digit at each end)")
    if value and (not QUALIFIED_NAME.match(value) or len(value) > MAX_LABEL_LENGTH):
        return f"the value {value!r} is not a label value (as a label name, or empty)"
    return ""


def objects(options: Options) -> List[Dict[str, Any]]:
    """The objects to apply, in the order to apply them (the webhook's configuration last).  Call
    :func:`problems` first: the options are taken as valid."""
    namespace = options.namespace
    out: List[Dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Namespace",
         "metadata": {"name": namespace, "labels": dict(_LABELS)}},
        _meta("v1", "ServiceAccount", namespace),
        cluster_role(),
        {**_meta("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"),
         "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": NAME},
         "subjects": [{"kind": "ServiceAccount", "name": NAME, "namespace": namespace}]},
        {**_meta("v1", "ConfigMap", namespace, CONFIG_MAP), "data": {CONFIG_KEY: options.config_text}},
    ]
    if options.profiles:
        out.append({**_meta("v1", "ConfigMap", namespace, PROFILES_MAP), "data": dict(options.profiles)})
    if options.tls == "cert-manager":
        out += _cert_manager(namespace)
    out.append({**_meta("v1", "Service", namespace),
                "spec": {"selector": dict(_LABELS), "ports": [{"name": "https", "port": 443, "targetPort": "https"}]}})
    out.append(deployment(options))
    if options.replicas > 1:  # with one replica a minimum of one would block every node drain
        out.append({**_meta("policy/v1", "PodDisruptionBudget", namespace),
                    "spec": {"minAvailable": 1, "selector": {"matchLabels": dict(_LABELS)}}})
    out.append(webhook_configuration(options))
    return out


def render(options: Options) -> str:
    """:func:`objects` as one YAML stream, byte for byte the same for the same options."""
    from ..yamlio.dump import dump_documents

    return dump_documents(objects(options))


def _meta(api_version: str, kind: str, namespace: str = "", name: str = NAME) -> Dict[str, Any]:
    metadata: Dict[str, Any] = {"name": name}
    if namespace:
        metadata["namespace"] = namespace
    metadata["labels"] = dict(_LABELS)
    return {"apiVersion": api_version, "kind": kind, "metadata": metadata}


def cluster_role() -> Dict[str, Any]:
    """Read-only access to what the live inventory lists, one rule per API group."""
    groups: Dict[str, List[str]] = {}
    for resource in RESOURCES:
        plural, _, group = resource.partition(".")
        groups.setdefault(group, []).append(plural)
    rules = [{"apiGroups": [group], "resources": sorted(plurals), "verbs": list(READ_VERBS)}
             for group, plurals in sorted(groups.items())]
    return {**_meta("rbac.authorization.k8s.io/v1", "ClusterRole"), "rules": rules}


def _cert_manager(namespace: str) -> List[Dict[str, Any]]:
    issuer = f"{NAME}-selfsigned"
    return [
        {**_meta("cert-manager.io/v1", "Issuer", namespace, issuer), "spec": {"selfSigned": {}}},
        {**_meta("cert-manager.io/v1", "Certificate", namespace),
         "spec": {"secretName": TLS_SECRET, "dnsNames": service_names(namespace),
                  "issuerRef": {"kind": "Issuer", "name": issuer},
                  "privateKey": {"algorithm": "ECDSA", "size": 256, "rotationPolicy": "Always"},
                  "usages": ["server auth"]}},
    ]


def service_names(namespace: str) -> List[str]:
    """The names the API server calls the Service by: the serving certificate's DNS names."""
    return [f"{NAME}.{namespace}.svc", f"{NAME}.{namespace}.svc.cluster.local"]


def serve_args(options: Options) -> List[str]:
    """``webhook serve``'s arguments in the container (the image's entry point is ``ascend-compile webhook serve``)."""
    args = ["--listen", f"0.0.0.0:{PORT}", "--tls-cert", f"{_TLS_DIR}/tls.crt", "--tls-key", f"{_TLS_DIR}/tls.key",
            "--config", f"{_CONFIG_DIR}/{CONFIG_KEY}", "--failure-mode", options.failure_policy.lower(),
            "--log-format", "json"]
    if options.profiles:
        args += ["--profile-dir", _PROFILES_DIR]
    return args + (["--audit"] if options.audit else [])


def deployment(options: Options) -> Dict[str, Any]:
    # a changed config or profile rolls the pods (a ConfigMap mounted as files is not read again by the server)
    config_hash = hashlib.sha256("\0".join([options.config_text, *(f"{name}\0{text}" for name, text in
                                                                    options.profiles)]).encode("utf-8")).hexdigest()
    pod = {"metadata": {"labels": dict(_LABELS), "annotations": {_CONFIG_HASH: config_hash}},
           "spec": {"serviceAccountName": NAME, "terminationGracePeriodSeconds": 30,
                    "securityContext": {"runAsNonRoot": True, "runAsUser": USER_ID, "runAsGroup": USER_ID,
                                        "fsGroup": USER_ID, "seccompProfile": {"type": "RuntimeDefault"}},
                    "affinity": {"podAntiAffinity": {"preferredDuringSchedulingIgnoredDuringExecution": [
                        {"weight": 100, "podAffinityTerm": {"topologyKey": "kubernetes.io/hostname",
                                                            "labelSelector": {"matchLabels": dict(_LABELS)}}}]}},
                    "containers": [_container(options)],
                    "volumes": [{"name": "tls", "secret": {"secretName": TLS_SECRET, "defaultMode": 0o440}},
                                {"name": "config", "configMap": {"name": CONFIG_MAP}},
                                *([{"name": "profiles", "configMap": {"name": PROFILES_MAP}}] if options.profiles
                                  else []),
                                {"name": "tmp", "emptyDir": {"sizeLimit": "64Mi"}}]}}
    return {**_meta("apps/v1", "Deployment", options.namespace),
            "spec": {"replicas": options.replicas, "selector": {"matchLabels": dict(_LABELS)},
                     "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 0, "maxSurge": 1}},
                     "template": pod}}


def _container(options: Options) -> Dict[str, Any]:
    def probe(path: str) -> Dict[str, Any]:
        return {"httpGet": {"path": path, "port": "https", "scheme": "HTTPS"}, "periodSeconds": 10,
                "timeoutSeconds": 2, "failureThreshold": 3}

    return {"name": "webhook", "image": options.image, "args": serve_args(options),
            "ports": [{"name": "https", "containerPort": PORT, "protocol": "TCP"}],
            "env": [{"name": "XDG_CACHE_HOME", "value": "/tmp/cache"}],
            "readinessProbe": probe("/readyz"), "livenessProbe": probe("/healthz"),
            "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "512Mi"}},
            "securityContext": {"allowPrivilegeEscalation": False, "readOnlyRootFilesystem": True,
                                "runAsNonRoot": True, "capabilities": {"drop": ["ALL"]}},
            "volumeMounts": [{"name": "tls", "mountPath": _TLS_DIR, "readOnly": True},
                             {"name": "config", "mountPath": _CONFIG_DIR, "readOnly": True},
                             *([{"name": "profiles", "mountPath": _PROFILES_DIR, "readOnly": True}]
                               if options.profiles else []),
                             {"name": "tmp", "mountPath": "/tmp"}]}


def admitted_kinds(config_kinds: Tuple[PodTemplateKind, ...] = ()) -> Dict[str, List[str]]:
    """API group -> the resources (plurals) the webhook is called for: AscendJobs, Volcano Jobs and every kind of
    the pod-template table and of the config's ``podTemplates``."""
    out: Dict[str, Set[str]] = {ASCEND_JOB_API_GROUP: {ASCEND_JOB_PLURAL}, VOLCANO_JOB_API_GROUP: {VOLCANO_JOB_PLURAL}}
    for entry in BUILTIN + config_kinds:
        for group in entry.groups:
            out.setdefault(group, set()).add(plural_of(entry.kind))
    return {group: sorted(plurals) for group, plurals in sorted(out.items())}


def plural_of(kind: str) -> str:
    """A kind's resource name, as Kubernetes guesses it for a kind whose CRD says none (``Policy`` -> ``policies``)."""
    lower = kind.lower()
    if lower.endswith(("s", "x", "z", "ch", "sh")):
        return lower + "es"
    if lower.endswith("y") and lower[-2:-1] not in ("a", "e", "i", "o", "u"):
        return lower[:-1] + "ies"
    return lower + "s"


def webhook_configuration(options: Options) -> Dict[str, Any]:
    config = _meta("admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration")
    client: Dict[str, Any] = {"service": {"namespace": options.namespace, "name": NAME, "path": VALIDATE_PATH,
                                          "port": 443}}
    if options.tls == "cert-manager":
        config["metadata"]["annotations"] = {_INJECT_CA: f"{options.namespace}/{NAME}"}
    else:
        client["caBundle"] = base64.b64encode(options.ca_bundle).decode("ascii")
    selector: Dict[str, Any] = {"matchExpressions": [{"key": _NAMESPACE_NAME_LABEL, "operator": "NotIn",
                                                      "values": sorted({_SYSTEM_NAMESPACE, options.namespace})}]}
    if options.namespace_selector:
        selector["matchLabels"] = dict(sorted(options.namespace_selector))
    rules = [{"apiGroups": [group], "apiVersions": ["*"], "resources": plurals, "operations": ["CREATE", "UPDATE"],
              "scope": "Namespaced"} for group, plurals in admitted_kinds(options.config_kinds).items()]
    config["webhooks"] = [{"name": WEBHOOK_NAME, "admissionReviewVersions": ["v1"], "clientConfig": client,
                           "rules": rules, "failurePolicy": options.failure_policy, "matchPolicy": "Equivalent",
                           "namespaceSelector": selector, "sideEffects": "None",
                           "timeoutSeconds": options.timeout_seconds}]
    return config
