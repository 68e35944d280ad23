"""Fake Ascend nodes, generated from our hardware profiles (``profiles/*.yaml``).

Each node and its device-info ConfigMap follow upstream's own kwok recipes,
``tests/st/spec/910ax8.py`` (8 x 910, one server) and ``910csuperpod.py`` (A3
super-pod servers) of MindCluster, with the values a profile gives:

- Node annotations: ``baseDeviceInfos`` (one entry per device: its IP, and for
  super-pod servers its ``SuperDeviceID``), ``huawei.com/<chip>`` listing the
  device indices ``"0,1,..."``, ``huawei.com/<chip>-Fault: "[]"``,
  ``huawei.com/<chip>-NetworkUnhealthy: ""`` and ``kwok.x-k8s.io/node: fake``
  (the annotation kwok is told to manage).
- Labels: the recipe's common ones, ``accelerator: huawei-<chip>``, the
  profile's ``host-arch`` and ``accelerator-type`` (when it has one), and the
  chip labels the plugin reads since MindCluster 26.1
  (``node.kubernetes.io/npu.chip.name``, ``servertype``).
- Capacity and allocatable: the profile's NPUs per node of its resource.
- ConfigMap ``kube-system/mindx-dl-deviceinfo-<node>`` with the
  ``DeviceInfoCfg`` JSON the device plugin writes: ``DeviceInfo.DeviceList``
  (``Ascend910-0,...`` and an empty ``-NetworkUnhealthy``), ``UpdateTime``,
  for super-pod servers ``SuperPodID`` and ``ServerIndex``, and ``CheckCode``:
  the SHA-256 of ``DeviceInfo`` as compact JSON with sorted keys (the plugin's
  ``util.MakeDataHash``; it reproduces the recipes' own check codes).

Node names are ``sim-<profile>-<i>`` (super-pod profiles:
``sim-<profile>-sp<superpod>-<i>``), so a pod's node tells its profile.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import yaml

from tests.checkout import ROOT

PROFILES_DIR = ROOT / "profiles"
DEVICE_INFO_NAMESPACE = "kube-system"
DEVICE_INFO_PREFIX = "mindx-dl-deviceinfo-"
#: the ConfigMap's data key the device plugin writes its report under
DEVICE_INFO_KEY = "DeviceInfoCfg"
KWOK_NODE_ANNOTATION = "kwok.x-k8s.io/node"
NODE_NAME_PREFIX = "sim-"
#: the recipes' UpdateTime of the first report (tests/simcluster/deviceplugin.py writes the later ones)
UPDATE_TIME = 1720679215


@dataclass(frozen=True)
class HardwareProfile:
    """The parts of a profile file a fake node is made of."""

    name: str
    resource: str  # huawei.com/Ascend910 ...
    chip: str  # Ascend910B ...
    host_arch: str
    npus_per_node: int
    accelerator_type: Optional[str]
    super_pod: bool
    targets: Tuple[str, ...]
    frameworks: Tuple[str, ...]
    raw: Dict[str, Any] = field(compare=False, repr=False, default_factory=dict)

    @property
    def device_kind(self) -> str:
        """``Ascend910``, ``Ascend310P``, ``npu``: the resource name after ``huawei.com/``."""
        return self.resource.split("/", 1)[1]

    @property
    def device_prefix(self) -> str:
        """How the device plugin names devices: ``Ascend910-3``; ``npu-3`` for huawei.com/npu."""
        return f"{self.device_kind}-"

    @property
    def simulated(self) -> bool:
        """Whether fake nodes of this profile are made (see UNSIMULATED)."""
        return self.name not in UNSIMULATED


#: Profiles the simulation does not model yet, with the reason (docs/testing.md lists them).
UNSIMULATED: Dict[str, str] = {
    "850-super-pod": "huawei.com/npu (Ascend 850/950) nodes need the A5 device info (DeviceID, rack and "
                     "level lists, serverIndex) that upstream's kwok recipes do not render",
    "950-super-pod": "huawei.com/npu (Ascend 850/950) nodes need the A5 device info (DeviceID, rack and "
                     "level lists, serverIndex) that upstream's kwok recipes do not render",
}


#: Node labels a cluster administrator gives a profile's servers, beyond what every node carries: the Atlas 300I
#: Duo chip handler (chip310px2, ``duo: "true"`` with npu-310-strategy chip or none) places pods only on nodes
#: labelled ``infer-card-type: card-300i-duo`` (``CheckNodeNPUByTask`` in its ``frame.go``).
ADMIN_LABELS: Dict[str, Dict[str, str]] = {
    "310p": {"infer-card-type": "card-300i-duo"},
}


def load_profiles(folder: Path = PROFILES_DIR) -> Dict[str, HardwareProfile]:
    """Every profile file in ``folder`` by name."""
    profiles: Dict[str, HardwareProfile] = {}
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        spec = data["spec"]
        name = str(data["metadata"]["name"])
        profiles[name] = HardwareProfile(
            name=name, resource=spec["resource"], chip=spec["chip"], host_arch=spec["hostArch"],
            npus_per_node=int(spec["npusPerNode"]), accelerator_type=spec.get("acceleratorType"),
            super_pod="superPod" in spec, targets=tuple(spec.get("targets") or ()),
            frameworks=tuple(spec.get("frameworks") or ()), raw=data)
    return profiles


def check_code(device_info: Dict[str, Any]) -> str:
    """SHA-256 of the object as compact JSON with sorted keys (the plugin's MakeDataHash)."""
    return hashlib.sha256(json.dumps(device_info, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _kube_arch(host_arch: str) -> str:
    return "amd64" if host_arch == "huawei-x86" else "arm64"


@dataclass(frozen=True)
class FakeNode:
    profile: str
    name: str
    node: Dict[str, Any]
    device_info: Dict[str, Any]


def _base_device_infos(profile: HardwareProfile, server: int, super_pod_id: Optional[int]) -> str:
    infos: Dict[str, Dict[str, Any]] = {}
    for m in range(profile.npus_per_node):
        if super_pod_id is None:
            infos[f"{profile.device_prefix}{m}"] = {"IP": f"10.{1 + server // 250}.{server % 250}.{m}"}
        else:
            infos[f"{profile.device_prefix}{m}"] = {"IP": f"{super_pod_id}.0.{server}.{m}",
                                                    "SuperDeviceID": server * profile.npus_per_node + m}
    return json.dumps(infos)


def render_node(profile: HardwareProfile, index: int, *, super_pod_id: Optional[int] = None,
                server_index: Optional[int] = None, address: str = "") -> FakeNode:
    """One fake node of ``profile`` (``index``-th; in super-pod ``super_pod_id`` at ``server_index``)."""
    if super_pod_id is None:
        name = f"{NODE_NAME_PREFIX}{profile.name}-{index}"
        server = index
    else:
        name = f"{NODE_NAME_PREFIX}{profile.name}-sp{super_pod_id}-{server_index}"
        server = int(server_index or 0)
    kind, count = profile.device_kind, profile.npus_per_node
    arch = _kube_arch(profile.host_arch)
    labels = {
        "beta.kubernetes.io/arch": arch, "beta.kubernetes.io/os": "linux", "kubernetes.io/arch": arch,
        "kubernetes.io/hostname": name, "kubernetes.io/os": "linux", "kubernetes.io/role": "agent",
        "node-role.kubernetes.io/agent": "", "node-role.kubernetes.io/worker": "worker",
        "workerselector": "dls-worker-node", "accelerator": f"huawei-{kind}", "host-arch": profile.host_arch,
        "type": "kwok", "node.kubernetes.io/npu.chip.name": profile.chip, "servertype": f"{profile.chip}-{count}",
        "ascend-compile.io/profile": profile.name,
    }
    if profile.accelerator_type:
        labels["accelerator-type"] = profile.accelerator_type
    labels.update(ADMIN_LABELS.get(profile.name, {}))
    # CPU and memory of a large training server (the recipes' 96 CPUs / 720Gi are below what real
    # jobs ask for, e.g. examples/pytorch-hostnetwork-ranktable.yaml): only NPUs should limit placement
    resources = {"cpu": "192", "memory": "2Ti", profile.resource: str(count), "pods": "110"}
    node: Dict[str, Any] = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "name": name, "labels": labels,
            "annotations": {
                "baseDeviceInfos": _base_device_infos(profile, server, super_pod_id),
                "node.alpha.kubernetes.io/ttl": "0",
                KWOK_NODE_ANNOTATION: "fake",
                profile.resource: ",".join(str(i) for i in range(count)),
                f"{profile.resource}-Fault": "[]",
                f"{profile.resource}-NetworkUnhealthy": "",
            },
        },
        "status": {
            "allocatable": dict(resources), "capacity": dict(resources),
            "nodeInfo": {"architecture": arch, "bootID": "", "containerRuntimeVersion": "", "kernelVersion": "",
                         "kubeProxyVersion": "fake", "kubeletVersion": "fake", "machineID": "",
                         "operatingSystem": "linux", "osImage": "", "systemUUID": ""},
            "phase": "Running",
        },
    }
    if address:
        node["status"]["addresses"] = [{"type": "InternalIP", "address": address}]
    device_list = {profile.resource: ",".join(f"{profile.device_prefix}{i}" for i in range(count)),
                   f"{profile.resource}-NetworkUnhealthy": ""}
    placement = {} if super_pod_id is None else {"SuperPodID": super_pod_id, "ServerIndex": server}
    configmap = {
        "apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": DEVICE_INFO_PREFIX + name, "namespace": DEVICE_INFO_NAMESPACE,
                     "labels": {"mx-consumer-cim": "true"}},
        "data": device_info_data(device_list, UPDATE_TIME, placement),
    }
    return FakeNode(profile.name, name, node, configmap)


