"""The Python client's reader of the job-state model: which client call each read makes, and what a
missing resource type or object reads as (the same as on the kubectl path)."""
from __future__ import annotations

from typing import Any, List

import pytest

import tests.checkout  # noqa: F401 - imports this checkout as ascend_compile
from ascend_compile.kube.clientread import ClientReader


class NotFound(Exception):
    not_found = True


class Denied(Exception):
    not_found = False


class Api:
    """Records every call; answers with ``answer(name, args, kwargs)``."""

    def __init__(self, calls: List[Any], answer):
        self.calls, self.answer = calls, answer

    def __getattr__(self, name: str):
        def call(*args, **kwargs):
            self.calls.append((name, args, kwargs))
            return self.answer(name, args, kwargs)
        return call


class FakeCluster:
    namespace = "default"

    def __init__(self, answer=lambda name, args, kwargs: {"items": [{"metadata": {"name": name}}]}):
        self.calls: List[Any] = []
        self._core = Api(self.calls, answer)
        self._custom = Api(self.calls, answer)

    def _call(self, what, func, *args, **kwargs):
        return func(*args, **kwargs)

    def _plain(self, value):
        return value


def _reader(answer=None):
    cluster = FakeCluster(answer) if answer else FakeCluster()
    return ClientReader(cluster, Exception), cluster.calls


def test_lists_map_to_the_namespaced_or_cluster_wide_call():
    reader, calls = _reader()
    assert reader.list("pods", "ns", labels="job-name=big")[0]["metadata"]["name"] == "list_namespaced_pod"
    reader.list("pods", None, fields="status.phase!=Failed")
    reader.list("events", "ns")
    reader.list("nodes", None)
    reader.list("podgroups.scheduling.volcano.sh", "ns")
    reader.list("ascendjobs.mindxdl.gitee.com", None, labels="framework=pytorch")
    assert calls == [
        ("list_namespaced_pod", ("ns",), {"label_selector": "job-name=big"}),
        ("list_pod_for_all_namespaces", (), {"field_selector": "status.phase!=Failed"}),
        ("list_namespaced_event", ("ns",), {}),
        ("list_node", (), {}),
        ("list_namespaced_custom_object", ("scheduling.volcano.sh", "v1beta1", "ns", "podgroups"), {}),
        ("list_cluster_custom_object", ("mindxdl.gitee.com", "v1", "ascendjobs"),
         {"label_selector": "framework=pytorch"}),
    ]


def test_the_queue_is_cluster_scoped_and_a_missing_one_reads_as_none():
    def answer(name, args, kwargs):
        raise NotFound()
    reader, calls = _reader(answer)
    assert reader.get("queues.scheduling.volcano.sh", "default", None) is None
    assert calls == [("get_cluster_custom_object", ("scheduling.volcano.sh", "v1beta1", "queues", "default"), {})]
    assert reader.list("podgroups.scheduling.volcano.sh", "ns") == []  # Volcano not installed


def test_other_errors_are_raised():
    def answer(name, args, kwargs):
        raise Denied("forbidden")
    reader, _calls = _reader(answer)
    with pytest.raises(Denied):
        reader.list("nodes", None)


def test_logs_ask_for_the_container_tail_and_previous_run():
    reader, calls = _reader(lambda name, args, kwargs: "line 1\nline 2\n")
    assert reader.logs("big-worker-0", "ns", "ascend", 20, previous=True) == "line 1\nline 2\n"
    assert calls == [("read_namespaced_pod_log", ("big-worker-0", "ns"),
                      {"previous": True, "container": "ascend", "tail_lines": 20})]
