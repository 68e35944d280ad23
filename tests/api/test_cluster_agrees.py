"""The Python Cluster API and the CLI agree: wait's codes, and a bad kind is the project's own error."""
from __future__ import annotations

from typing import Any, List

import pytest

from ascend_compile.errors import ArgumentError, InputError
from ascend_compile.kube.jobs import JobState

kubernetes = pytest.importorskip("kubernetes")


def _cluster(monkeypatch: pytest.MonkeyPatch, states: List[JobState]) -> Any:
    """A Cluster on an ApiClient that is never called: status() answers from ``states`` (the last repeats)."""
    from ascend_compile.kube.client import Cluster

    cluster = Cluster(kubernetes.client.ApiClient(), "training")
    monkeypatch.setattr(cluster, "status", lambda *_args: states.pop(0) if len(states) > 1 else states[0])
    return cluster


def _state(state: str, terminal: bool = False, succeeded: Any = None) -> JobState:
    return JobState("AscendJob", "j", "training", state, terminal=terminal, succeeded=succeeded)


def test_wait_times_out_with_the_cli_exit_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from ascend_compile.kube.lifecycle import EXIT_CODES, TIMED_OUT

    waited = _cluster(monkeypatch, [_state("Created")]).wait("j", until="running", timeout=0.05, interval=0.01)
    assert (waited.code, waited.result, waited.outcome) == (1, "timed out", TIMED_OUT)
    assert waited.code == EXIT_CODES[TIMED_OUT]
    assert waited.state is not None and waited.state.state == "Created"


def test_wait_codes_for_reached_and_ended_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    done = _cluster(monkeypatch, [_state("Created"), _state("Running")]).wait("j", until="running", interval=0.01)
    assert (done.code, done.result) == (0, "reached")
    failed = _cluster(monkeypatch, [_state("Failed", True, False)]).wait("j", until="succeeded", interval=0.01)
    assert (failed.code, failed.result) == (1, "ended otherwise")


@pytest.mark.parametrize("call", [
    lambda c: c.get("j", "Deployment"),
    lambda c: c.status("j", "Deployment"),
    lambda c: c.delete("j", "Deployment"),
    lambda c: c.wait("j", "Deployment", timeout=0.05),
    lambda c: c.get("j", None),
])
def test_a_bad_kind_is_an_argument_error_with_the_kinds_there_are(call: Any,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    from ascend_compile.kube.client import Cluster

    cluster = Cluster(kubernetes.client.ApiClient(), "training")
    monkeypatch.setattr(cluster, "_call", lambda *_a, **_k: pytest.fail("a request was made"))
    with pytest.raises(ArgumentError) as caught:
        call(cluster)
    assert isinstance(caught.value, InputError)
    finding = caught.value.findings[0]
    assert "unknown job kind" in finding.message
    assert "AscendJob" in finding.hint and "VolcanoJob" in finding.hint


def test_create_of_an_object_it_does_not_create_is_an_argument_error() -> None:
    from ascend_compile.kube.client import Cluster

    cluster = Cluster(kubernetes.client.ApiClient(), "training")
    with pytest.raises(ArgumentError) as caught:
        cluster.create([{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}}])
    finding = caught.value.findings[0]
    assert "objects[0]" in finding.message and "Deployment (apps/v1)" in finding.message
    assert "AscendJob" in finding.hint


def test_wait_for_a_bad_state_is_an_argument_error(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ArgumentError) as caught:
        _cluster(monkeypatch, [_state("Created")]).wait("j", until="done")
    assert "until='done'" in caught.value.findings[0].message
    assert "running, succeeded, finished" in caught.value.findings[0].hint
