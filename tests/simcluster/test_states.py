"""Job states observed for real, and reported by ``ascend-compile status`` and the Python client.

AscendJob: Created (its pods cannot all be placed yet), Running, Restarting (a pod fails and the job
has ``faultRetryTimes``), Succeeded, Failed (a pod fails, no retries).  Volcano Job: Pending, Running,
Restarting (a pod is evicted under the ``PodEvicted: RestartJob`` policy), Completed, Failed; with
``faultRetryTimes`` (no policies) a failed pod is retried by the Ascend plugin while the job stays Running.

Transient states (Restarting) are caught with ``ascend-compile status --watch`` and a polling Python
client running while the failure is injected; each test asserts the state it names.
"""
from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Dict, List

import pytest

from tests.checkout import checkout_env, run_cli
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for


NAMESPACE = "states"


def _spec(tmp_path: Path, name: str, **fields: Any) -> Path:
    return jobs.write_spec(tmp_path, name, NAMESPACE, **fields)


def _kind_flag(kind: str) -> str:
    return "acjob" if kind == "AscendJob" else "vcjob"


def _cli_state(sim, name: str, kind: str) -> Dict[str, Any]:
    out = run_cli("status", name, "-n", NAMESPACE, "--kind", _kind_flag(kind), "--kubeconfig", str(sim.kubeconfig),
                  "-o", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)[0]


def _client_state(sim, name: str, kind: str):
    import ascend_compile

    with ascend_compile.Cluster.from_kubeconfig(str(sim.kubeconfig)) as cluster:
        return cluster.status(name, kind, NAMESPACE)


