"""Pieces shared by both job kinds: labels, scheduling hints, container, env, ports, volumes, pod template."""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..hardware.profiles import NODE_SELECTOR, SCHEDULE_POLICY
from ..jobspec.model import Spec
from ..jobspec.model import Replica, Volume
from ..vocabulary import (ACCELERATOR_TYPE_LABEL, AFFINITY_CONFIG_ANNOTATION, DEFAULT_PORT,
                          DRIVER_VOLUME, ENABLED, FAULT_RETRY_TIMES_LABEL, FAULT_SCHEDULING_LABEL, HOST_ARCH_LABEL,
                          LOCALTIME_VOLUME, MULTILEVEL_POLICY, POD_IP_ENV, POD_IP_FIELD, POD_RESCHEDULING_LABEL,
                          PORT_NAME, RA_BLOCK_ANNOTATION, RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_HOSTPATH_VOLUME,
                          RANKTABLE_MOUNT_PATH, RANKTABLE_SHARED_DIR, RECOVER_STRATEGY_ANNOTATION, RESET_MOUNT_PATH,
                          RESET_SHARED_DIR, RESET_VOLUME, RING_LABEL, SCHEDULE_POLICY_ANNOTATION, SHM_VOLUME,
                          SP_BLOCK_ANNOTATION, SUB_HEALTHY_LABEL, TASKD_PORT, TASKD_PORT_NAME, TOR_AFFINITY_LABEL,
                          TTP_PORT, TTP_PORT_ENV, TTP_PORT_NAME, VISIBLE_DEVICES_ENV,
                          WAIT_RESCHEDULE_TIMEOUT_ANNOTATION, ranktable_configmap_name, reset_configmap_name,
                          visible_devices_field_path)
from ..hardware import arithmetic

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
    """Job labels: the generated ones, then profile labels, then the user's (which add keys, never replace)."""
    labels: Dict[str, str] = dict(extra)
    labels[RING_LABEL] = spec.profile.ring_controller
    labels.update(spec.profile.job_labels)
    if spec.tor_affinity:
        labels[TOR_AFFINITY_LABEL] = spec.tor_affinity
    labels.update(resilience_labels(spec))
    labels.update(spec.labels)
    return labels


def resilience_labels(spec: Spec) -> Dict[str, str]:
    res = spec.resilience
    labels: Dict[str, str] = {}
    if res.fault_scheduling:
        labels[FAULT_SCHEDULING_LABEL] = res.fault_scheduling
    if res.fault_retry_times is not None:
        labels[FAULT_RETRY_TIMES_LABEL] = str(res.fault_retry_times)
    if res.pod_rescheduling:
        labels[POD_RESCHEDULING_LABEL] = ENABLED
    if res.sub_healthy_strategy:
        labels[SUB_HEALTHY_LABEL] = res.sub_healthy_strategy
    return labels


def job_annotations(spec: Spec) -> Dict[str, str]:
    annotations: Dict[str, str] = {}
    if spec.multi_level:
        annotations[SCHEDULE_POLICY_ANNOTATION] = MULTILEVEL_POLICY
        annotations[AFFINITY_CONFIG_ANNOTATION] = arithmetic.multi_level_config(spec.multi_level)
    elif spec.scheduling == SCHEDULE_POLICY and spec.profile.schedule_policy:
        annotations[SCHEDULE_POLICY_ANNOTATION] = spec.profile.schedule_policy
    if spec.sp_block is not None:
        annotations[SP_BLOCK_ANNOTATION] = str(spec.sp_block)
    if spec.ra_block is not None:
        annotations[RA_BLOCK_ANNOTATION] = str(spec.ra_block)
    if spec.resilience.recover_strategies:
        annotations[RECOVER_STRATEGY_ANNOTATION] = ",".join(spec.resilience.recover_strategies)
    if spec.resilience.wait_reschedule_timeout is not None:
        annotations[WAIT_RESCHEDULE_TIMEOUT_ANNOTATION] = str(spec.resilience.wait_reschedule_timeout)
    annotations.update(spec.annotations)
    return annotations


