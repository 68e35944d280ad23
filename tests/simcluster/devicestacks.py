"""A simulated cluster whose scheduler is Volcano v1.15.1's own, sharing Ascend NPUs with its deviceshare plugin.

Volcano 1.14 and later cut Ascend NPUs into vNPUs without MindCluster's scheduler plugin, in one of two modes
(``pkg/scheduler/plugins/deviceshare/deviceshare.go`` of ``../shared/upstream/src/releases/volcano-v1.15.1.tar.gz``):

- **HAMi mode** (``deviceshare.AscendHAMiVNPUEnable``): the nodes run HAMi's Ascend device plugin, which offers
  each chip model as a resource (allocatable: vNPUs per chip x chips) and registers every chip in the node
  annotation ``hami.io/node-register-<chip>`` (a JSON list: id, count of vNPUs, memory, cores, type, health;
  ``internal/server/register.go`` of Project-HAMi/ascend-device-plugin), with ``hami-vnpu-core`` saying whether the
  node slices softly.  Volcano reads its chips and templates from a ConfigMap through an in-cluster client only
  (``pkg/scheduler/api/devices/util.go``): here, as in any cluster where that read fails, it runs on its built-in
  default, the Ascend310P entry (``config/config.go``), so the shapes ask for ``huawei.com/Ascend310P``.
- **MindCluster vNPU mode** (``deviceshare.AscendMindClusterVNPUEnable``): MindCluster's device plugin on 310P
  nodes, offering ``huawei.com/npu-core`` (AI cores: 8 per chip) and its free chips in the device-info ConfigMap;
  the node labels ``accelerator``, ``servertype`` (``Ascend310P-8``: cores per chip) and
  ``node.kubernetes.io/npu.chip.name`` (``.../ascend310p/vnpu/init_policy.go``).

No ascend-operator and no MindCluster plugin run; the controllers and CRDs are the other clusters' (Volcano v1.12.0).
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Dict, List

from tests.simcluster import build, nodes
from tests.simcluster.cluster import SimCluster, SimClusterError
from tests.simcluster.gotool import BuildError, Progress

HAMI, MINDCLUSTER = "hami", "mindcluster"
#: the deviceshare argument that turns each mode on
MODE_ARGUMENT = {HAMI: "deviceshare.AscendHAMiVNPUEnable", MINDCLUSTER: "deviceshare.AscendMindClusterVNPUEnable"}
#: the device stack lint judges each mode's cluster for (ascend_compile.releases.DEVICE_STACKS)
LINT_STACK = {HAMI: "volcano-vnpu:hami", MINDCLUSTER: "volcano-vnpu:mindcluster"}
CHIPS_PER_NODE = 4
#: HAMi mode: the chip of Volcano's built-in device config, its memory (MiB) and how many vNPUs a chip takes
HAMI_CHIP, HAMI_CHIP_MEMORY, VNPUS_PER_CHIP = "Ascend310P", 21527, 4
#: MindCluster vNPU mode: AI cores of one 310P chip
CORES_PER_CHIP = 8
_COMPONENTS = (*build.SHARED_COMPONENTS, build.DEVICESHARE_SCHEDULER)


def scheduler_conf(mode: str) -> Dict[str, Any]:
    """Volcano's usual tiers with deviceshare turned on in ``mode`` (and, for MindCluster's mode, the init
    parameters its device code reads: device info from the per-node ConfigMaps, no ClusterD)."""
    conf: Dict[str, Any] = {
        "actions": "enqueue, allocate, backfill",
        "tiers": [
            {"plugins": [{"name": "priority"}, {"name": "gang", "enablePreemptable": False},
                         {"name": "conformance"}]},
            {"plugins": [{"name": "drf", "enablePreemptable": False},
                         {"name": "deviceshare", "arguments": {MODE_ARGUMENT[mode]: True,
                                                                "deviceshare.SchedulePolicy": "binpack",
                                                                "deviceshare.ScheduleWeight": 10}},
                         {"name": "predicates"}, {"name": "proportion"}, {"name": "nodeorder"}]},
        ],
    }
    if mode == MINDCLUSTER:
        conf["configurations"] = [{"name": "init-params", "arguments": {
            "useClusterInfoManager": "false", "presetVirtualDevice": "false", "self-maintain-available-card": "true"}}]
    return conf


def _base_node(name: str, index: int, labels: Dict[str, str], resources: Dict[str, str],
               annotations: Dict[str, str]) -> Dict[str, Any]:
    allocatable = {"cpu": "96", "memory": "512Gi", "pods": "110", **resources}
    return {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "labels": {"kubernetes.io/hostname": name, "kubernetes.io/os": "linux",
                                                "kubernetes.io/arch": "arm64", "type": "kwok", **labels},
                     "annotations": {nodes.KWOK_NODE_ANNOTATION: "fake", "node.alpha.kubernetes.io/ttl": "0",
                                     **annotations}},
        "status": {"allocatable": dict(allocatable), "capacity": dict(allocatable), "phase": "Running",
                   "addresses": [{"type": "InternalIP", "address": nodes.node_address(index)}],
                   "nodeInfo": {"architecture": "arm64", "bootID": "", "containerRuntimeVersion": "",
                                "kernelVersion": "", "kubeProxyVersion": "fake", "kubeletVersion": "fake",
                                "machineID": "", "operatingSystem": "linux", "osImage": "", "systemUUID": ""}},
    }


def _device_info(name: str, device_list: Dict[str, str]) -> Dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": nodes.DEVICE_INFO_PREFIX + name, "namespace": nodes.DEVICE_INFO_NAMESPACE,
                         "labels": {"mx-consumer-cim": "true"}},
            "data": nodes.device_info_data(device_list, nodes.UPDATE_TIME, {})}


def hami_node(index: int) -> nodes.FakeNode:
    """A 310P server with HAMi's Ascend device plugin, as the plugin registers it (template slicing)."""
    name = f"{nodes.NODE_NAME_PREFIX}hami-{index}"
    devices = [{"id": f"{HAMI_CHIP}-{index}-{chip}", "index": chip, "count": VNPUS_PER_CHIP,
                "devmem": HAMI_CHIP_MEMORY, "devcore": 100, "type": HAMI_CHIP, "numa": 0, "health": True}
               for chip in range(CHIPS_PER_NODE)]
    node = _base_node(name, index, {"ascend": "on"}, {f"huawei.com/{HAMI_CHIP}": str(CHIPS_PER_NODE * VNPUS_PER_CHIP)},
                      {f"hami.io/node-register-{HAMI_CHIP}": json.dumps(devices),
                       f"hami.io/node-handshake-{HAMI_CHIP}": "Reported_2026.12.07 00:00:00",
                       "hami-vnpu-core": "false"})
    return nodes.FakeNode("hami-310p", name, node, _device_info(name, {}))


