"""Pieces shared by both job kinds: labels, scheduling hints, container, env, volumes."""
from __future__ import annotations

from typing import Any, Dict, List, Mapping, Optional

from ..profiles import NODE_SELECTOR, SCHEDULE_POLICY
from ..spec import Spec

RING_LABEL = "ring-controller.atlas"
SCHEDULE_POLICY_ANNOTATION = "huawei.com/schedule_policy"
CONTAINER_NAME = "ascend"  # the operator looks for this name
PORT_NAME = "ascendjob-port"
PORT = 2222
RANKTABLE_VOLUME = "ascend-910-config"
RANKTABLE_MOUNT = "/user/serverid/devindex/config"


def metadata(name: str, namespace: Optional[str], labels: Mapping[str, str] = (),
             annotations: Mapping[str, str] = ()) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": name}
    if namespace:
        out["namespace"] = namespace
    if labels:
        out["labels"] = dict(labels)
    if annotations:
        out["annotations"] = dict(annotations)
    return out


def job_labels(spec: Spec, extra: Mapping[str, str]) -> Dict[str, str]:
    """Job labels: the generated ones, then profile labels, then the user's (which win)."""
    labels: Dict[str, str] = dict(extra)
    labels[RING_LABEL] = spec.profile.ring_controller
    labels.update(spec.profile.job_labels)
    if spec.tor_affinity:
        labels["tor-affinity"] = spec.tor_affinity
    if spec.fault_scheduling:
        labels["fault-scheduling"] = spec.fault_scheduling
    if spec.fault_retry_times is not None:
        labels["fault-retry-times"] = str(spec.fault_retry_times)
    labels.update(spec.labels)
    return labels


def job_annotations(spec: Spec) -> Dict[str, str]:
    annotations: Dict[str, str] = {}
    if spec.scheduling == SCHEDULE_POLICY and spec.profile.schedule_policy:
        annotations[SCHEDULE_POLICY_ANNOTATION] = spec.profile.schedule_policy
    if spec.sp_block is not None:
        annotations["sp-block"] = str(spec.sp_block)
    if spec.ra_block is not None:
        annotations["ra-block"] = str(spec.ra_block)
    annotations.update(spec.annotations)
    return annotations


def node_selector(spec: Spec) -> Dict[str, str]:
    """Node selectors of the MindCluster <= 26.0 dialect; the 26.1 dialect uses the annotation."""
    selector: Dict[str, str] = {}
    if spec.scheduling == NODE_SELECTOR:
        if spec.host_arch:
            selector["host-arch"] = spec.host_arch
        if spec.profile.accelerator_type:
            selector["accelerator-type"] = spec.profile.accelerator_type
    return selector


def anti_affinity(label: str, job_name: str) -> Dict[str, Any]:
    """One pod per node: no two pods carrying ``label=job_name`` share a host."""
    return {
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{
                "labelSelector": {"matchExpressions": [{"key": label, "operator": "In", "values": [job_name]}]},
                "topologyKey": "kubernetes.io/hostname",
            }]
        }
    }


def field_env(name: str, field_path: str) -> Dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": field_path}}}


def visible_devices_env(resource: str) -> Dict[str, Any]:
    """ASCEND_VISIBLE_DEVICES reads the annotation the scheduler writes for the requested resource."""
    return field_env("ASCEND_VISIBLE_DEVICES", f"metadata.annotations['{resource}']")


def resources(spec: Spec, npus: int) -> Dict[str, Any]:
    amounts: Dict[str, Any] = {}
    if npus:
        amounts[spec.profile.resource] = npus
    if spec.cpu is not None:
        amounts["cpu"] = spec.cpu
    if spec.memory is not None:
        amounts["memory"] = spec.memory
    if not amounts:
        return {}
    return {"limits": dict(amounts), "requests": dict(amounts)}


def container(spec: Spec, env: List[Dict[str, Any]], npus: int, ports: bool,
              extra_mounts: List[Dict[str, Any]]) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": CONTAINER_NAME, "image": spec.image, "imagePullPolicy": spec.image_pull_policy}
    if env:
        out["env"] = env
    if spec.command:
        out["command"] = list(spec.command)
    if spec.args:
        out["args"] = list(spec.args)
    if spec.working_dir:
        out["workingDir"] = spec.working_dir
    if ports:
        out["ports"] = [{"containerPort": PORT, "name": PORT_NAME}]
    res = resources(spec, npus)
    if res:
        out["resources"] = res
    out["volumeMounts"] = extra_mounts + volume_mounts(spec)
    return out


def user_env(spec: Spec) -> List[Dict[str, Any]]:
    return [dict(item) for item in spec.env]


def ranktable_mount() -> Dict[str, Any]:
    return {"name": RANKTABLE_VOLUME, "mountPath": RANKTABLE_MOUNT}


def ranktable_volume(job_name: str) -> Dict[str, Any]:
    from .configmap import ranktable_name

    return {"name": RANKTABLE_VOLUME, "configMap": {"name": ranktable_name(job_name)}}


_STANDARD_VOLUMES = (
    ({"name": "ascend-driver", "hostPath": {"path": "/usr/local/Ascend/driver"}},
     {"name": "ascend-driver", "mountPath": "/usr/local/Ascend/driver"}),
    ({"name": "dshm", "emptyDir": {"medium": "Memory"}}, {"name": "dshm", "mountPath": "/dev/shm"}),
    ({"name": "localtime", "hostPath": {"path": "/etc/localtime"}},
     {"name": "localtime", "mountPath": "/etc/localtime"}),
)


def volume_mounts(spec: Spec) -> List[Dict[str, Any]]:
    mounts: List[Dict[str, Any]] = []
    for vol in spec.volumes:
        mount: Dict[str, Any] = {"name": vol.name, "mountPath": vol.mount_path}
        if vol.read_only:
            mount["readOnly"] = True
        if vol.sub_path:
            mount["subPath"] = vol.sub_path
        mounts.append(mount)
    mounts.extend(dict(m) for _, m in _STANDARD_VOLUMES)
    return mounts


def volumes(spec: Spec) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    if spec.ranktable == "file":
        out.append(ranktable_volume(spec.name))
    for vol in spec.volumes:
        entry: Dict[str, Any] = {"name": vol.name}
        entry.update({k: dict(v) for k, v in vol.source.items()})
        out.append(entry)
    out.extend(_deep_copy(v) for v, _ in _STANDARD_VOLUMES)
    return out


def _deep_copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value


def pod_spec(spec: Spec, containers: List[Dict[str, Any]], affinity: Optional[Dict[str, Any]],
             restart_policy: Optional[str] = None) -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    if affinity:
        out["affinity"] = affinity
    if spec.host_network:
        out["hostNetwork"] = True
        out["dnsPolicy"] = "ClusterFirstWithHostNet"
    out["automountServiceAccountToken"] = False
    selector = node_selector(spec)
    if selector:
        out["nodeSelector"] = selector
    out["containers"] = containers
    out["volumes"] = volumes(spec)
    if restart_policy:
        out["restartPolicy"] = restart_policy
    return out


def pod_template(spec: Spec, pod: Dict[str, Any], labels: Mapping[str, str]) -> Dict[str, Any]:
    from .patch import apply_patch

    meta: Dict[str, Any] = {"labels": {**labels, **spec.pod_labels}}
    if spec.pod_annotations:
        meta["annotations"] = dict(spec.pod_annotations)
    template = {"metadata": meta, "spec": pod}
    if spec.pod_template_patch:
        template = apply_patch(template, spec.pod_template_patch)
    return template
