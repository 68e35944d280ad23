"""``webhook serve`` answers AdmissionReviews as lint judges the object: refused at error with each finding's field
path and hint, warnings as admission warnings, the same answer on a dry run, bad bodies 400, other kinds admitted,
our own failures per the failure mode, and a log that never holds a value of the object."""
from __future__ import annotations

import json
import time
from typing import Iterator

import pytest

from ascend_compile.webhook.settings import ServeSettings
from tests.webhook.helpers import Running, golden_job, review, serving, with_npus

PLAIN = dict(listen="127.0.0.1:0", plain_http=True, shutdown_delay=0)


@pytest.fixture(scope="module")
def hook() -> Iterator[Running]:
    yield from serving()


def test_a_job_with_an_error_is_refused_naming_the_rule_the_field_and_the_fix(hook: Running) -> None:
    status, answer = hook.post(review(with_npus(golden_job(), {"Master": 16, "Worker": 16})))
    assert status == 200 and answer["uid"] == "uid-1" and answer["allowed"] is False
    assert answer["status"]["code"] == 403
    lines = answer["status"]["message"].splitlines()
    assert lines == [line for line in lines if line.startswith("AC301 at ")] and len(lines) == 2
    worker = next(line for line in lines if "Worker" in line)
    assert worker.startswith("AC301 at spec.replicaSpecs.Worker.template.spec.containers[0].resources.requests"
                             "['huawei.com/Ascend910']: ")
    assert "16 NPUs per pod" in worker and "(fix: request one of 1, 2, 3, 4, 5, 6, 7, 8 NPUs per pod" in worker


def test_the_compiled_example_is_admitted_without_warnings(hook: Running) -> None:
    status, answer = hook.post(review(golden_job(), uid="clean"))
    assert status == 200 and answer == {"uid": "clean", "allowed": True}


def test_a_warning_is_admitted_with_the_finding_as_an_admission_warning(hook: Running) -> None:
    status, answer = hook.post(review(with_npus(golden_job(), {"Worker": 5})))
    assert status == 200 and answer["allowed"] is True and "status" not in answer
    assert len(answer["warnings"]) == 1 and answer["warnings"][0].startswith("AC703 at spec.replicaSpecs.")
    assert len(answer["warnings"][0]) <= 256


def test_a_dry_run_gets_the_same_answer_and_leaves_no_log_line(hook: Running) -> None:
    bad = with_npus(golden_job(), {"Master": 16, "Worker": 16})
    _, real = hook.post(review(bad, uid="real-run"))
    _, dry = hook.post(review(bad, uid="dry-run", dryRun=True))
    assert {**dry, "uid": "real-run"} == real
    assert "real-run" in hook.log and "dry-run" not in hook.log
    _, metrics = hook.request("GET", "/metrics")
    assert 'ascend_compile_denials_total{rule="AC301"}' in metrics.decode()


@pytest.mark.parametrize("obj", [
    {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings"}, "data": {"a": "b"}},
    {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}, "spec": {"size": "huge"}},
    {"apiVersion": "mindxdl.gitee.com/v2beta9", "kind": "Job", "metadata": {"name": "not-volcano"}},
])
def test_an_object_of_a_kind_lint_does_not_read_is_admitted_without_warnings(hook: Running, obj: dict) -> None:
    status, answer = hook.post(review(obj, uid="other"))
    assert status == 200 and answer == {"uid": "other", "allowed": True}


def test_a_delete_has_no_object_and_is_admitted(hook: Running) -> None:
    status, answer = hook.post(review(None, uid="gone", operation="DELETE", oldObject=golden_job()))
    assert status == 200 and answer == {"uid": "gone", "allowed": True}


def test_an_update_is_refused_only_for_what_the_stored_object_did_not_have(hook: Running) -> None:
    stored = with_npus(golden_job(), {"Master": 16, "Worker": 16})
    relabelled = json.loads(json.dumps(stored))
    relabelled["metadata"]["labels"]["team"] = "vision"
    _, same = hook.post(review(relabelled, operation="UPDATE", oldObject=stored))
    assert same["allowed"] is True and [w[:5] for w in same["warnings"]] == ["AC301", "AC301"]
    _, added = hook.post(review(stored, operation="UPDATE", oldObject=golden_job()))
    assert added["allowed"] is False and added["status"]["message"].startswith("AC301 at ")


def _big(size: int) -> bytes:
    job = golden_job()
    job["metadata"]["labels"]["padding"] = "x" * size
    return json.dumps(review(job)).encode()


