"""``why``, ``wait``, ``list``, ``logs`` and ``events`` against a fake kubectl serving JSON recorded from the
simulated cluster (``tests/unit/data/cluster``), and the wait decision on its own."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Dict, List

import pytest

from ascend_compile.kube import jobs
from ascend_compile.kube.lifecycle import OTHER_END, REACHED, TIMED_OUT, reached, wait_for
from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import Fake, fake  # noqa: F401 - the fake kubectl fixture

RECORDING = json.loads((Path(__file__).resolve().parents[1] / "unit/data/cluster/ascendjob-min-available.json"
                        ).read_text())
JOB = "ascendjobs.mindxdl.gitee.com"


def _items(items: List[Dict[str, Any]]) -> str:
    return json.dumps({"apiVersion": "v1", "kind": "List", "items": items})


def _serve(fake: Fake, job: Dict[str, Any], pods=None, logs: str = "") -> None:
    pods = RECORDING["pods"] if pods is None else pods
    fake.rules(
        {"match": ["get", JOB, "--all-namespaces"], "stdout": _items([job])},
        {"match": ["get", JOB, "big"], "stdout": json.dumps(job)},
        {"match": ["get", JOB], "stdout": _items([job])},
        {"match": ["get", "jobs.batch.volcano.sh", "big"], "stdout": ""},
        {"match": ["get", "jobs.batch.volcano.sh"], "stdout": _items([])},
        {"match": ["get", "podgroups.scheduling.volcano.sh"], "stdout": _items(RECORDING["podgroups"])},
        {"match": ["get", "queues.scheduling.volcano.sh"], "stdout": json.dumps(RECORDING["queue"])},
        {"match": ["get", "pods", "--all-namespaces"], "stdout": _items([])},
        {"match": ["get", "pods"], "stdout": _items(pods)},
        {"match": ["get", "events"], "stdout": _items(RECORDING["events"])},
        {"match": ["get", "nodes"], "stdout": _items(RECORDING["nodes"])},
        {"match": ["logs"], "stdout": logs},
    )


def _run(fake: Fake, *args: str):
    return cli(*args, "-n", "matrix", env=fake.env())


def _with_condition(kind: str, reason: str = "") -> Dict[str, Any]:
    job = copy.deepcopy(RECORDING["job"])
    job["status"]["conditions"].append({"type": kind, "status": "True", "reason": reason, "message": "m"})
    return job


def test_why_names_the_cause_first_and_only_reads(fake: Fake) -> None:
    _serve(fake, RECORDING["job"])
    proc = _run(fake, "why", "big")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[1].startswith("why: the job needs 5 pods running together (minAvailable 5) but has only 2")
    assert {call["argv"][0] for call in fake.calls()} == {"get"}  # read-only
    data = json.loads(_run(fake, "why", "big", "-o", "json").stdout)
    assert data["cause"]["code"] == "min-available" and data["job"]["name"] == "big"


def test_why_of_a_missing_job_exits_1(fake: Fake) -> None:
    fake.rules({"match": ["get"], "stdout": ""})
    proc = _run(fake, "why", "nope")
    assert proc.returncode == 1
    assert "no AscendJob or Volcano Job named 'nope' in namespace 'matrix'" in proc.stderr


@pytest.mark.parametrize("condition, until, code", [
    ("Succeeded", "succeeded", 0), ("Failed", "succeeded", 1), ("Failed", "finished", 0),
    ("Running", "running", 0), ("Succeeded", "running", 0), ("Failed", "running", 1)])
def test_wait_exit_codes(fake: Fake, condition: str, until: str, code: int) -> None:
    _serve(fake, _with_condition(condition))
    proc = _run(fake, "wait", "big", f"--for={until}", "--timeout", "5s", "--kind", "acjob")
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert f"AscendJob matrix/big: {condition}" in proc.stdout


def test_wait_times_out_with_exit_1(fake: Fake) -> None:
    _serve(fake, RECORDING["job"])
    proc = _run(fake, "wait", "big", "--for=running", "--timeout", "1s", "--interval", "0.2s", "-o", "json")
    assert proc.returncode == 1, proc.stderr  # not in the state asked, as status --watch (2 is usage only)
    assert json.loads(proc.stdout)["result"] == "timed out"
    assert "timed out after 1s waiting for big to be running; it is Created (PodGroupNotInitialized)" in proc.stderr


def test_list_shows_what_ascend_compile_applied(fake: Fake) -> None:
    ours = copy.deepcopy(RECORDING["job"])
    ours["metadata"]["managedFields"] = [{"manager": "ascend-compile", "operation": "Apply"}]
    theirs = copy.deepcopy(RECORDING["job"])
    theirs["metadata"].update(name="theirs", managedFields=[{"manager": "kubectl-client-side-apply",
                                                             "operation": "Update"}])
    fake.rules({"match": ["get", JOB], "stdout": _items([ours, theirs])},
               {"match": ["get", "jobs.batch.volcano.sh"], "stdout": _items([])})
    proc = cli("list", env=fake.env())
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["NAMESPACE", "NAME", "KIND", "STATE", "STARTED", "COMPLETED",
                                   "matrix", "big", "AscendJob", "Created", "2026-12-01T02:50:01Z", "-"]
    get = [c["argv"] for c in fake.calls() if JOB in c["argv"]][0]
    assert "--all-namespaces" in get and "--show-managed-fields" in get
    names = [s["name"] for s in json.loads(cli("list", "--all", "-o", "json", env=fake.env()).stdout)]
    assert names == ["big", "theirs"]


def _running_pods() -> List[Dict[str, Any]]:
    pods = copy.deepcopy(RECORDING["pods"])
    for pod in pods:
        pod["status"] = {"phase": "Running", "containerStatuses": [
            {"name": "ascend", "restartCount": 0, "state": {"running": {}}}]}
    return pods


def test_logs_picks_the_pod_by_replica_and_index(fake: Fake) -> None:
    _serve(fake, RECORDING["job"], pods=_running_pods(), logs="epoch 1\nepoch 2\n")
    proc = _run(fake, "logs", "big", "--replica", "Worker", "--index", "0", "--tail", "5")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "epoch 1\nepoch 2\n"
    argv = [c["argv"] for c in fake.calls() if c["argv"][0] == "logs"][0]
    assert argv[-2:] == ["--", "big-worker-0"]
    assert "--container=ascend" in argv and "--tail=5" in argv and "--namespace=matrix" in argv


def test_logs_of_a_replica_the_job_does_not_have(fake: Fake) -> None:
    _serve(fake, RECORDING["job"], pods=_running_pods())
    proc = _run(fake, "logs", "big", "--replica", "Chief")
    assert proc.returncode == 1
    assert "job 'big' has no pod Chief; its pods: big-master-0 (master 0), big-worker-0 (worker 0)" in proc.stderr


def test_events_of_the_job_its_podgroup_and_pods(fake: Fake) -> None:
    _serve(fake, RECORDING["job"])
    events = json.loads(_run(fake, "events", "big", "-o", "json").stdout)
    assert {e["kind"] for e in events} == {"AscendJob", "PodGroup", "Pod"}
    assert [e["time"] for e in events] == sorted(e["time"] for e in events)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _state(state: str, terminal: bool = False, succeeded=None):
    return jobs.JobState("AscendJob", "j", "ns", state, terminal=terminal, succeeded=succeeded)


def test_wait_for_reads_until_the_state_and_reports_each_change() -> None:
    states = iter([_state("Created"), _state("Created"), _state("Running")])
    seen: List[str] = []
    clock = _Clock()
    waited = wait_for(lambda _left: next(states), "running", 60, 2, lambda s: seen.append(s.state), clock, clock.sleep)
    assert (waited.outcome, waited.state.state, seen, clock.now) == (REACHED, "Running", ["Created", "Running"], 4.0)


def test_wait_for_gives_up_at_the_deadline() -> None:
    clock = _Clock()
    waited = wait_for(lambda _left: _state("Created"), "succeeded", 5, 2, None, clock, clock.sleep)
    assert waited.outcome == TIMED_OUT and clock.now <= 5


def test_reached() -> None:
    assert reached(_state("Restarting"), "running") is None
    assert reached(_state("Failed", True, False), "running") == OTHER_END
    assert reached(_state("Completed", True, True), "finished") == REACHED
    with pytest.raises(ValueError):
        reached(_state("Running"), "ready")
