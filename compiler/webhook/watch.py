"""The cluster inventory kept current by watches: one LIST of each resource at start, then its changes as they come.

:class:`InventoryWatch` holds a slim copy of every object the inventory is built from (:func:`slim`: what
:func:`ascend_compile.inventory.objects.inventory_from` reads, never an env, an annotation or a ConfigMap's data
beyond the scheduler's configuration), follows each resource from the version its LIST returned, and after a burst
of changes builds the inventory again and swaps it whole: a request reads one consistent inventory
(:meth:`InventoryWatch.current`), and never waits for, or causes, a read of the cluster.

A watch that ends is started again from the last version seen; one whose version has expired (HTTP 410) lists its
resource again (the only LIST after the start); other failures are logged and retried with a growing pause.  A
resource that may not be read (RBAC) or that the cluster lacks (no Volcano) is left out, as ``lint --cluster``
leaves it out.  A change that makes an object the inventory cannot take (a value Kubernetes never writes) keeps the
inventory as it was, and is logged.

The reads themselves are a :class:`Source`'s (:mod:`.source` over the Kubernetes client; the tests give a fake).
"""
from __future__ import annotations

import functools
import threading
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Protocol, Tuple

from ..inventory.objects import inventory_from

NODES, PODS, QUEUES, DEPLOYMENTS = "nodes", "pods", "queues", "deployments"
PRIORITY_CLASSES, HYPER_NODES, NAMESPACES = "priorityclasses", "hypernodes", "namespaces"
CLAIMS, CONFIG_MAPS = "persistentvolumeclaims", "configmaps"
#: every resource the inventory is built from (what ``cluster snapshot`` reads, :mod:`ascend_compile.kube.inventory`)
RESOURCES = (NODES, PODS, QUEUES, DEPLOYMENTS, PRIORITY_CLASSES, HYPER_NODES, NAMESPACES, CLAIMS, CONFIG_MAPS)
#: the longest pause between two tries of a failing watch, in seconds
MAX_PAUSE = 30.0
#: Watch events: (type, object)
Event = Tuple[str, Dict[str, Any]]


class Unavailable(Exception):
    """The resource may not be read, or the cluster does not have it: the inventory goes without it."""


class Expired(Exception):
    """The version a watch started from is too old (HTTP 410): list the resource again."""


class Source(Protocol):
    def list(self, resource: str) -> Tuple[List[Dict[str, Any]], str]:
        """Every object of ``resource`` and the collection's resourceVersion; :class:`Unavailable` when it may not
        be read."""

    def watch(self, resource: str, version: str) -> Iterator[Event]:
        """The changes of ``resource`` after ``version``, until the server ends the watch; :class:`Expired`."""


def slim(resource: str, obj: Dict[str, Any]) -> Dict[str, Any]:
    """What the inventory reads of ``obj``: its name and namespace (and a node's labels), and per resource the
    fields :mod:`ascend_compile.inventory.objects` takes; no annotation, no env, no ConfigMap data but the scheduler
    configuration's."""
    meta = _mapping(obj, "metadata")
    kept: Dict[str, Any] = {key: meta[key] for key in ("name", "namespace", "ownerReferences") if key in meta}
    if resource == NODES and "labels" in meta:
        kept["labels"] = meta["labels"]
    out: Dict[str, Any] = {"metadata": kept}
    spec, status = _mapping(obj, "spec"), _mapping(obj, "status")
    if resource == PODS:
        out["spec"] = {key: [{"name": c.get("name"), "resources": c.get("resources")} for c in spec[key]
                             if isinstance(c, dict)]
                       for key in ("containers", "initContainers") if isinstance(spec.get(key), list)}
        out["spec"]["nodeName"] = spec.get("nodeName")
        out["status"] = {"phase": status.get("phase")}
    elif resource == DEPLOYMENTS:
        template = _mapping(_mapping(spec, "template"), "spec")
        containers = template.get("containers")
        containers = containers if isinstance(containers, list) else []
        out["spec"] = {"template": {"spec": {"containers": [{"name": c.get("name"), "image": c.get("image")}
                                                             for c in containers if isinstance(c, dict)]}}}
    elif resource == CONFIG_MAPS:
        data = _mapping(obj, "data")
        out["data"] = {key: value for key, value in data.items() if isinstance(value, str) and "volcano-npu" in value}
    elif resource == NODES:
        out["spec"] = {key: spec[key] for key in ("unschedulable", "taints") if key in spec}
        out["status"] = {key: status[key] for key in ("allocatable", "conditions") if key in status}
    elif resource == HYPER_NODES:
        out["spec"] = {key: spec[key] for key in ("tier",) if key in spec}
    elif resource == QUEUES:
        out.update(spec=spec, status=status)
    return out


def _mapping(obj: Any, key: str) -> Dict[str, Any]:
    value = obj.get(key) if isinstance(obj, dict) else None
    return value if isinstance(value, dict) else {}


