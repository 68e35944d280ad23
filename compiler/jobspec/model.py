"""The compact job spec as the compiler uses it: a checked, fully resolved :class:`Spec`.

A spec is a Kubernetes-style object (``apiVersion: ascend-compile.io/v1alpha1``,
``kind: TrainingJob``) so kustomize and kpt can carry it.  Its JSON Schema is
``schemas/trainingjob-v1alpha1.json``; :mod:`ascend_compile.jobspec.resolve` turns
a document into a :class:`Spec`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional, Tuple

from ..profiles import NODE_SELECTOR, Profile
from ..vocabulary import (DRIVER_VOLUME, FRAMEWORK_ENV, HCCL_IF_IP_ENV, LOCALTIME_VOLUME, POD_UID_ENV,
                          RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_HOSTPATH_VOLUME, SHM_VOLUME, VISIBLE_DEVICES_ENV,
                          XDL_IP_ENV)

API_VERSION = "ascend-compile.io/v1alpha1"
KIND = "TrainingJob"


@dataclass(frozen=True)
class Volume:
    name: str
    mount_path: str
    source: Dict[str, Any]  # the Kubernetes volume source, e.g. {"nfs": {...}}
    read_only: bool = False
    sub_path: Optional[str] = None


@dataclass(frozen=True)
class Spec:
    """A checked spec with every default resolved: all that emission needs."""

    name: str
    namespace: Optional[str]
    framework: str
    target: str
    profile: Profile
    pods: int
    npus_per_pod: int
    image: str
    image_pull_policy: str = "IfNotPresent"
    command: Tuple[str, ...] = ()
    args: Tuple[str, ...] = ()
    working_dir: Optional[str] = None
    env: Tuple[Dict[str, Any], ...] = ()
    cpu: Any = None
    memory: Any = None
    shm_size: Any = None  # sizeLimit of the /dev/shm tmpfs; None = unlimited (the node's memory)
    volumes: Tuple[Volume, ...] = ()
    queue: str = "default"
    host_arch: Optional[str] = None
    scheduling: str = NODE_SELECTOR
    ranktable: str = "env"
    tor_affinity: Optional[str] = None
    sp_block: Optional[int] = None
    ra_block: Optional[int] = None
    retries: Optional[int] = None
    fault_scheduling: Optional[str] = None
    fault_retry_times: Optional[int] = None
    host_network: bool = False
    create_namespace: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    pod_labels: Mapping[str, str] = field(default_factory=dict)
    pod_annotations: Mapping[str, str] = field(default_factory=dict)
    pod_template_patch: Optional[Dict[str, Any]] = None
    source: str = ""

    @property
    def total_npus(self) -> int:
        return self.pods * self.npus_per_pod


def is_spec(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND and str(data.get("apiVersion", "")).startswith(
        "ascend-compile.io/")


#: volume names the compiler adds itself
RESERVED_VOLUMES = frozenset({DRIVER_VOLUME, SHM_VOLUME, LOCALTIME_VOLUME, RANKTABLE_CONFIGMAP_VOLUME,
                              RANKTABLE_HOSTPATH_VOLUME})
#: env names the compiler wires itself
GENERATED_ENV = frozenset({VISIBLE_DEVICES_ENV, XDL_IP_ENV, POD_UID_ENV, HCCL_IF_IP_ENV, FRAMEWORK_ENV})