class _Recorder:
    """Records every state ``ascend-compile status --watch`` prints, and a polling Python client's.

    Entering returns once both have read the job (its current state is their first): a failure injected
    before that could come and go while the watch process still starts (seconds on a loaded machine), and
    neither would see it."""

    def __init__(self, sim, name: str, kind: str):
        self.sim, self.name, self.kind = sim, name, kind
        self.client_states: List[str] = []
        self._cli_states: List[str] = []
        self._stop = threading.Event()
        self._client_reading = threading.Event()
        self._cli_reading = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)
        self._reader = threading.Thread(target=self._read_watch, daemon=True)
        self._watch: "subprocess.Popen[str] | None" = None

    def _poll(self) -> None:
        import ascend_compile

        with ascend_compile.Cluster.from_kubeconfig(str(self.sim.kubeconfig)) as cluster:
            while not self._stop.is_set():
                state = cluster.status(self.name, self.kind, NAMESPACE).state
                if not self.client_states or self.client_states[-1] != state:
                    self.client_states.append(state)
                self._client_reading.set()
                time.sleep(0.1)

    def _read_watch(self) -> None:
        assert self._watch is not None and self._watch.stdout is not None
        for line in self._watch.stdout:  # one JSON object per line and change
            if line.strip().startswith("{"):
                self._cli_states.append(json.loads(line)["state"])
                self._cli_reading.set()

    def __enter__(self) -> "_Recorder":
        self._watch = subprocess.Popen(
            [sys.executable, "-m", "ascend_compile", "status", self.name, "-n", NAMESPACE, "--kind",
             _kind_flag(self.kind), "--kubeconfig", str(self.sim.kubeconfig), "--watch", "--interval", "200ms",
             "--timeout", "5m", "-o", "json"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=checkout_env())
        self._reader.start()
        self._thread.start()
        wait_for(lambda: self._client_reading.is_set() and self._cli_reading.is_set(), timeout=120, interval=0.1,
                 what=f"the Python client and 'status --watch' to read {self.name}", sim=self.sim,
                 last=lambda: f"client saw {self.client_states}, the watch printed {self._cli_states}")
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        if self._watch is not None and self._watch.poll() is None:
            self._watch.terminate()

    def cli_states(self) -> List[str]:
        assert self._watch is not None
        if self._watch.poll() is None:
            self._watch.terminate()
        self._watch.wait(timeout=30)
        self._reader.join(timeout=30)
        return list(self._cli_states)


@pytest.fixture
def states_ns(sim):
    jobs.create_namespace(sim, NAMESPACE)
    yield NAMESPACE
    jobs.clean_namespace(sim, NAMESPACE)


def _apply(sim, path: Path) -> None:
    out = run_cli("apply", str(path), "--kubeconfig", str(sim.kubeconfig))
    assert out.returncode == 0, out.stderr


def _running_pods(sim, name: str, kind: str, count: int, unless_failed: bool = False) -> List[Dict[str, Any]]:
    """The job's ``count`` Running pods, once it has them (or none, with ``unless_failed``, once the job Failed)."""
    def check():
        pods = jobs.pods_of(sim, NAMESPACE, kind, name)
        running = [p for p in pods if p["status"].get("phase") == "Running"]
        if len(running) == count:
            return running
        if unless_failed and jobs.job_object(sim, NAMESPACE, kind, name).get("status", {}).get(
                "state", {}).get("phase") == "Failed":
            return ["failed"]
        return None

    found = wait_for(check, timeout=120, what=f"{count} running pods of {name}", sim=sim,
                     last=lambda: jobs.describe_namespace(sim, NAMESPACE))
    return [] if found == ["failed"] else found


def _phases_since(sim, name: str, kind: str, first: str) -> List[str]:
    """The phases a Volcano Job recorded in ``status.conditions``, oldest first, from the last ``first`` on
    (all of them for ""; none before ``first`` was recorded)."""
    phases = [c.get("status") for c in jobs.job_object(sim, NAMESPACE, kind, name).get("status", {}).get(
        "conditions") or []]
    if not first:
        return phases
    return phases[len(phases) - 1 - phases[::-1].index(first):] if first in phases else []


def _wait_state(sim, name: str, kind: str, state: str, timeout: float = 90) -> Dict[str, Any]:
    return wait_for(lambda: (s := _cli_state(sim, name, kind))["state"] == state and s, timeout=timeout,
                    what=f"{kind} {name} in state {state}", sim=sim,
                    last=lambda: json.dumps(jobs.job_object(sim, NAMESPACE, kind, name).get("status"), indent=1))


# ---------------------------------------------------------------- AscendJob


def test_ascendjob_created_while_its_pods_cannot_be_placed(sim, states_ns, tmp_path):
    # more 2-NPU pods than the cluster has card-910b-2 nodes: gang scheduling keeps it waiting
    _apply(sim, _spec(tmp_path, "acjob-created", npus=jobs.npus_never_placed(sim)))
    state = _wait_state(sim, "acjob-created", "AscendJob", "Created")
    assert state["terminal"] is False
    assert _client_state(sim, "acjob-created", "AscendJob").state == "Created"
    assert jobs.pods_of(sim, NAMESPACE, "AscendJob", "acjob-created") == [] or all(
        p["status"].get("phase") == "Pending" for p in jobs.pods_of(sim, NAMESPACE, "AscendJob", "acjob-created"))


def test_ascendjob_running_restarting_succeeded(sim, states_ns, tmp_path):
    # unconditional retry: the plugin counts the retries (in volcano-system/vcjob-fault-npu-cm) only for
    # jobs with fault-scheduling force or grace, and the operator restarts only while retries remain
    name, kind = "acjob-retry", "AscendJob"
    _apply(sim, _spec(tmp_path, name, faultRetryTimes=2, faultScheduling="force"))
    pods = _running_pods(sim, name, kind, 2)
    _wait_state(sim, name, kind, "Running")
    assert _client_state(sim, name, kind).state == "Running"
    with _Recorder(sim, name, kind) as recorder:
        jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods[:1])
        wait_for(lambda: "Restarting" in recorder.client_states and recorder.client_states[-1] == "Running",
                 timeout=120, what=f"{name} to restart and run again", sim=sim,
                 last=lambda: f"client saw {recorder.client_states}")
        cli_seen = recorder.cli_states()
    assert "Restarting" in cli_seen, f"ascend-compile status --watch printed {cli_seen}"
    pods = _running_pods(sim, name, kind, 2)
    jobs.label_pods(sim, NAMESPACE, pods, 0)
    state = _wait_state(sim, name, kind, "Succeeded")
    assert state["succeeded"] is True and state["terminal"] is True
    client = _client_state(sim, name, kind)
    assert (client.state, client.succeeded) == ("Succeeded", True)


def test_ascendjob_fault_retry_times_alone_restarts(sim, states_ns, tmp_path):
    # faultRetryTimes alone: the compiler must add fault-scheduling (the plugin keeps no retry count
    # without it, and the operator would fail the job at the first pod failure)
    name, kind = "acjob-retry-only", "AscendJob"
    _apply(sim, _spec(tmp_path, name, faultRetryTimes=2))
    pods = _running_pods(sim, name, kind, 2)
    status = jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods[:1])
    assert [c["reason"] for c in status["conditions"] if c["type"] in ("Restarting", "Failed")] == ["JobRestarting"]
    new_pods = _running_pods(sim, name, kind, 2)
    assert not {p["metadata"]["uid"] for p in pods} & {p["metadata"]["uid"] for p in new_pods}
    assert jobs.remaining_retries(sim, NAMESPACE, name) == 1
    _wait_state(sim, name, kind, "Running")