def vnpu_node(index: int) -> nodes.FakeNode:
    """A 310P server with MindCluster's device plugin in dynamic vNPU mode (every chip free)."""
    name = f"{nodes.NODE_NAME_PREFIX}vnpu-{index}"
    chips = ",".join(f"Ascend310P-{chip}" for chip in range(CHIPS_PER_NODE))
    node = _base_node(name, index, {"accelerator": "huawei-Ascend310P", "servertype": f"Ascend310P-{CORES_PER_CHIP}",
                                    "node.kubernetes.io/npu.chip.name": "310P3", "host-arch": "huawei-arm"},
                      {"huawei.com/npu-core": str(CHIPS_PER_NODE * CORES_PER_CHIP)},
                      {"huawei.com/Ascend310P": chips, "huawei.com/Ascend310P-Fault": "[]"})
    return nodes.FakeNode("vnpu-310p", name, node, _device_info(name, {"huawei.com/Ascend310P": chips}))


class DeviceShareCluster(SimCluster):
    """Volcano v1.15.1's scheduler with deviceshare in ``mode`` (HAMI or MINDCLUSTER), ``node_count`` nodes of 4 310P
    chips, no admission webhook, no ascend-operator."""

    def __init__(self, mode: str, node_count: int = 2, **kwargs: Any):
        if mode not in MODE_ARGUMENT:
            raise SimClusterError(f"unknown deviceshare mode {mode!r}; known: {', '.join(MODE_ARGUMENT)}")
        super().__init__(profiles=["310p"], nodes_per_profile=0, admission_webhook=False, **kwargs)
        self.mode, self.node_count = mode, node_count

    def start(self) -> "DeviceShareCluster":
        super().start()
        try:
            self._report_devices_after_the_first_session()
        except BaseException:
            self.stop()
            raise
        return self

    def _sessions(self) -> int:
        return (self.log_dir / "vc-scheduler.log").read_text(errors="replace").count("Open Session")

    def _wait_for_sessions(self, count: int, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while self._sessions() < count:
            if time.monotonic() > deadline or self.dead_processes():
                raise SimClusterError(f"vc-scheduler opened fewer than {count} sessions within {timeout:.0f}s\n"
                                      + self.logs_for_failure())
            time.sleep(0.5)

    def _report_devices_after_the_first_session(self) -> None:
        """Update every node once the scheduler has opened a session, as a device plugin's periodic report does.

        deviceshare turns its Ascend modes on when a session first reads its arguments
        (``enablePredicate``, pkg/scheduler/plugins/deviceshare/deviceshare.go), and the scheduler's cache records
        a node's Ascend devices only when it adds or updates the node (``setNodeOthersResource``,
        pkg/scheduler/api/node_info.go; a session's copy keeps the cached devices).  A node the cache took in
        before that first session has none until its next update: on a busy machine the nodes came first, and
        every shape was placed by its resource count alone.  On a real cluster the device plugins' reports update
        the nodes; here one update after the first session stands in for them, and the shapes are applied two
        sessions later, when the cache has read it."""
        self._wait_for_sessions(1)
        stamp = str(time.time_ns())
        for fake in self.fake_nodes:
            self.kubectl("annotate", "node", fake.name, "--overwrite", f"ascend-compile.test/reported={stamp}")
        self._wait_for_sessions(self._sessions() + 2)

    def _built(self) -> build.Binaries:
        try:
            return build.build_all(progress=Progress(), only=_COMPONENTS)
        except (BuildError, build.sources.SourceError) as exc:
            raise SimClusterError(str(exc)) from exc

    def _scheduler_conf(self) -> Dict[str, Any]:
        return scheduler_conf(self.mode)

    def _scheduler_program(self, binaries: build.Binaries) -> Path:
        return binaries["vc-scheduler"]

    def _start_operator(self, binaries: build.Binaries) -> None:
        return None  # the deviceshare stacks run no MindCluster component but the device plugin's node data

    def _render_nodes(self) -> List[nodes.FakeNode]:
        make = hami_node if self.mode == HAMI else vnpu_node
        return [make(i) for i in range(self.node_count)]
