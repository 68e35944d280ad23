"""The watches' reads (:class:`~.watch.Source`) through the official Kubernetes client (the ``k8s`` extra).

In a pod it connects with its service account; elsewhere through a kubeconfig (``--kubeconfig``, ``--context``).
A LIST is read in pages; a watch asks for bookmarks and is ended by the server after :data:`WATCH_SECONDS`, then
started again from its last version (:class:`~.watch.InventoryWatch`).  Every reply is read within the client's
cap (:func:`ascend_compile.kube.clientread.body_of`), every watch line within :data:`MAX_LINE`.
"""
from __future__ import annotations

import json
import os
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from ..kube.clienterror import ClusterError
from ..vocabulary import QUEUE_PLURAL, VOLCANO_SCHEDULING_API_GROUP, VOLCANO_SCHEDULING_VERSION
from .watch import (CLAIMS, CONFIG_MAPS, DEPLOYMENTS, HYPER_NODES, NAMESPACES, NODES, PODS, PRIORITY_CLASSES, QUEUES,
                    Event, Expired, Unavailable)

#: seconds the server keeps a watch open before ending it (a new one starts from its last version)
WATCH_SECONDS = 300
#: objects per page of a LIST
PAGE = 500
#: the longest watch event read (a larger one ends the watch: it is started again)
MAX_LINE = 16 * 1024 * 1024
#: the pods that hold NPUs now: not ended (as ``lint --cluster`` reads them)
LIVE_PODS = "status.phase!=Succeeded,status.phase!=Failed"
_HYPER_NODE = ("topology.volcano.sh", "v1alpha1", "hypernodes")


class WatchFailed(Exception):
    """The server ended a watch with an error other than an expired version."""


class ClientSource:
    """:class:`~.watch.Source` over a :class:`ascend_compile.kube.client.Cluster`."""

    def __init__(self, cluster: Any):
        import kubernetes

        self.cluster = cluster
        client = cluster.api_client
        core, custom = kubernetes.client.CoreV1Api(client), kubernetes.client.CustomObjectsApi(client)
        apps, scheduling = kubernetes.client.AppsV1Api(client), kubernetes.client.SchedulingV1Api(client)
        queue = (VOLCANO_SCHEDULING_API_GROUP, VOLCANO_SCHEDULING_VERSION, QUEUE_PLURAL)
        self.calls: Dict[str, Tuple[Callable[..., Any], Tuple[Any, ...], Dict[str, Any]]] = {
            NODES: (core.list_node, (), {}),
            PODS: (core.list_pod_for_all_namespaces, (), {"field_selector": LIVE_PODS}),
            QUEUES: (custom.list_cluster_custom_object, queue, {}),
            DEPLOYMENTS: (apps.list_deployment_for_all_namespaces, (), {}),
            PRIORITY_CLASSES: (scheduling.list_priority_class, (), {}),
            HYPER_NODES: (custom.list_cluster_custom_object, _HYPER_NODE, {}),
            NAMESPACES: (core.list_namespace, (), {}),
            CLAIMS: (core.list_persistent_volume_claim_for_all_namespaces, (), {}),
            CONFIG_MAPS: (core.list_config_map_for_all_namespaces, (), {}),
        }

    @classmethod
    def connect(cls, kubeconfig: Optional[str] = None, context: Optional[str] = None) -> "ClientSource":
        """In a pod (and no kubeconfig named): its service account; else the kubeconfig.  A ClusterError when
        neither can be used."""
        from ..kube.client import Cluster

        if kubeconfig is None and context is None and os.environ.get("KUBERNETES_SERVICE_HOST"):
            return cls(Cluster.in_cluster())
        return cls(Cluster.from_kubeconfig(kubeconfig, context))

    def list(self, resource: str) -> Tuple[List[Dict[str, Any]], str]:
        func, args, extra = self.calls[resource]
        items: List[Dict[str, Any]] = []
        token: Optional[str] = None
        while True:
            paging = {"limit": PAGE, **({"_continue": token} if token else {})}
            try:
                page = self.cluster._call(f"list {resource}", func, *args, **extra, **paging)
            except ClusterError as exc:
                if exc.status in (401, 403, 404):
                    raise Unavailable(exc.message) from None
                raise
            page = page if isinstance(page, dict) else {}
            items += [item for item in page.get("items") or [] if isinstance(item, dict)]
            meta = page.get("metadata")
            meta = meta if isinstance(meta, dict) else {}
            token = meta.get("continue") or None
            if not token:
                return items, str(meta.get("resourceVersion") or "")

    def watch(self, resource: str, version: str) -> Iterator[Event]:
        func, args, extra = self.calls[resource]
        try:
            response = func(*args, **extra, watch=True, resource_version=version, allow_watch_bookmarks=True,
                            timeout_seconds=WATCH_SECONDS, _preload_content=False,
                            _request_timeout=(30, WATCH_SECONDS + 30))
        except Exception as exc:  # noqa: BLE001 - the client's ApiException: 410 is an expired version
            if getattr(exc, "status", None) == 410:
                raise Expired() from None
            raise
        try:
            for line in _lines(response):
                event = json.loads(line)
                kind, obj = event.get("type"), event.get("object")
                if kind == "ERROR":
                    code = obj.get("code") if isinstance(obj, dict) else None
                    if code == 410:
                        raise Expired()
                    raise WatchFailed(f"HTTP {code}")
                if isinstance(kind, str) and isinstance(obj, dict):
                    yield kind, obj
        finally:
            response.release_conn()


def _lines(response: Any) -> Iterator[bytes]:
    """The lines of a streamed reply, each at most :data:`MAX_LINE` bytes."""
    pending = b""
    for chunk in response.stream(65536, decode_content=True):
        pending += chunk
        if len(pending) > MAX_LINE and b"\n" not in pending:
            raise WatchFailed(f"a watch event larger than {MAX_LINE} bytes")
        *complete, pending = pending.split(b"\n")
        for line in complete:
            if line.strip():
                yield line
    if pending.strip():
        yield pending