def test_volcano_job_fault_retry_times_is_admitted_and_the_plugin_retries_it(sim, states_ns, tmp_path):
    # the compiled job has no policies (Volcano's webhook refuses the PodFailed -> Ignore of upstream's YAML
    # reference): it is admitted, and a failed pod is retried by the Ascend plugin (it deletes the job's pods,
    # Volcano makes new ones), not restarted by Volcano (retryCount stays 0)
    name, kind = "vcjob-retry", "Job"
    _apply(sim, _spec(tmp_path, name, target="VolcanoJob", faultRetryTimes=2))
    assert "policies" not in jobs.job_object(sim, NAMESPACE, kind, name)["spec"]
    pods = _running_pods(sim, name, kind, 2)
    status = jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods[:1], kind=kind)
    assert (status["state"]["phase"], status["failed"]) == ("Running", 1)
    old = {p["metadata"]["uid"] for p in pods}

    def new_pods_running():
        new = [p for p in jobs.pods_of(sim, NAMESPACE, kind, name)
               if p["metadata"]["uid"] not in old and p["status"].get("phase") == "Running"]
        return new if len(new) == 2 else None

    wait_for(new_pods_running, timeout=120, what=f"2 new running pods of {name}", sim=sim,
             last=lambda: jobs.describe_namespace(sim, NAMESPACE))
    wait_for(lambda: jobs.remaining_retries(sim, NAMESPACE, name, kind) == 1, timeout=30, sim=sim,
             what=f"the plugin to take one retry off {name}")
    status = jobs.job_object(sim, NAMESPACE, kind, name)["status"]
    assert status.get("retryCount", 0) == 0, status
    _wait_state(sim, name, kind, "Running")


def test_volcano_job_whose_pods_all_fail_at_once_is_failed_not_retried(sim, states_ns, tmp_path):
    # what docs/spec.md tells users: Volcano's job controller marks the job Failed as soon as every pod has
    # ended (and deletes its PodGroup) before the plugin's next session, so faultRetryTimes does not help; on
    # MindCluster's Volcano v1.9 the Ignore policy would keep the job (not simulated here)
    name, kind = "vcjob-retry-all", "Job"
    _apply(sim, _spec(tmp_path, name, target="VolcanoJob", faultRetryTimes=2))
    pods = _running_pods(sim, name, kind, 2)
    status = jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods, kind=kind)
    assert status["state"]["phase"] == "Failed"
    time.sleep(5)  # several scheduling sessions of the plugin
    assert jobs.phases(jobs.pods_of(sim, NAMESPACE, kind, name)) == ["Failed", "Failed"]
    assert jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"] == []
    assert _cli_state(sim, name, kind)["state"] == "Failed"


def test_volcano_job_fault_retry_with_a_restart_policy_fails_at_the_first_failure(sim, states_ns, tmp_path):
    # what AC408 warns about: with faultRetryTimes, a RestartJob policy on PodFailed makes Volcano restart the
    # job itself and count the restart against maxRetry, before the plugin's retry: with maxRetry 1 the first
    # failed pod fails the job, whatever faultRetryTimes (2) allows
    name, kind = "vcjob-retry-restart", "Job"
    path = _spec(tmp_path, name, target="VolcanoJob", faultRetryTimes=2, retries=1,
                 jobPatch={"spec": {"policies": [{"event": "PodFailed", "action": "RestartJob"}]}})
    compiled = run_cli("compile", str(path))
    assert compiled.returncode == 0, compiled.stderr
    manifest = tmp_path / "compiled.yaml"
    manifest.write_text(compiled.stdout, encoding="utf-8")
    linted = run_cli("lint", str(manifest), "--format", "json")
    found = [(f["rule"], f["severity"]) for f in json.loads(linted.stdout)["findings"]]
    assert found == [("AC408", "warning")], linted.stdout
    _apply(sim, path)
    pods = _running_pods(sim, name, kind, 2)
    jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods[:1], kind=kind)
    state = _wait_state(sim, name, kind, "Failed")
    assert state["terminal"] is True and state["succeeded"] is False
    assert jobs.job_object(sim, NAMESPACE, kind, name)["status"].get("retryCount", 0) == 1


