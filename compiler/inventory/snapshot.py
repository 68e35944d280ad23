"""The snapshot file: an :class:`~.model.Inventory` as a versioned YAML document, and back.

``apiVersion: ascend-compile.io/v1alpha1``, ``kind: ClusterSnapshot`` (``docs/cluster-snapshot.md``,
``schemas/clustersnapshot-v1alpha1.json``).  Written deterministically (sorted; a time stamp only beside the NPUs
in use, when it records them), so that a committed snapshot of capacity changes only when the cluster's capacity
does.  It holds what the lint needs and nothing more: no pod, job or holder names, no Secret, no ConfigMap data, no
environment.  Read back, it is
checked against its schema first: a bad file is an input error (AC016, exit code 2) with file, line,
column and field path.
"""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional

from ..catalogue import CLUSTER_SNAPSHOT_INVALID
from ..errors import InputError
from ..findings import ERROR, Finding
from .model import BLOCKING_EFFECTS, LIVE, UNTIMED, Inventory, Node, Queue, Taint

API_VERSION = "ascend-compile.io/v1alpha1"
KIND = "ClusterSnapshot"
#: the cluster's name when the snapshot knows none (no context)
UNNAMED = "cluster"


def to_document(inventory: Inventory) -> Dict[str, Any]:
    """The snapshot document of ``inventory`` (what was not read is left out)."""
    spec: Dict[str, Any] = {}
    if inventory.default_namespace:
        spec["defaultNamespace"] = inventory.default_namespace
    if inventory.versions:
        spec["versions"] = dict(sorted(inventory.versions.items()))
    if inventory.usage not in (None, LIVE, UNTIMED):
        spec["usageTime"] = inventory.usage
    if inventory.nodes is not None:
        spec["nodes"] = [_node(n, inventory.usage is not None) for n in sorted(inventory.nodes, key=lambda n: n.name)]
    if inventory.device_share is not None:
        spec["deviceShare"] = sorted(inventory.device_share)
    if inventory.resource_levels is not None:
        spec["resourceLevels"] = {tree: list(labels) for tree, labels in sorted(inventory.resource_levels.items())}
    if inventory.queues is not None:
        spec["queues"] = [_queue(q) for _, q in sorted(inventory.queues.items())]
    if inventory.priority_classes is not None:
        spec["priorityClasses"] = sorted(inventory.priority_classes)
    if inventory.hyper_nodes is not None:
        spec["hyperNodes"] = [{"name": name, "tier": tier} for name, tier in sorted(inventory.hyper_nodes.items())]
    namespaces = sorted(set(inventory.claims or {}) | set(inventory.config_maps or {}))
    if inventory.claims is not None or inventory.config_maps is not None:
        spec["namespaces"] = [_namespace(inventory, ns) for ns in namespaces]
    return {"apiVersion": API_VERSION, "kind": KIND, "metadata": {"name": inventory.name or UNNAMED}, "spec": spec}


def _node(node: Node, usage: bool) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": node.name, "ready": node.ready}
    if node.cordoned:
        out["unschedulable"] = True
    if node.labels:
        out["labels"] = dict(sorted(node.labels.items()))
    if node.taints:
        out["taints"] = [{"key": t.key, **({"value": t.value} if t.value else {}), "effect": t.effect}
                         for t in node.taints]
    if node.soft_slicing is not None:
        out["hamiVnpuCore"] = node.soft_slicing
    if node.allocatable:
        out["npus"] = {r: {"allocatable": n, **({"allocated": node.used.get(r, 0)} if usage else {})}
                       for r, n in sorted(node.allocatable.items())}
    return out


def _queue(queue: Queue) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": queue.name, "state": queue.state}
    if queue.capability:
        out["capability"] = dict(sorted(queue.capability.items()))
    if queue.deserved:
        out["deserved"] = dict(sorted(queue.deserved.items()))
    return out


def _namespace(inventory: Inventory, namespace: str) -> Dict[str, Any]:
    out: Dict[str, Any] = {"name": namespace}
    if inventory.claims is not None and namespace in inventory.claims:
        out["persistentVolumeClaims"] = sorted(inventory.claims[namespace])
    if inventory.config_maps is not None and namespace in inventory.config_maps:
        out["configMaps"] = sorted(inventory.config_maps[namespace])
    return out


def dump(inventory: Inventory) -> str:
    """The snapshot file's text."""
    from ..yamlio.dump import dump_document

    return dump_document(to_document(inventory))


