"""The job-state model's reader in the Python client: the same reads as kubectl's, as plain JSON objects.

:class:`~ascend_compile.kube.client.Cluster` builds one for ``why``, ``wait``, ``list``, ``logs`` and
``events``; errors are the client's :class:`~ascend_compile.kube.clienterror.ClusterError`, and a resource
type the cluster does not have (Volcano not installed) reads as nothing, as on the kubectl path.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, List, Optional, Tuple, Type

from ..vocabulary import PODGROUP_PLURAL, QUEUE_PLURAL, VOLCANO_SCHEDULING_API_GROUP, VOLCANO_SCHEDULING_VERSION
from .jobs import BY_RESOURCE
from .jobview import EVENT_RESOURCE, NODE_RESOURCE, POD_RESOURCE, PODGROUP_RESOURCE, QUEUE_RESOURCE
from .process import MAX_CAPTURE

#: custom resource -> (group, version, plural, namespaced)
_CUSTOM: Dict[str, Tuple[str, str, str, bool]] = {
    **{res: (t.group, t.version, t.plural, True) for res, t in BY_RESOURCE.items()},
    PODGROUP_RESOURCE: (VOLCANO_SCHEDULING_API_GROUP, VOLCANO_SCHEDULING_VERSION, PODGROUP_PLURAL, True),
    QUEUE_RESOURCE: (VOLCANO_SCHEDULING_API_GROUP, VOLCANO_SCHEDULING_VERSION, QUEUE_PLURAL, False),
}


_CHUNK = 1024 * 1024


class ReplyError(Exception):
    """A reply the client could not take: larger than the cap, or not the JSON it says it is."""


def body_of(response: Any) -> Any:
    """What a call made with ``_preload_content=False`` answered: its body read in chunks, refused once it passes
    :data:`~.process.MAX_CAPTURE` (the cap on kubectl's output too: one cap for every reply, so a hostile server cannot
    fill our memory), then parsed as JSON unless it is text (a log).  Anything that is not a response (a fake, a
    value) is returned as it is."""
    read = getattr(response, "read", None)
    if not callable(read):
        return response
    chunks: List[bytes] = []
    size = 0
    try:
        while True:
            chunk = read(_CHUNK)
            if not chunk:
                break
            size += len(chunk)
            if size > MAX_CAPTURE:
                raise ReplyError(f"the API server's reply is larger than {MAX_CAPTURE} bytes; stopped reading it")
            chunks.append(chunk)
    finally:
        getattr(response, "release_conn", lambda: None)()
    body = b"".join(chunks)
    headers = getattr(response, "headers", None) or {}
    if "json" not in str(headers.get("Content-Type", "application/json")):
        return body.decode("utf-8", "replace")
    try:
        return json.loads(body) if body.strip() else {}
    except (ValueError, RecursionError):
        raise ReplyError("the API server's reply is not JSON") from None
    except MemoryError:
        raise ReplyError("the API server's reply is too large to read in the memory available") from None


class ClientReader:
    """:class:`~ascend_compile.kube.jobview.Reader` over a :class:`~ascend_compile.kube.client.Cluster`."""

    def __init__(self, cluster: Any, error: Type[BaseException]):
        self.cluster = cluster
        self.errors: Tuple[Type[BaseException], ...] = (error,)

    def _call(self, what: str, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return self.cluster._call(what, func, *args, **kwargs)

    def get(self, resource: str, name: str, namespace: Optional[str]) -> Optional[Dict[str, Any]]:
        custom = self.cluster._custom
        group, version, plural, namespaced = _CUSTOM[resource]
        try:
            if namespaced:
                ns = namespace or self.cluster.namespace
                result = self._call(f"get {resource} {ns}/{name}", custom.get_namespaced_custom_object,
                                    group, version, ns, plural, name)
            else:
                result = self._call(f"get {resource} {name}", custom.get_cluster_custom_object,
                                    group, version, plural, name)
        except self.errors[0] as exc:
            if getattr(exc, "not_found", False):
                return None
            raise
        data: Dict[str, Any] = self.cluster._plain(result)
        return data

    def list(self, resource: str, namespace: Optional[str], labels: str = "",
             fields: str = "") -> List[Dict[str, Any]]:
        selectors: Dict[str, str] = {}
        if labels:
            selectors["label_selector"] = labels
        if fields:
            selectors["field_selector"] = fields
        try:
            result = self._list(resource, namespace, selectors)
        except self.errors[0] as exc:
            if getattr(exc, "not_found", False) and resource in _CUSTOM:
                return []
            raise
        items = self.cluster._plain(result).get("items") or []
        return [item for item in items if isinstance(item, dict)]

    def _list(self, resource: str, namespace: Optional[str], selectors: Dict[str, str]) -> Any:
        what = f"list {resource}"
        if resource in _CUSTOM:
            group, version, plural, _namespaced = _CUSTOM[resource]
            custom = self.cluster._custom
            if namespace is None:
                return self._call(what, custom.list_cluster_custom_object, group, version, plural, **selectors)
            return self._call(what, custom.list_namespaced_custom_object, group, version, namespace, plural,
                              **selectors)
        core = self.cluster._core
        if resource == NODE_RESOURCE:
            return self._call(what, core.list_node, **selectors)
        calls = {POD_RESOURCE: (core.list_namespaced_pod, core.list_pod_for_all_namespaces),
                 EVENT_RESOURCE: (core.list_namespaced_event, core.list_event_for_all_namespaces)}
        namespaced, everywhere = calls[resource]
        if namespace is None:
            return self._call(what, everywhere, **selectors)
        return self._call(what, namespaced, namespace, **selectors)

    def logs(self, pod: str, namespace: str, container: str, tail: int, previous: bool = False) -> str:
        options: Dict[str, Any] = {"previous": previous}
        if container:
            options["container"] = container
        if tail > 0:
            options["tail_lines"] = tail
        text = self._call(f"logs {namespace}/{pod}", self.cluster._core.read_namespaced_pod_log, pod, namespace,
                          **options)
        return text if isinstance(text, str) else str(text or "")