def test_ascendjob_failed_when_a_pod_fails_without_retries(sim, states_ns, tmp_path):
    name, kind = "acjob-fail", "AscendJob"
    _apply(sim, _spec(tmp_path, name))
    pods = _running_pods(sim, name, kind, 2)
    jobs.label_pods(sim, NAMESPACE, pods[:1], 1)
    state = _wait_state(sim, name, kind, "Failed")
    assert state["terminal"] is True and state["succeeded"] is False
    assert state["reason"] == "JobFailed"
    client = _client_state(sim, name, kind)
    assert (client.state, client.terminal, client.succeeded) == ("Failed", True, False)


# ---------------------------------------------------------------- Volcano Job


def test_volcano_job_pending_while_its_pods_cannot_be_placed(sim, states_ns, tmp_path):
    name, kind = "vcjob-pending", "Job"
    _apply(sim, _spec(tmp_path, name, target="VolcanoJob", npus=jobs.npus_never_placed(sim)))
    state = _wait_state(sim, name, kind, "Pending")
    assert state["observed"] is True  # the controller wrote the phase
    assert _client_state(sim, name, kind).state == "Pending"


def test_volcano_job_running_restarting_completed(sim, states_ns, tmp_path):
    name, kind = "vcjob-evict", "Job"
    _apply(sim, _spec(tmp_path, name, target="VolcanoJob"))
    pods = _running_pods(sim, name, kind, 2)
    _wait_state(sim, name, kind, "Running")
    assert _client_state(sim, name, kind).state == "Running"
    with _Recorder(sim, name, kind) as recorder:
        # an eviction: the pod is deleted while the job runs (policy PodEvicted -> RestartJob)
        sim.kubectl("delete", "pod", "-n", NAMESPACE, pods[0]["metadata"]["name"], "--wait=false")
        # the job's own record (Volcano appends a condition at each phase change), not a poll that must catch
        # the phase while it lasts: Restarting after the eviction, then Running again
        wait_for(lambda: _phases_since(sim, name, kind, "Restarting")[-1:] == ["Running"], timeout=120,
                 what=f"{name} to restart and run again", sim=sim,
                 last=lambda: f"phases {_phases_since(sim, name, kind, '')}; client saw {recorder.client_states}")
        wait_for(lambda: recorder.client_states[-1] == "Running", timeout=30, what="the client to read it Running",
                 sim=sim, last=lambda: f"client saw {recorder.client_states}")
        cli_seen = recorder.cli_states()
    assert "Restarting" in recorder.client_states, f"the Python client saw {recorder.client_states}"
    assert "Restarting" in cli_seen, f"ascend-compile status --watch printed {cli_seen}"
    pods = _running_pods(sim, name, kind, 2)
    jobs.label_pods(sim, NAMESPACE, pods, 0)
    state = _wait_state(sim, name, kind, "Completed")
    assert state["succeeded"] is True and state["terminal"] is True
    assert _client_state(sim, name, kind).state == "Completed"


def test_volcano_job_failed_once_its_retries_are_used_up(sim, states_ns, tmp_path):
    # the pods' restartPolicy is OnFailure (a kubelet restarts a failing container in place), so the
    # job ends Failed through its policy: every eviction restarts the job until maxRetry is reached
    name, kind = "vcjob-fail", "Job"
    _apply(sim, _spec(tmp_path, name, target="VolcanoJob", retries=1))
    assert jobs.job_object(sim, NAMESPACE, kind, name)["spec"]["maxRetry"] == 1
    for _attempt in range(3):
        # the pods the restart itself kills may count as evictions too (Volcano's controller, on a busy machine),
        # so the retries can be used up before the restarted pods run: Failed then, with nothing left to evict
        pods = _running_pods(sim, name, kind, 2, unless_failed=True)
        if not pods:
            break
        before = jobs.job_object(sim, NAMESPACE, kind, name)["status"].get("retryCount", 0)
        sim.kubectl("delete", "pod", "-n", NAMESPACE, pods[0]["metadata"]["name"], "--wait=false")

        def reacted(before=before):
            status = jobs.job_object(sim, NAMESPACE, kind, name)["status"]
            phase = status["state"]["phase"]
            return status if phase == "Failed" or status.get("retryCount", 0) > before else None

        status = wait_for(reacted, timeout=90, what=f"{name} to restart or fail after an eviction", sim=sim)
        if status["state"]["phase"] == "Failed":
            break
    state = _wait_state(sim, name, kind, "Failed")
    assert state["terminal"] is True and state["succeeded"] is False
    client = _client_state(sim, name, kind)
    assert (client.state, client.succeeded) == ("Failed", False)
