"""The watches' reads through the Kubernetes client (:mod:`ascend_compile.webhook.source`), against a fake API:
a LIST read page by page, a part that may not be read left out, watch events read from a stream however its
chunks cut the lines, and an expired version (at the start of a watch or in its stream) asking for a new LIST."""
from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List

import pytest

pytest.importorskip("kubernetes", reason="the k8s extra (the kubernetes client) is not installed")

from ascend_compile.kube.clienterror import ClusterError  # noqa: E402
from ascend_compile.webhook.source import ClientSource  # noqa: E402
from ascend_compile.webhook.watch import NODES, Expired, Unavailable  # noqa: E402


class FakeCluster:
    api_client = None

    def __init__(self) -> None:
        self.calls: List[Dict[str, Any]] = []

    def _call(self, what: str, func: Any, *args: Any, **kwargs: Any) -> Any:
        self.calls.append(kwargs)
        return func(*args, **kwargs)


class FakeStream:
    def __init__(self, chunks: List[bytes]):
        self.chunks = chunks
        self.released = False

    def stream(self, amount: int, decode_content: bool = True) -> Iterator[bytes]:
        yield from self.chunks

    def release_conn(self) -> None:
        self.released = True


def _source(func: Any) -> ClientSource:
    source = ClientSource(FakeCluster())
    source.calls[NODES] = (func, (), {})
    return source


def test_a_list_is_read_page_by_page_with_the_last_pages_version() -> None:
    pages = {None: {"items": [{"metadata": {"name": "a"}}], "metadata": {"continue": "next"}},
             "next": {"items": [{"metadata": {"name": "b"}}], "metadata": {"resourceVersion": "42"}}}
    source = _source(lambda limit, _continue=None: pages[_continue])
    items, version = source.list(NODES)
    assert [item["metadata"]["name"] for item in items] == ["a", "b"] and version == "42"
    assert [call["limit"] for call in source.cluster.calls] == [500, 500]


def test_a_part_that_may_not_be_read_is_unavailable() -> None:
    def forbidden(**_: Any) -> None:
        raise ClusterError("nodes is forbidden", status=403)

    with pytest.raises(Unavailable):
        _source(forbidden).list(NODES)


def _event(kind: str, obj: Dict[str, Any]) -> bytes:
    return json.dumps({"type": kind, "object": obj}).encode() + b"\n"


def test_watch_events_are_read_whole_across_chunks_until_an_expired_version() -> None:
    added = _event("ADDED", {"metadata": {"name": "n1", "resourceVersion": "5"}})
    bookmark = _event("BOOKMARK", {"metadata": {"resourceVersion": "6"}})
    gone = _event("ERROR", {"kind": "Status", "code": 410})
    text = added + bookmark + gone
    stream = FakeStream([text[:7], text[7:60], text[60:]])
    seen: List[Any] = []
    asked: Dict[str, Any] = {}

    def watch(**kwargs: Any) -> FakeStream:
        asked.update(kwargs)
        return stream

    with pytest.raises(Expired):
        for event in _source(watch).watch(NODES, "4"):
            seen.append(event)
    assert [(kind, obj["metadata"]["resourceVersion"]) for kind, obj in seen] == [("ADDED", "5"), ("BOOKMARK", "6")]
    assert asked["watch"] is True and asked["resource_version"] == "4" and asked["allow_watch_bookmarks"] is True
    assert stream.released


def test_a_watch_refused_for_an_expired_version_asks_for_a_new_list() -> None:
    class Gone(Exception):
        status = 410

    def watch(**_: Any) -> None:
        raise Gone()

    with pytest.raises(Expired):
        list(_source(watch).watch(NODES, "1"))
