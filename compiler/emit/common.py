"""Pieces shared by both job kinds: labels, scheduling hints, container, env, volumes."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..profiles import NODE_SELECTOR, SCHEDULE_POLICY
from ..jobspec import Spec
from ..vocabulary import (ACCELERATOR_TYPE_LABEL, CONTAINER_NAME, DEFAULT_PORT, DRIVER_VOLUME, FAULT_RETRY_TIMES_LABEL,
                          LOCALTIME_VOLUME, SHM_VOLUME,
                          FAULT_SCHEDULING_LABEL, HOST_ARCH_LABEL, PORT_NAME, RA_BLOCK_ANNOTATION,
                          RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_HOSTPATH_VOLUME, RANKTABLE_MOUNT_PATH,
                          RANKTABLE_SHARED_DIR, RING_LABEL, SCHEDULE_POLICY_ANNOTATION, SP_BLOCK_ANNOTATION,
                          TOR_AFFINITY_LABEL, VISIBLE_DEVICES_ENV, ranktable_configmap_name,
                          visible_devices_field_path)
#: an empty, read-only mapping: the default of optional label/annotation arguments
_NO_LABELS: Mapping[str, str] = MappingProxyType({})


def metadata(name: str, namespace: Optional[str], labels: Mapping[str, str] = _NO_LABELS,
             annotations: Mapping[str, str] = _NO_LABELS) -> Dict[str, Any]:
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
        labels[TOR_AFFINITY_LABEL] = spec.tor_affinity
    if spec.fault_scheduling:
        labels[FAULT_SCHEDULING_LABEL] = spec.fault_scheduling
    if spec.fault_retry_times is not None:
        labels[FAULT_RETRY_TIMES_LABEL] = str(spec.fault_retry_times)
    labels.update(spec.labels)
    return labels


def job_annotations(spec: Spec) -> Dict[str, str]:
    annotations: Dict[str, str] = {}
    if spec.scheduling == SCHEDULE_POLICY and spec.profile.schedule_policy:
        annotations[SCHEDULE_POLICY_ANNOTATION] = spec.profile.schedule_policy
    if spec.sp_block is not None:
        annotations[SP_BLOCK_ANNOTATION] = str(spec.sp_block)
    if spec.ra_block is not None:
        annotations[RA_BLOCK_ANNOTATION] = str(spec.ra_block)
    annotations.update(spec.annotations)
    return annotations


def node_selector(spec: Spec) -> Dict[str, str]:
    """Node selectors: ``accelerator-type`` in the MindCluster <= 26.0 dialect (26.1 uses the annotation);
    ``host-arch`` whenever the spec resolved one (always in that dialect, only when asked for in 26.1's)."""
    selector: Dict[str, str] = {}
    if spec.host_arch:
        selector[HOST_ARCH_LABEL] = spec.host_arch
    if spec.scheduling == NODE_SELECTOR and spec.profile.accelerator_type:
        selector[ACCELERATOR_TYPE_LABEL] = spec.profile.accelerator_type
    return selector


def anti_affinity(label: str, job_name: str, also: Mapping[str, str] = _NO_LABELS) -> Dict[str, Any]:
    """One pod per node: no two pods carrying ``label=job_name`` (and every ``also`` label) share a host."""
    match = [{"key": label, "operator": "In", "values": [job_name]}]
    match += [{"key": key, "operator": "In", "values": [value]} for key, value in dict(also).items()]
    return {
        "podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{
                "labelSelector": {"matchExpressions": match},
                "topologyKey": "kubernetes.io/hostname",
            }]
        }
    }


def field_env(name: str, field_path: str) -> Dict[str, Any]:
    return {"name": name, "valueFrom": {"fieldRef": {"fieldPath": field_path}}}


def visible_devices_env(resource: str) -> Dict[str, Any]:
    """ASCEND_VISIBLE_DEVICES reads the annotation the scheduler writes for the requested resource."""
    return field_env(VISIBLE_DEVICES_ENV, visible_devices_field_path(resource))


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
        out["ports"] = [{"containerPort": DEFAULT_PORT, "name": PORT_NAME}]
    res = resources(spec, npus)
    if res:
        out["resources"] = res
    out["volumeMounts"] = extra_mounts + volume_mounts(spec)
    return out


def user_env(spec: Spec) -> List[Dict[str, Any]]:
    return [dict(item) for item in spec.env]


def has_ranktable_volume(spec: Spec) -> bool:
    """A ranktable file in the pod: the rings-config ConfigMap (file) or the operator's shared directory."""
    return spec.ranktable in ("file", "hostPath")


def _ranktable_volume_name(spec: Spec) -> str:
    return RANKTABLE_HOSTPATH_VOLUME if spec.ranktable == "hostPath" else RANKTABLE_CONFIGMAP_VOLUME


def ranktable_mount(spec: Spec) -> Dict[str, Any]:
    return {"name": _ranktable_volume_name(spec), "mountPath": RANKTABLE_MOUNT_PATH}


def ranktable_volume(spec: Spec) -> Dict[str, Any]:
    if spec.ranktable == "hostPath":
        path = f"{RANKTABLE_SHARED_DIR}/{spec.namespace}.{spec.name}"
        return {"name": RANKTABLE_HOSTPATH_VOLUME, "hostPath": {"path": path, "type": "Directory"}}
    return {"name": RANKTABLE_CONFIGMAP_VOLUME, "configMap": {"name": ranktable_configmap_name(spec.name)}}


def _standard_volumes(spec: Spec) -> List[Tuple[Dict[str, Any], Dict[str, Any]]]:
    """(volume, mount) pairs every NPU pod gets: driver, shared memory, host time."""
    shm: Dict[str, Any] = {"medium": "Memory"}
    if spec.shm_size is not None:
        shm["sizeLimit"] = spec.shm_size
    return [
        ({"name": DRIVER_VOLUME, "hostPath": {"path": "/usr/local/Ascend/driver"}},
         {"name": DRIVER_VOLUME, "mountPath": "/usr/local/Ascend/driver"}),
        ({"name": SHM_VOLUME, "emptyDir": shm}, {"name": SHM_VOLUME, "mountPath": "/dev/shm"}),
        ({"name": LOCALTIME_VOLUME, "hostPath": {"path": "/etc/localtime"}},
         {"name": LOCALTIME_VOLUME, "mountPath": "/etc/localtime"}),
    ]


def volume_mounts(spec: Spec) -> List[Dict[str, Any]]:
    mounts: List[Dict[str, Any]] = []
    for vol in spec.volumes:
        mount: Dict[str, Any] = {"name": vol.name, "mountPath": vol.mount_path}
        if vol.read_only:
            mount["readOnly"] = True
        if vol.sub_path:
            mount["subPath"] = vol.sub_path
        mounts.append(mount)
    mounts.extend(m for _, m in _standard_volumes(spec))
    return mounts


def volumes(spec: Spec) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    if has_ranktable_volume(spec):
        out.append(ranktable_volume(spec))
    for vol in spec.volumes:
        entry: Dict[str, Any] = {"name": vol.name}
        entry.update({k: dict(v) for k, v in vol.source.items()})
        out.append(entry)
    out.extend(v for v, _ in _standard_volumes(spec))
    return out


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