def load(path: str) -> Inventory:
    """The inventory a snapshot file holds; an :class:`~ascend_compile.errors.InputError` (AC016) when it cannot
    be read or breaks the schema."""
    from ..schemacheck import check
    from ..yamlio.parsing import load_file

    try:
        docs = load_file(path)
    except InputError as exc:
        raise InputError([_invalid(f, "cannot read the cluster snapshot: ") for f in exc.findings]) from None
    docs = [d for d in docs if d.data is not None]
    if len(docs) != 1:
        raise InputError([Finding(CLUSTER_SNAPSHOT_INVALID, ERROR,
                                  f"a cluster snapshot file holds exactly one document, this one {len(docs)}",
                                  hint="take it again with 'ascend-compile cluster snapshot -o FILE'", file=path,
                                  line=1, column=1, input_error=True)])
    doc = docs[0]
    data = doc.data
    for key, want in (("apiVersion", API_VERSION), ("kind", KIND)):
        if not isinstance(data, dict) or data.get(key) != want:
            where = doc.locate((key,)) if isinstance(data, dict) and key in data else doc.locate(())
            raise InputError([Finding(CLUSTER_SNAPSHOT_INVALID, ERROR,
                                      f"not a cluster snapshot: {key} must be {want}", (key,),
                                      "take it with 'ascend-compile cluster snapshot -o FILE'", path,
                                      where.line or 1, where.column or 1, input_error=True)])
    problems = [f for f in check.validate_document(doc) if f.severity == ERROR]
    if problems:
        raise InputError([_invalid(f, "invalid cluster snapshot: ") for f in problems])
    return from_document(data, path)


def _invalid(finding: Finding, prefix: str) -> Finding:
    return Finding(CLUSTER_SNAPSHOT_INVALID, ERROR, prefix + finding.message, finding.path,
                   finding.hint or "see docs/cluster-snapshot.md", finding.file, finding.line, finding.column,
                   input_error=True)


def from_document(data: Dict[str, Any], source: str = "") -> Inventory:
    """The inventory of a snapshot document that passed its schema."""
    spec = data.get("spec") or {}
    nodes = spec.get("nodes")
    queues = spec.get("queues")
    namespaces = spec.get("namespaces")
    hyper_nodes = spec.get("hyperNodes")
    return Inventory(
        nodes=None if nodes is None else tuple(_read_node(n) for n in nodes),
        queues=None if queues is None else {q["name"]: Queue(q["name"], q["state"], dict(q.get("capability") or {}),
                                                             deserved=dict(q.get("deserved") or {})) for q in queues},
        claims=_names(namespaces, "persistentVolumeClaims"), config_maps=_names(namespaces, "configMaps"),
        versions=dict(spec.get("versions") or {}), source=source, name=str((data.get("metadata") or {}).get("name")),
        default_namespace=str(spec.get("defaultNamespace") or ""),
        resource_levels=None if "resourceLevels" not in spec else {
            str(tree): tuple(labels) for tree, labels in (spec.get("resourceLevels") or {}).items()},
        usage=_usage(spec), priority_classes=None if "priorityClasses" not in spec else frozenset(spec["priorityClasses"]),
        hyper_nodes=None if hyper_nodes is None else {h["name"]: h["tier"] for h in hyper_nodes},
        device_share=None if "deviceShare" not in spec else tuple(sorted(spec["deviceShare"])))


def _usage(spec: Dict[str, Any]) -> Optional[str]:
    """When the snapshot's NPUs in use were read: its ``usageTime``; :data:`~.model.UNTIMED` for a snapshot that records
    them without one (taken before snapshots had it); None when it records none."""
    if spec.get("usageTime"):
        return str(spec["usageTime"])
    recorded = any("allocated" in npus for node in spec.get("nodes") or [] for npus in (node.get("npus") or {}).values())
    return UNTIMED if recorded else None


def _read_node(node: Dict[str, Any]) -> Node:
    npus = node.get("npus") or {}
    return Node(node["name"], dict(node.get("labels") or {}), {r: v["allocatable"] for r, v in npus.items()},
                {r: v.get("allocated", 0) for r, v in npus.items()}, bool(node["ready"]),
                bool(node.get("unschedulable")), {},
                tuple(Taint(t["key"], t.get("value", ""), t["effect"]) for t in node.get("taints") or []
                      if t["effect"] in BLOCKING_EFFECTS), node.get("hamiVnpuCore"))


def _names(namespaces: Optional[List[Dict[str, Any]]], key: str) -> Optional[Dict[str, FrozenSet[str]]]:
    if namespaces is None:
        return None
    found = {ns["name"]: frozenset(ns[key]) for ns in namespaces if key in ns}
    return found if found or not namespaces else None
