"""The compact job spec as the compiler uses it: a checked, fully resolved :class:`Spec`.

A spec is a Kubernetes-style object (``apiVersion: ascend-compile.io/v1alpha1``,
``kind: TrainingJob``) so kustomize and kpt can carry it.  Its JSON Schema is
``schemas/trainingjob-v1alpha1.json``; :mod:`ascend_compile.jobspec.resolve` turns
a document into a :class:`Spec`.
"""
from __future__ import annotations

from typing import Any, Dict, Mapping, Optional, Tuple

from ..hardware.profiles import NODE_SELECTOR, Profile
from ..records import field, record
from ..vocabulary import (CONTAINER_NAME, DRIVER_VOLUME, DUMP_STRATEGY, FRAMEWORK_ENV, HCCL_IF_IP_ENV,
                          LOCALTIME_VOLUME, POD_UID_ENV, RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_HOSTPATH_VOLUME,
                          RESET_VOLUME, SHM_VOLUME, SUB_HEALTHY_HOT_SWITCH, VISIBLE_DEVICES_ENV, VOLCANO_TASK_NAME,
                          XDL_IP_ENV)

API_VERSION = "ascend-compile.io/v1alpha1"
KIND = "TrainingJob"


@record(frozen=True)
class Volume:
    name: str
    mount_path: str
    source: Dict[str, Any]  # the Kubernetes volume source, e.g. {"nfs": {...}}
    read_only: bool = False
    sub_path: Optional[str] = None


@record(frozen=True)
class Port:
    name: str
    container_port: int
    protocol: Optional[str] = None

    def as_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"containerPort": self.container_port, "name": self.name}
        if self.protocol:
            out["protocol"] = self.protocol
        return out


@record(frozen=True)
class Replica:
    """The settings of one replica type over the shared ones (``spec.replicaTypes.<type>``)."""

    env: Tuple[Dict[str, Any], ...] = ()
    volumes: Tuple[Volume, ...] = ()
    ports: Tuple[Port, ...] = ()
    #: None: the shared value
    cpu: Any = None
    memory: Any = None
    shm_size: Any = None
    restart_policy: Optional[str] = None
    patch: Optional[Dict[str, Any]] = None


#: the settings of a replica type the spec says nothing about
NO_REPLICA_SETTINGS = Replica()


@record(frozen=True)
class Resilience:
    """Fault tolerance as the spec resolved it (every label and annotation the scheduler and operator read)."""

    fault_scheduling: Optional[str] = None  # grace | force | off; None: no label
    fault_retry_times: Optional[int] = None
    pod_rescheduling: bool = False
    recover_strategies: Tuple[str, ...] = ()
    wait_reschedule_timeout: Optional[int] = None
    #: how pods read reset-config-<job>: "hostPath" | "configMap"; None: the job has no reset ConfigMap
    reset_config: Optional[str] = None
    sub_healthy_strategy: Optional[str] = None
    termination_grace_period: Optional[int] = None

    @property
    def taskd(self) -> bool:
        """TaskD runs in the pods (its port and POD_IP): Pod-level or process-level recovery, or hot switch."""
        return self.pod_rescheduling or bool(self.recover_strategies) or self.sub_healthy_strategy == SUB_HEALTHY_HOT_SWITCH

    @property
    def mindio_ttp(self) -> bool:
        """MindIO's TTP port is declared: the dump strategy saves last words through it."""
        return DUMP_STRATEGY in self.recover_strategies


@record(frozen=True)
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
    ports: Tuple[Port, ...] = ()
    restart_policy: Optional[str] = None  # None: the target's default
    queue: str = "default"
    host_arch: Optional[str] = None
    scheduling: str = NODE_SELECTOR
    ranktable: str = "env"
    #: the ``ranktable`` volume in hostPath mode when it is shared storage, not the node's directory
    ranktable_volume: Optional[Volume] = None
    scheduler_holds_npus: bool = False
    tor_affinity: Optional[str] = None
    sp_block: Optional[int] = None
    ra_block: Optional[int] = None
    multi_level: Tuple[int, ...] = ()
    retries: Optional[int] = None
    resilience: Resilience = Resilience()
    host_network: bool = False
    #: Volcano Job plugins (name -> arguments); empty: none
    plugins: Mapping[str, Tuple[str, ...]] = field(default_factory=dict)
    #: the Volcano Job's task, and the container of every pod (an AscendJob's is always ``ascend``)
    task_name: str = VOLCANO_TASK_NAME
    container_name: str = CONTAINER_NAME
    create_namespace: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    pod_labels: Mapping[str, str] = field(default_factory=dict)
    pod_annotations: Mapping[str, str] = field(default_factory=dict)
    replica_types: Mapping[str, Replica] = field(default_factory=dict)
    pod_template_patch: Optional[Dict[str, Any]] = None
    job_patch: Optional[Dict[str, Any]] = None
    source: str = ""

    @property
    def total_npus(self) -> int:
        return self.pods * self.npus_per_pod

    def replica(self, rtype: str) -> Replica:
        """The settings of ``rtype`` (the Volcano Job's one task is ``Worker``)."""
        return self.replica_types.get(rtype, NO_REPLICA_SETTINGS)


def is_spec(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND and str(data.get("apiVersion", "")).startswith(
        "ascend-compile.io/")


#: volume names the compiler adds itself
RESERVED_VOLUMES = frozenset({DRIVER_VOLUME, SHM_VOLUME, LOCALTIME_VOLUME, RANKTABLE_CONFIGMAP_VOLUME,
                              RANKTABLE_HOSTPATH_VOLUME, RESET_VOLUME})
#: env names the compiler wires itself
GENERATED_ENV = frozenset({VISIBLE_DEVICES_ENV, XDL_IP_ENV, POD_UID_ENV, HCCL_IF_IP_ENV, FRAMEWORK_ENV})