def device_info_data(device_list: Dict[str, str], update_time: int, placement: Dict[str, int]) -> Dict[str, str]:
    """A device-info ConfigMap's data as the device plugin writes it: ``DeviceInfo`` (``DeviceList``,
    ``UpdateTime``), a super-pod server's ``SuperPodID`` and ``ServerIndex`` (``placement``), ``CheckCode``."""
    device_info = {"DeviceList": device_list, "UpdateTime": update_time}
    config = {"DeviceInfo": device_info, **placement, "CheckCode": check_code(device_info)}
    return {DEVICE_INFO_KEY: json.dumps(config, indent=2) + "\n"}


def render_cluster(profiles: Sequence[HardwareProfile], nodes_per_profile: int) -> List[FakeNode]:
    """``nodes_per_profile`` nodes of each simulated profile; a super-pod profile's nodes form one super pod."""
    out: List[FakeNode] = []
    for profile in profiles:
        if not profile.simulated:
            continue
        for i in range(nodes_per_profile):
            address = node_address(len(out))
            if profile.super_pod:
                out.append(render_node(profile, i, super_pod_id=0, server_index=i, address=address))
            else:
                out.append(render_node(profile, i, address=address))
    return out


def node_address(n: int) -> str:
    """A distinct made-up InternalIP per node (kwok would give every node the same one); never contacted."""
    return f"10.200.{n // 250}.{n % 250 + 1}"
