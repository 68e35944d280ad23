"""The inventory the webhook judges against is kept current by watches: a node added in the watch stream is seen
by the next admission, and no request lists anything (one LIST per resource at start, another only when a watch's
version expired)."""
from __future__ import annotations

import queue
import threading
import time
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from ascend_compile.lint.session import open_session
from ascend_compile.webhook.logs import Log
from ascend_compile.webhook.watch import (NODES, PODS, RESOURCES, Expired, InventoryWatch, Unavailable, slim)
from tests.webhook.helpers import NPU, Running, golden_job, review


def node(name: str, arch: str = "huawei-arm") -> Dict[str, Any]:
    return {"metadata": {"name": name, "resourceVersion": "7", "annotations": {"secret": "hunter2"},
                         "labels": {"host-arch": arch, "accelerator-type": "module-910b-8"}},
            "status": {"allocatable": {NPU: "8"}, "conditions": [{"type": "Ready", "status": "True"}],
                       "images": [{"names": ["a/very/big:image"]}]}}


class FakeSource:
    """Nodes only (every other resource may not be read); each watch streams what the test puts in its queue."""

    def __init__(self, nodes: List[Dict[str, Any]]):
        self.nodes = nodes
        self.listed: List[str] = []
        self.streams: Dict[str, "queue.Queue[Any]"] = {resource: queue.Queue() for resource in RESOURCES}
        self.closed = threading.Event()

    def list(self, resource: str) -> Tuple[List[Dict[str, Any]], str]:
        self.listed.append(resource)
        if resource != NODES:
            raise Unavailable("forbidden")
        return list(self.nodes), str(len(self.listed))

    def watch(self, resource: str, version: str) -> Iterator[Tuple[str, Dict[str, Any]]]:
        while not self.closed.is_set():
            try:
                item = self.streams[resource].get(timeout=0.05)
            except queue.Empty:
                continue
            if item == "expired":
                raise Expired()
            yield item


@pytest.fixture()
def watched() -> Iterator[Tuple[FakeSource, InventoryWatch, Running]]:
    source = FakeSource([node("x86-1", arch="huawei-x86")])
    watch = InventoryWatch(source, Log().event, settle=0.01)
    session = open_session(inventory=watch.sync())
    running = Running(Running.plain_settings(), session, watch.current)
    try:
        yield source, watch, running
    finally:
        running.stop()
        watch.stop()
        source.closed.set()


def _until(what: Any, timeout: float = 10.0) -> bool:
    """Whether ``what()`` came true within ``timeout`` seconds (the watch applies events in its own thread)."""
    end = time.monotonic() + timeout
    while not what():
        if time.monotonic() > end:
            return False
        time.sleep(0.01)
    return True


def _names(watch: InventoryWatch) -> List[str]:
    return sorted(n.name for n in watch.current().nodes)


def _refused_rules(running: Running) -> List[str]:
    status, answer = running.post(review(golden_job()))
    assert status == 200
    return sorted({line.split()[0] for line in answer.get("status", {}).get("message", "").splitlines()})


def test_a_node_added_in_the_watch_stream_is_seen_by_the_next_admission(watched: Any) -> None:
    source, watch, running = watched
    assert _refused_rules(running) == ["AC903"]  # no node has the job's host-arch: never scheduled
    for name in ("arm-1", "arm-2"):
        source.streams[NODES].put(("ADDED", node(name)))
    assert _until(lambda: _names(watch) == ["arm-1", "arm-2", "x86-1"])
    assert _refused_rules(running) == []
    source.streams[NODES].put(("DELETED", node("arm-1")))
    source.streams[NODES].put(("DELETED", node("arm-2")))
    assert _until(lambda: _names(watch) == ["x86-1"])
    assert _refused_rules(running) == ["AC903"]


def test_no_request_lists_anything(watched: Any) -> None:
    source, watch, running = watched
    assert sorted(source.listed) == sorted(RESOURCES) and watch.lists == len(RESOURCES)
    for _ in range(20):
        _refused_rules(running)
    assert sorted(source.listed) == sorted(RESOURCES)


def test_an_expired_watch_lists_its_resource_again(watched: Any) -> None:
    source, watch, running = watched
    source.nodes.append(node("arm-1"))
    source.nodes.append(node("arm-2"))
    source.streams[NODES].put("expired")
    assert _until(lambda: _names(watch) == ["arm-1", "arm-2", "x86-1"])
    assert source.listed.count(NODES) == 2
    assert _refused_rules(running) == []


def test_a_watch_that_fails_and_a_list_again_that_fails_are_tried_again(watched: Any) -> None:
    source, watch, running = watched
    real_list = source.list
    failures = ["the list after the expiry"]

    def flaky_list(resource: str) -> Tuple[List[Dict[str, Any]], str]:
        if failures:
            failures.pop()
            raise ConnectionError("the API server went away")
        return real_list(resource)

    source.list = flaky_list  # type: ignore[method-assign]
    said: List[str] = []
    watch.log = lambda event, *_, **__: said.append(event)
    source.nodes.append(node("arm-1"))
    source.nodes.append(node("arm-2"))
    source.streams[NODES].put("expired")
    assert _until(lambda: _names(watch) == ["arm-1", "arm-2", "x86-1"], timeout=15)
    assert failures == [] and said == ["watch-error"]


def test_the_inventory_keeps_only_what_it_reads() -> None:
    kept = slim(NODES, node("n1"))
    assert "annotations" not in kept["metadata"] and "images" not in kept["status"]
    pod = {"metadata": {"name": "p", "namespace": "ns", "annotations": {"a": "hunter2"}},
           "spec": {"nodeName": "n1", "containers": [{"name": "c", "env": [{"name": "S", "value": "hunter2"}],
                                                      "resources": {"limits": {NPU: 8}}}]},
           "status": {"phase": "Running"}}
    assert "hunter2" not in repr(slim(PODS, pod))
    assert slim(PODS, pod)["spec"]["containers"] == [{"name": "c", "resources": {"limits": {NPU: 8}}}]