def node_selector(spec: Spec) -> Dict[str, str]:
    """Node selectors: ``accelerator-type`` in the node-selector dialect (the schedulePolicy dialect names the
    handler with the annotation instead); ``host-arch`` whenever the spec resolved one (always in the node-selector
    dialect, only when asked for in the annotation dialect)."""
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


def resilience_env(spec: Spec) -> List[Dict[str, Any]]:
    """POD_IP for TaskD and MindIO, TTP_PORT for MindIO's last-words checkpoint (the resumable-training docs)."""
    env: List[Dict[str, Any]] = []
    if spec.resilience.taskd:
        env.append(field_env(POD_IP_ENV, POD_IP_FIELD))
    if spec.resilience.mindio_ttp:
        env.append({"name": TTP_PORT_ENV, "value": str(TTP_PORT)})
    return env


def user_env(spec: Spec, rtype: str) -> List[Dict[str, Any]]:
    """The shared env with the replica type's on top: a name in both takes the replica's entry."""
    mine = {item["name"]: item for item in spec.replica(rtype).env}
    out = [dict(mine.pop(item["name"], item)) for item in spec.env]
    return out + [dict(item) for item in mine.values()]


def resources(spec: Spec, settings: Replica, npus: int) -> Dict[str, Any]:
    amounts: Dict[str, Any] = {}
    if npus:
        amounts[spec.profile.resource] = npus
    cpu = settings.cpu if settings.cpu is not None else spec.cpu
    memory = settings.memory if settings.memory is not None else spec.memory
    if cpu is not None:
        amounts["cpu"] = cpu
    if memory is not None:
        amounts["memory"] = memory
    if not amounts:
        return {}
    return {"limits": dict(amounts), "requests": dict(amounts)}


def ports(spec: Spec, rtype: str, leader_port: bool) -> List[Dict[str, Any]]:
    out: List[Dict[str, Any]] = []
    if leader_port:
        out.append({"containerPort": DEFAULT_PORT, "name": PORT_NAME})
    if spec.resilience.taskd:
        out.append({"containerPort": TASKD_PORT, "name": TASKD_PORT_NAME})
    if spec.resilience.mindio_ttp:
        out.append({"containerPort": TTP_PORT, "name": TTP_PORT_NAME})
    return out + [p.as_dict() for p in spec.ports + spec.replica(rtype).ports]


def container(spec: Spec, rtype: str, env: List[Dict[str, Any]], npus: int, leader_port: bool) -> Dict[str, Any]:
    """The container of ``rtype``'s pods (``ascend``, or a Volcano Job's ``containerName``); ``env`` is the generated env (the user's follows it)."""
    out: Dict[str, Any] = {"name": spec.container_name, "image": spec.image, "imagePullPolicy": spec.image_pull_policy}
    env = env + user_env(spec, rtype)
    if env:
        out["env"] = env
    if spec.command:
        out["command"] = list(spec.command)
    if spec.args:
        out["args"] = list(spec.args)
    if spec.working_dir:
        out["workingDir"] = spec.working_dir
    declared = ports(spec, rtype, leader_port)
    if declared:
        out["ports"] = declared
    res = resources(spec, spec.replica(rtype), npus)
    if res:
        out["resources"] = res
    out["volumeMounts"] = [mount for _, mount in pod_volumes(spec, rtype, npus)]
    return out


def has_ranktable_volume(spec: Spec) -> bool:
    """A ranktable file in the pod: the rings-config ConfigMap (file) or the operator's shared directory."""
    return spec.ranktable in ("file", "hostPath")


