"""What a node's kubelet does with a placed pod that kwok cannot show: objects a pod needs that do not exist.

kwok plays the kubelet of the fake nodes and runs every placed pod, while a real kubelet never starts a pod whose
non-optional ``configMap`` or ``secret`` volume (or projected source) names an object missing from its namespace
(the pod stays ``ContainerCreating``, event ``FailedMount``: ``MountVolume.SetUp failed for volume "<v>" :
configmap "<name>" not found``, pkg/volume/configmap/configmap.go and secret/secret.go SetUpAt), nor a container
whose non-optional ``envFrom`` or ``env[].valueFrom`` names one (``CreateContainerConfigError``: ``configmap
"<name>" not found``, pkg/kubelet/kubelet_pods.go makeEnvironmentVariables).  It keeps trying, so the pod starts
once the object is created; the oracle creates a case's objects before its job, so one missing while the job is
judged never exists.

Which keys an object holds is not looked at (a missing key fails the same way, but no job here names one).
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Set, Tuple

CONFIG_MAP, SECRET = "ConfigMap", "Secret"
#: what every namespace of a real cluster holds and the simulated one lacks: kube-controller-manager's
#: root-ca-cert-publisher writes this ConfigMap into each namespace (no kube-controller-manager runs here)
IN_EVERY_NAMESPACE: Set[Tuple[str, str]] = {(CONFIG_MAP, "kube-root-ca.crt")}

FAILED_MOUNT = "FailedMount"
CONFIG_ERROR = "CreateContainerConfigError"

#: a reference: (kind, name, reason the kubelet gives, where in the pod)
Reference = Tuple[str, str, str, str]


def _dict(value: Any) -> Dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> List[Any]:
    return value if isinstance(value, list) else []


def _required(source: Dict[str, Any], kind: str) -> str:
    """The name a non-optional reference gives ("" when it is optional or names none)."""
    name = source.get("secretName", source.get("name")) if kind == SECRET else source.get("name")
    return name if isinstance(name, str) and name and source.get("optional") is not True else ""


def _volume_references(spec: Dict[str, Any]) -> Iterable[Reference]:
    for volume in _list(spec.get("volumes")):
        volume = _dict(volume)
        where = f'volume "{volume.get("name")}"'
        sources = [(CONFIG_MAP, _dict(volume.get("configMap"))), (SECRET, _dict(volume.get("secret")))]
        for item in _list(_dict(volume.get("projected")).get("sources")):
            sources += [(CONFIG_MAP, _dict(_dict(item).get("configMap"))), (SECRET, _dict(_dict(item).get("secret")))]
        for kind, source in sources:
            name = _required(source, kind)
            if name:
                yield kind, name, FAILED_MOUNT, where


def _env_references(spec: Dict[str, Any]) -> Iterable[Reference]:
    for container in _list(spec.get("initContainers")) + _list(spec.get("containers")):
        container = _dict(container)
        where = f'container "{container.get("name")}"'
        for item in _list(container.get("envFrom")):
            for kind, key in ((CONFIG_MAP, "configMapRef"), (SECRET, "secretRef")):
                name = _required(_dict(_dict(item).get(key)), kind)
                if name:
                    yield kind, name, CONFIG_ERROR, where
        for item in _list(container.get("env")):
            value_from = _dict(_dict(item).get("valueFrom"))
            for kind, key in ((CONFIG_MAP, "configMapKeyRef"), (SECRET, "secretKeyRef")):
                name = _required(_dict(value_from.get(key)), kind)
                if name:
                    yield kind, name, CONFIG_ERROR, where


def references(pod_spec: Dict[str, Any]) -> List[Reference]:
    """Every ConfigMap and Secret a pod cannot start without, in the pod's order (volumes first)."""
    return [*_volume_references(pod_spec), *_env_references(pod_spec)]


def missing(pod_spec: Dict[str, Any], existing: Set[Tuple[str, str]]) -> List[Tuple[str, str]]:
    """(reason, message) for each object the pod needs that is not among ``existing`` ((kind, name) of its
    namespace), worded as the kubelet's event; empty when the kubelet would start it."""
    out = []
    for kind, name, reason, where in references(pod_spec):
        if (kind, name) in existing or (kind, name) in IN_EVERY_NAMESPACE:
            continue
        text = f'{kind.lower()} "{name}" not found'
        out.append((reason, f"MountVolume.SetUp failed for {where} : {text}" if reason == FAILED_MOUNT
                    else f"{where}: Error: {text}"))
    return out
