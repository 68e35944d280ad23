"""Each fake node's device plugin, stood in for: its device-info report.

MindCluster's device plugin (``component/ascend-device-plugin`` of Ascend/mind-cluster; not in the pinned
archives, which hold the scheduler plugin and the operator) looks at its devices every ListAndWatch period (5 s)
and writes the node's ConfigMap ``kube-system/mindx-dl-deviceinfo-<node>`` when its report changed (and once an
hour when it did not): ``DeviceList``'s ``huawei.com/<chip>`` is the healthy devices less the ones the node's
active pods hold (the pods' annotation ``huawei.com/<chip>``, which the scheduler plugin writes when it places a
pod; its kubeclient's ``GetPodsUsedNpu``), ``UpdateTime`` the time of the write, ``CheckCode`` the hash of
``DeviceInfo`` (``WriteDeviceInfoDataIntoCM``).

Why it matters: the scheduler plugin of v6.0.0 and v7.0.RC1 takes a node's free devices from that report only,
and only from a report newer than the last one it read (``updateNPUNodeDeviceInfos`` in
``component/ascend-for-volcano/plugin/node.go``); between reports it keeps its own copy, from which it removes
the devices it allocates (``UpdateNodeInfo``, ``internal/npu/base/node.go``) and never puts them back.  Without
a new report a node whose NPUs were allocated once is refused afterwards ("getUsableTopFromNode don't have
huawei.com/Ascend910").  From v7.3.2 the plugin keeps the free devices itself by default
(``self-maintain-available-card``: ``initNodeDeviceInfoByCmMgr`` in ``common/k8s/cmmgr.go``, the node's devices
less its active pods'), so the report's free list is not what it places by there.

The simulated devices are always healthy: a report is the devices a node was made with (its first report,
``nodes.render_node``) less the ones its active pods hold.  Every other key of the report (``-NetworkUnhealthy``
...) stays as first reported.
"""
from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set

from tests.simcluster import nodes

#: seconds between two looks at the devices (the device plugin's ListAndWatch period)
PERIOD = 5.0
#: an unchanged report is written again after this many seconds
REWRITE_AFTER = 3600
_PREFIX = "huawei.com/"
_ENDED = ("Succeeded", "Failed")


def free_keys(device_list: Dict[str, str]) -> List[str]:
    """The report's keys that list free devices (``huawei.com/Ascend910``), not a state of them (``...-Fault``)."""
    return [k for k in device_list if k.startswith(_PREFIX) and "-" not in k[len(_PREFIX):]]


def held_devices(pods: Iterable[Dict[str, Any]], keys: Sequence[str]) -> Dict[str, Dict[str, Set[str]]]:
    """Node name -> key -> the devices the node's active pods (bound, not ended) hold, from their annotations."""
    held: Dict[str, Dict[str, Set[str]]] = {}
    for pod in pods:
        node = (pod.get("spec") or {}).get("nodeName")
        if not node or (pod.get("status") or {}).get("phase") in _ENDED:
            continue
        annotations = (pod.get("metadata") or {}).get("annotations") or {}
        for key in keys:
            devices = [d for d in str(annotations.get(key) or "").split(",") if d]
            held.setdefault(node, {}).setdefault(key, set()).update(devices)
    return held


class DeviceReports:
    """The reports of ``fake_nodes``' device plugins: :meth:`report` looks once (every :data:`PERIOD` from a
    :class:`tests.simcluster.processes.Loop`) and writes the reports that changed; each write is a line of
    ``log``."""

    def __init__(self, core_api: Callable[[], Any], fake_nodes: Sequence[nodes.FakeNode], log: Path):
        self._core_api, self._log = core_api, log
        self._first = {f.name: json.loads(f.device_info["data"][nodes.DEVICE_INFO_KEY]) for f in fake_nodes}
        self._keys = sorted({k for c in self._first.values() for k in free_keys(c["DeviceInfo"]["DeviceList"])})
        #: node -> (the DeviceList it last reported, that report's UpdateTime)
        self._last: Dict[str, Any] = {n: (c["DeviceInfo"]["DeviceList"], c["DeviceInfo"]["UpdateTime"])
                                      for n, c in self._first.items()}

    def device_list(self, name: str, held: Dict[str, Set[str]]) -> Dict[str, str]:
        """What node ``name``'s device plugin reports while its pods hold ``held`` (key -> devices)."""
        first = dict(self._first[name]["DeviceInfo"]["DeviceList"])
        for key in free_keys(first):
            first[key] = ",".join(d for d in first[key].split(",") if d and d not in held.get(key, ()))
        return first

    def report(self, now: Optional[float] = None) -> List[str]:
        """Look at every node's devices once; write the reports that changed (or are an hour old). Returns the
        nodes written.  An API error is logged and the look ends: the next one tries again."""
        if not self._first:
            return []
        try:
            listed = json.loads(self._core_api().list_pod_for_all_namespaces(_preload_content=False).data)
        except Exception as exc:  # noqa: BLE001 - the API server stopping, or busy: the next period looks again
            self._write_log(f"listing pods failed: {exc}")
            return []
        held = held_devices(listed.get("items") or [], self._keys)
        stamp = int(time.time() if now is None else now)
        written: List[str] = []
        for name, config in self._first.items():
            devices = self.device_list(name, held.get(name, {}))
            last_devices, last_time = self._last[name]
            if devices == last_devices and stamp - last_time < REWRITE_AFTER:
                continue
            # a report's time always passes the one before (the plugin skips one that does not)
            update_time = max(stamp, last_time + 1)
            placement = {k: v for k, v in config.items() if k not in ("DeviceInfo", "CheckCode")}
            body = {"data": nodes.device_info_data(devices, update_time, placement)}
            try:
                self._core_api().patch_namespaced_config_map(nodes.DEVICE_INFO_PREFIX + name,
                                                             nodes.DEVICE_INFO_NAMESPACE, body)
            except Exception as exc:  # noqa: BLE001 - as above
                self._write_log(f"{name}: writing the report failed: {exc}")
                return written
            self._last[name] = (devices, update_time)
            written.append(name)
            self._write_log(f"{name}: UpdateTime {update_time}, " + "; ".join(
                f"{k}: {devices[k] or '(none)'}" for k in free_keys(devices)))
        return written

    def _write_log(self, line: str) -> None:
        with open(self._log, "a", encoding="utf-8") as out:
            out.write(f"{time.strftime('%H:%M:%S')} {line}\n")