def _key(obj: Dict[str, Any]) -> Tuple[str, str]:
    meta = obj["metadata"]
    return str(meta.get("namespace") or ""), str(meta.get("name") or "")


class InventoryWatch:
    """The inventory of ``source``, kept current (see the module doc).  ``settle``: seconds to wait after a change
    for more before building again; ``log``: ``log(event, level, **fields)``."""

    def __init__(self, source: Source, log: Callable[..., None], *, settle: float = 1.0, name: str = ""):
        self.source = source
        self.log = log
        self.settle = settle
        self.name = name
        self.lists = 0  #: LISTs made so far (the start's, and after an expired watch)
        self._stores: Dict[str, Optional[Dict[Tuple[str, str], Dict[str, Any]]]] = {}
        self._inventory: Any = None
        self._changes = threading.Condition()
        self._seen = 0  # changes applied to the stores
        self._built = 0  # changes the current inventory includes
        self._stop = threading.Event()
        self._threads: List[threading.Thread] = []

    def current(self) -> Any:
        """The inventory now: one object, swapped whole when a change is built in."""
        return self._inventory

    def sync(self) -> Any:
        """List every resource, build the inventory, start following the changes; the inventory."""
        versions = {resource: self._list(resource) for resource in RESOURCES}
        self._inventory = self._build()
        for resource, version in versions.items():
            if version is not None:
                self._spawn(f"watch-{resource}", functools.partial(self._follow, resource, version))
        self._spawn("inventory-build", self._rebuild_loop)
        return self._inventory

    def stop(self) -> None:
        self._stop.set()
        with self._changes:
            self._changes.notify_all()

    def _spawn(self, name: str, target: Callable[[], None]) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        self._threads.append(thread)
        thread.start()

    def _list(self, resource: str) -> Optional[str]:
        """Read ``resource`` whole into its store; its version (None: left out)."""
        self.lists += 1
        try:
            items, version = self.source.list(resource)
        except Unavailable as exc:
            self.log("inventory-part-left-out", "warning", resource=resource, reason=str(exc)[:200])
            with self._changes:
                self._stores[resource] = None
            return None
        store = {}
        for item in items:
            kept = slim(resource, item)
            store[_key(kept)] = kept
        with self._changes:
            self._stores[resource] = store
            self._seen += 1
            self._changes.notify_all()
        return version

    def _follow(self, resource: str, version: str) -> None:
        pause, expired = 1.0, False
        while not self._stop.is_set():
            try:
                if expired:
                    version, expired = self._list(resource) or version, False
                for kind, obj in self.source.watch(resource, version):
                    if self._stop.is_set():
                        return
                    version = self._apply(resource, kind, obj) or version
                    pause = 1.0
            except Expired:
                expired = True
            except Exception as exc:  # noqa: BLE001 - any failure of a watch or a LIST again: logged, tried again
                self.log("watch-error", "warning", resource=resource, error=type(exc).__name__, retry_in=pause)
                self._stop.wait(pause)
                pause = min(pause * 2, MAX_PAUSE)

    def _apply(self, resource: str, kind: str, obj: Dict[str, Any]) -> str:
        """Apply one event to the store; the version it brings ("" if none)."""
        meta = obj.get("metadata") if isinstance(obj, dict) else None
        version = str(meta.get("resourceVersion") or "") if isinstance(meta, dict) else ""
        if kind not in ("ADDED", "MODIFIED", "DELETED") or not isinstance(meta, dict):
            return version  # a BOOKMARK: only its version
        kept = slim(resource, obj)
        with self._changes:
            store = self._stores.get(resource)
            if store is None:
                return version
            if kind == "DELETED":
                store.pop(_key(kept), None)
            else:
                store[_key(kept)] = kept
            self._seen += 1
            self._changes.notify_all()
        return version

    def _rebuild_loop(self) -> None:
        while not self._stop.is_set():
            with self._changes:
                self._changes.wait_for(lambda: self._seen > self._built or self._stop.is_set())
            if self._stop.wait(self.settle):
                return
            with self._changes:
                seen = self._seen
            try:
                self._inventory = self._build()
            except Exception as exc:  # noqa: BLE001 - a value the inventory cannot take: keep the last one
                self.log("inventory-kept", "warning", error=type(exc).__name__,
                         reason="a changed object holds a value the inventory cannot take")
            with self._changes:
                self._built = seen
                self._changes.notify_all()

    def _build(self) -> Any:
        with self._changes:
            parts: Dict[str, Optional[List[Mapping[str, Any]]]] = {
                resource: None if store is None else list(store.values())
                     for resource, store in self._stores.items()}
        spaces = sorted(str(n["metadata"].get("name") or "") for n in parts.get(NAMESPACES) or [])
        return inventory_from(parts.get(NODES), parts.get(PODS) or [], parts.get(QUEUES), parts.get(CLAIMS),
                              parts.get(CONFIG_MAPS), parts.get(DEPLOYMENTS) or [], spaces, self.name, "", (),
                              parts.get(PRIORITY_CLASSES), parts.get(HYPER_NODES))