def _ranktable(spec: Spec) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The ranktable (volume, mount): the ConfigMap, the shared directory on the node, or shared storage."""
    if spec.ranktable == "hostPath" and spec.ranktable_volume is not None:
        return _pair(spec.ranktable_volume)
    if spec.ranktable == "hostPath":
        path = f"{RANKTABLE_SHARED_DIR}/{spec.namespace}.{spec.name}"
        return ({"name": RANKTABLE_HOSTPATH_VOLUME, "hostPath": {"path": path, "type": "Directory"}},
                {"name": RANKTABLE_HOSTPATH_VOLUME, "mountPath": RANKTABLE_MOUNT_PATH})
    return ({"name": RANKTABLE_CONFIGMAP_VOLUME, "configMap": {"name": ranktable_configmap_name(spec.name)}},
            {"name": RANKTABLE_CONFIGMAP_VOLUME, "mountPath": RANKTABLE_MOUNT_PATH})


def _reset(spec: Spec) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """The reset information (volume, mount): the node directory the device plugin mirrors, or the ConfigMap."""
    name = reset_configmap_name(spec.name)
    if spec.resilience.reset_config == "configMap":
        volume: Dict[str, Any] = {"name": RESET_VOLUME, "configMap": {"name": name}}
    else:
        volume = {"name": RESET_VOLUME, "hostPath": {"path": f"{RESET_SHARED_DIR}/{spec.namespace}.{name}"}}
    return volume, {"name": RESET_VOLUME, "mountPath": RESET_MOUNT_PATH, "readOnly": True}


def _pair(vol: Volume) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    volume: Dict[str, Any] = {"name": vol.name}
    volume.update({k: dict(v) for k, v in vol.source.items()})
    mount: Dict[str, Any] = {"name": vol.name, "mountPath": vol.mount_path}
    if vol.read_only:
        mount["readOnly"] = True
    if vol.sub_path:
        mount["subPath"] = vol.sub_path
    return volume, mount


def _standard_volumes(shm_size: Any) -> List[Tuple[Dict[str, Any], Dict[str, Any]]]:
    """(volume, mount) pairs every pod gets: driver, shared memory, host time."""
    shm: Dict[str, Any] = {"medium": "Memory"}
    if shm_size is not None:
        shm["sizeLimit"] = shm_size
    return [
        ({"name": DRIVER_VOLUME, "hostPath": {"path": "/usr/local/Ascend/driver"}},
         {"name": DRIVER_VOLUME, "mountPath": "/usr/local/Ascend/driver"}),
        ({"name": SHM_VOLUME, "emptyDir": shm}, {"name": SHM_VOLUME, "mountPath": "/dev/shm"}),
        ({"name": LOCALTIME_VOLUME, "hostPath": {"path": "/etc/localtime"}},
         {"name": LOCALTIME_VOLUME, "mountPath": "/etc/localtime"}),
    ]


def pod_volumes(spec: Spec, rtype: str, npus: int) -> List[Tuple[Dict[str, Any], Dict[str, Any]]]:
    """(volume, mount) pairs of ``rtype``'s pods, in order.  The ranktable and the reset information live in
    directories of NPU nodes (and are read by the training processes), so NPU pods only mount them."""
    pairs: List[Tuple[Dict[str, Any], Dict[str, Any]]] = []
    if npus and has_ranktable_volume(spec):
        pairs.append(_ranktable(spec))
    if npus and spec.resilience.reset_config:
        pairs.append(_reset(spec))
    settings = spec.replica(rtype)
    pairs.extend(_pair(vol) for vol in spec.volumes + settings.volumes)
    pairs.extend(_standard_volumes(settings.shm_size if settings.shm_size is not None else spec.shm_size))
    return pairs


def pod_spec(spec: Spec, rtype: str, containers: List[Dict[str, Any]], affinity: Optional[Dict[str, Any]],
             npus: int, restart_policy: Optional[str] = None) -> Dict[str, Any]:
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
    if spec.resilience.termination_grace_period is not None:
        out["terminationGracePeriodSeconds"] = spec.resilience.termination_grace_period
    out["containers"] = containers
    out["volumes"] = [volume for volume, _ in pod_volumes(spec, rtype, npus)]
    if restart_policy:
        out["restartPolicy"] = restart_policy
    return out


def pod_template(spec: Spec, pod: Dict[str, Any], labels: Mapping[str, str]) -> Dict[str, Any]:
    """The pod template, before the patches (:func:`ascend_compile.emit.emit` merges them in)."""
    meta: Dict[str, Any] = {"labels": {**labels, **spec.pod_labels}}
    if spec.pod_annotations:
        meta["annotations"] = dict(spec.pod_annotations)
    return {"metadata": meta, "spec": pod}
