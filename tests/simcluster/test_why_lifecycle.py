"""A job's lifecycle through ``wait``, ``why``, ``list``, ``events`` and ``status`` times, CLI and Python client.

One AscendJob fails a pod, restarts (faultRetryTimes with fault-scheduling force) and then succeeds;
another fails for good (no retries); a third cannot be placed and is waited on until the timeout.
``wait`` exits 0 on the wanted state, 1 when the job ended otherwise, 2 on timeout.

The pod failure under ``fault-retry-times`` is injected with :func:`tests.simcluster.jobs.fail_pods_under_retry`,
in the order a real cluster sees it (docs/testing.md, "A pod failure under fault-retry-times").
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.checkout import run_cli
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for


NAMESPACE = "lifecycle"


def _spec(folder: Path, name: str, **fields: Any) -> Path:
    return jobs.write_spec(folder, name, NAMESPACE, **fields)


def _cli(sim, *args: str):
    return run_cli(*args, "--kubeconfig", str(sim.kubeconfig))


@pytest.fixture(scope="module")
def applied(sim, tmp_path_factory):
    folder = tmp_path_factory.mktemp("lifecycle")
    jobs.create_namespace(sim, NAMESPACE)
    paths = [_spec(folder, "retry-then-pass", faultRetryTimes=2, faultScheduling="force"),
             _spec(folder, "fails"),
             _spec(folder, "never-placed", npus=jobs.npus_never_placed(sim))]  # the gang waits for room it never gets
    out = _cli(sim, "apply", *map(str, paths))
    assert out.returncode == 0, out.stderr
    try:
        yield
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


def _wait(sim, name: str, until: str, timeout: str = "120s", *extra: str):
    return _cli(sim, "wait", name, "-n", NAMESPACE, f"--for={until}", "--timeout", timeout, "--interval", "1s",
                *extra)


def _why_first(sim, name: str) -> str:
    out = _cli(sim, "why", name, "-n", NAMESPACE)
    assert out.returncode == 0, out.stderr
    print(out.stdout)
    return out.stdout.splitlines()[1]


def test_a_job_that_fails_restarts_and_succeeds(sim, applied):
    name = "retry-then-pass"
    out = _wait(sim, name, "running")
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Running" in out.stdout.splitlines()[-1]
    pods = [p for p in jobs.pods_of(sim, NAMESPACE, "AscendJob", name) if p["status"].get("phase") == "Running"]
    status = jobs.fail_pods_under_retry(sim, NAMESPACE, name, pods[:1])
    assert any(c["type"] == "Restarting" for c in status["conditions"]), json.dumps(status, indent=1)
    out = _wait(sim, name, "running")
    assert out.returncode == 0, out.stdout + out.stderr

    def running_again():
        line = _why_first(sim, name)
        return line if "it restarted before" in line else None

    line = wait_for(running_again, timeout=60, what=f"why {name} to say it restarted", sim=sim)
    assert line.startswith("why: the job is running: 2 of 2 pods Running; it restarted before: ")
    pods = [p for p in jobs.pods_of(sim, NAMESPACE, "AscendJob", name) if p["status"].get("phase") == "Running"]
    jobs.label_pods(sim, NAMESPACE, pods, 0)
    out = _wait(sim, name, "succeeded", "120s", "-o", "json")
    assert out.returncode == 0, out.stdout + out.stderr
    result = json.loads(out.stdout)
    assert (result["result"], result["state"]["state"]) == ("reached", "Succeeded")
    assert _why_first(sim, name).startswith("why: the job succeeded at ")
    status = _cli(sim, "status", name, "-n", NAMESPACE)
    assert status.returncode == 0, status.stderr
    assert status.stdout.splitlines()[1].startswith("  started ") and ", completed " in status.stdout


def test_a_job_that_fails_for_good(sim, applied):
    name = "fails"
    assert _wait(sim, name, "running").returncode == 0
    pods = jobs.pods_of(sim, NAMESPACE, "AscendJob", name)
    jobs.label_pods(sim, NAMESPACE, pods[:1], 3)
    out = _wait(sim, name, "succeeded")
    assert out.returncode == 1, out.stdout + out.stderr  # ended, not as wanted
    assert "it ended without being succeeded" in out.stderr
    assert _wait(sim, name, "finished").returncode == 0
    line = _why_first(sim, name)
    assert line.startswith("why: the job failed: "), line
    why = json.loads(_cli(sim, "why", name, "-n", NAMESPACE, "-o", "json").stdout)
    assert any("exited 3" in d for d in why["cause"]["details"]), why["cause"]


def test_wait_times_out_on_a_job_that_cannot_be_placed(sim, applied):
    out = _wait(sim, "never-placed", "running", "3s")
    assert out.returncode == 1, out.stdout + out.stderr  # a timeout: not in the state asked (as status --watch)
    assert "timed out after 3s waiting for never-placed to be running" in out.stderr


def test_list_events_and_the_python_client(sim, applied):
    import ascend_compile

    out = _cli(sim, "list", "-o", "json")
    assert out.returncode == 0, out.stderr
    ours = {(s["namespace"], s["name"]) for s in json.loads(out.stdout)}
    assert {(NAMESPACE, "retry-then-pass"), (NAMESPACE, "fails"), (NAMESPACE, "never-placed")} <= ours
    # applied by someone else: listed with --all only
    other = "simcluster-applied"
    docs = [d for d in yaml.safe_load_all(_compiled(sim, "never-placed")) if d]
    for doc in docs:
        doc["metadata"]["name"] = other if doc["kind"] == "AscendJob" else f"rings-config-{other}"
    sim.apply_objects(docs)
    assert (NAMESPACE, other) not in {(s["namespace"], s["name"]) for s in json.loads(_cli(sim, "list", "-o",
                                                                                             "json").stdout)}
    everyone = json.loads(_cli(sim, "list", "--all", "-n", NAMESPACE, "-o", "json").stdout)
    assert (NAMESPACE, other) in {(s["namespace"], s["name"]) for s in everyone}
    events = _cli(sim, "events", "never-placed", "-n", NAMESPACE)
    assert events.returncode == 0, events.stderr
    assert "Created pod: never-placed-" in events.stdout
    with ascend_compile.Cluster.from_kubeconfig(str(sim.kubeconfig)) as cluster:
        listed = {(s.namespace, s.name) for s in cluster.list(NAMESPACE)}
        assert (NAMESPACE, "never-placed") in listed and (NAMESPACE, other) not in listed
        waited = cluster.wait("never-placed", "AscendJob", NAMESPACE, until="running", timeout=2, interval=0.5)
        assert (waited.code, waited.result) == (1, "timed out") and waited.state is not None and waited.state.state == "Created"
        assert cluster.wait("fails", "AscendJob", NAMESPACE, until="finished", timeout=60).code == 0
        assert any(e.reason == "SuccessfulCreatePod" for e in cluster.events("never-placed", "AscendJob", NAMESPACE))


def _compiled(sim, name: str) -> str:
    out = run_cli("compile", "-", input=yaml.safe_dump(
        {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
         "metadata": {"name": name, "namespace": NAMESPACE},
         "spec": {"framework": "pytorch", "profile": "card-910b-2", "npus": jobs.npus_never_placed(sim), "image": "pytorch-train:latest",
                  "command": ["/bin/bash", "-c", "bash /job/code/train_start.sh"]}}))
    assert out.returncode == 0, out.stderr
    return out.stdout