@pytest.mark.parametrize("body, reason", [
    (b'{"a": [1, 2', "the body is not valid JSON"),
    (b'{"apiVersion": "v1", "kind": "Pod"}', "not an admission.k8s.io/v1 AdmissionReview"),
    (b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview"}', "has no request"),
    (b'{"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview", "request": {"uid": 7}}', "request.uid"),
    (b'{"a": 1, "a": 2}', "duplicate key"),
    (b"[" * 5000 + b"]" * 5000, "nest"),
    (b'{"x": "\xff"}', "UTF-8"),
    (b"[1]\n---\n[2]", "not one JSON object"),
])
def test_a_body_that_is_not_an_admission_review_is_400_with_a_short_reason(hook: Running, body: bytes,
                                                                          reason: str) -> None:
    status, text = hook.post(body)
    assert status == 400 and reason in text and len(text) < 300


def test_a_body_over_the_limit_is_400_without_being_read() -> None:
    for running in serving(ServeSettings(**PLAIN, max_body_bytes=8192)):
        status, text = running.post(_big(8192))
        assert status == 400 and "larger than the 8192 byte limit" in text
        status, answer = running.post(review(golden_job()))
        assert status == 200 and answer["allowed"] is True  # a body under the limit is answered


def test_a_body_without_a_length_is_400(hook: Running) -> None:
    conn = hook.connection()
    conn.putrequest("POST", "/validate")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    conn.send(b"5\r\nhello\r\n0\r\n\r\n")
    reply = conn.getresponse()
    assert reply.status == 400 and b"Content-Length" in reply.read()
    conn.close()


@pytest.mark.parametrize("mode, allowed", [("ignore", True), ("fail", False)])
def test_an_internal_error_is_answered_per_the_failure_mode_without_a_traceback(mode: str, allowed: bool) -> None:
    def broken(request: object) -> None:
        raise KeyError("hunter2 from the object")

    for running in serving(ServeSettings(**PLAIN, failure_mode=mode)):
        running.server.judge.judge = broken
        status, answer = running.post(review(golden_job()))
        assert status == 200 and answer["allowed"] is allowed
        shown = json.dumps(answer)
        assert "Traceback" not in shown and "hunter2" not in shown
        assert allowed or "could not check this object" in answer["status"]["message"]
        assert '"event": "internal-error"' in running.log and '"error": "KeyError"' in running.log
        assert "hunter2" not in running.log
        status, _ = running.request("GET", "/healthz")
        assert status == 200  # the server lives on


@pytest.mark.parametrize("mode, allowed", [("ignore", True), ("fail", False)])
def test_a_judgement_past_the_deadline_is_answered_in_time_per_the_failure_mode(mode: str, allowed: bool) -> None:
    def slow(request: object) -> None:
        time.sleep(3)

    for running in serving(ServeSettings(**PLAIN, failure_mode=mode, deadline=0.5)):
        running.server.judge.judge = slow
        started = time.monotonic()
        status, answer = running.post(review(golden_job()))
        assert time.monotonic() - started < 2.5
        assert status == 200 and answer["allowed"] is allowed
        assert "no answer within 0.5 s" in running.log


def test_audit_mode_admits_what_would_be_refused_with_the_findings_as_warnings() -> None:
    for running in serving(ServeSettings(**PLAIN, audit=True, failure_mode="fail")):
        status, answer = running.post(review(with_npus(golden_job(), {"Master": 16, "Worker": 16})))
        assert status == 200 and answer["allowed"] is True and "status" not in answer
        assert [w[:9] for w in answer["warnings"]] == ["AC301 at "] * 2
        assert all(len(w) <= 256 for w in answer["warnings"])
        running.server.judge.judge = lambda request: 1 / 0
        assert running.post(review(golden_job()))[1]["allowed"] is True  # audit never refuses, not even on errors


def test_the_log_holds_rules_and_names_never_env_or_annotation_values(hook: Running) -> None:
    job = with_npus(golden_job(), {"Master": 16, "Worker": 16})
    job["metadata"]["annotations"] = {"note": "hunter2"}
    container = job["spec"]["replicaSpecs"]["Worker"]["template"]["spec"]["containers"][0]
    container["env"] += [{"name": "SECRET", "value": "hunter2"}, {"name": "SECRET", "value": "hunter2"},
                         {"name": "TOKEN", "value": 12345}]
    status, answer = hook.post(review(job, uid="secret-job"))
    assert status == 200 and answer["allowed"] is False
    lines = [json.loads(line) for line in hook.log.splitlines() if "secret-job" in line]
    assert len(lines) == 1 and lines[0]["event"] == "admission" and "AC301" in lines[0]["rules"]
    assert set(lines[0]) == {"time", "level", "event", "uid", "kind", "namespace", "name", "operation", "allowed",
                             "result", "rules", "ms"}
    assert "hunter2" not in hook.log and "12345" not in hook.log


def test_health_readiness_and_metrics() -> None:
    for running in serving(ready=False):
        assert running.request("GET", "/healthz")[0] == 200
        assert running.request("GET", "/readyz")[0] == 503
        status, answer = running.post(review(golden_job()))
        assert status == 200 and answer["allowed"] is True  # not ready: the failure mode's answer (ignore)
        assert "not ready" in running.log
        from ascend_compile.lint.session import open_session
        from ascend_compile.webhook.judge import Judge

        running.server.judge = Judge(open_session(), running.server.settings)
        assert running.request("GET", "/readyz")[0] == 200
        running.post(review(with_npus(golden_job(), {"Master": 16, "Worker": 16})))
        running.post(review({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}))
        status, page = running.request("GET", "/metrics")
        text = page.decode()
        assert status == 200
        assert 'ascend_compile_admissions_total{kind="other",result="error"} 1' in text  # before ready: unjudged
        assert 'ascend_compile_admissions_total{kind="AscendJob",result="denied"} 1' in text
        assert 'ascend_compile_admissions_total{kind="other",result="allowed"} 1' in text
        assert 'ascend_compile_denials_total{rule="AC301"} 1' in text
        assert 'ascend_compile_admission_seconds_count 3' in text
        assert running.request("GET", "/nowhere")[0] == 404
        running.server.draining = True
        assert running.request("GET", "/readyz")[0] == 503
