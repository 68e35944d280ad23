"""Fault tolerance and the job shapes of issue 15, for real: on the simulated cluster.

- process-level recovery's objects (the ``reset-config-<job>`` ConfigMap, the ``recover-strategy``
  annotation, the reset mount, TaskD's port) are accepted by the real ascend-operator, which labels the
  PodGroup ``process-recover-enable`` and runs the job;
- every showcase golden (``golden/showcase/``) on a simulated profile reaches Running (CI runs a
  representative few; ``ASCEND_COMPILE_SIMCLUSTER_FULL=1`` runs them all).

Retries after a failed pod are in ``test_states.py``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import run_cli
from tests.simcluster import jobs, nodes
from tests.simcluster.jobs import wait_for

ROOT = Path(__file__).resolve().parents[2]
SHOWCASE = ROOT / "golden" / "showcase"
NAMESPACE = "resilience"


@pytest.fixture
def ns(sim):
    jobs.create_namespace(sim, NAMESPACE)
    yield NAMESPACE
    jobs.clean_namespace(sim, NAMESPACE)
    sim.kubectl("delete", "configmaps", "-n", NAMESPACE, "-l", "reset", "--wait=false", check=False)


def _apply(sim, tmp_path: Path, name: str, **fields: Any) -> None:
    spec = {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
            "metadata": {"name": name, "namespace": NAMESPACE},
            "spec": {"framework": "pytorch", "profile": "card-910b-2", "npus": 4, "image": "pytorch-train:latest",
                     **fields}}
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    out = run_cli("apply", str(path), "--kubeconfig", str(sim.kubeconfig))
    assert out.returncode == 0, f"{out.stdout}\n{out.stderr}\n{sim.logs_for_failure()}"


def _running(sim, name: str, kind: str, count: int, avoid: "set[str]" = frozenset()) -> List[Dict[str, Any]]:
    def check():
        pods = [p for p in jobs.pods_of(sim, NAMESPACE, kind, name) if p["metadata"]["uid"] not in avoid]
        running = [p for p in pods if p["status"].get("phase") == "Running"]
        return running if len(running) == count else None

    return wait_for(check, timeout=180, what=f"{count} running pods of {name}", sim=sim,
                    last=lambda: jobs.describe_namespace(sim, NAMESPACE))


def test_process_recovery_objects_are_accepted_by_the_operator(sim, ns, tmp_path):
    name = "process-recovery"
    _apply(sim, tmp_path, name, faultRetryTimes=3, podRescheduling=True,
           processRecovery={"strategies": ["retry", "recover", "dump"], "waitRescheduleTimeout": 120},
           terminationGracePeriodSeconds=60)
    reset = jobs.get_json(sim, "configmap", f"reset-config-{name}", "-n", NAMESPACE)
    assert "reset.json" in reset["data"]
    pods = _running(sim, name, "AscendJob", 2)
    groups = jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n", NAMESPACE)["items"]
    group = next(g for g in groups if g["metadata"]["name"].startswith(name))
    assert group["metadata"]["labels"].get("process-recover-enable") == "on"
    for pod in pods:
        env = {e["name"]: e.get("value") for e in pod["spec"]["containers"][0].get("env", [])}
        assert env.get("PROCESS_RECOVER") == "on", env  # injected by the operator from recover-strategy
    state = jobs.job_object(sim, NAMESPACE, "AscendJob", name)["status"]["conditions"][-1]["type"]
    assert state == "Running"


#: showcase goldens the simulated cluster cannot run, and why
NOT_SIMULATED = {
    "multilevel-acjob": "the simulated nodes carry no multi-level topology labels and the scheduler no "
                        "resource-level-config ('topology label does not match config')",
    "pytorch-ranktable-pvc-acjob": "no PersistentVolume controller runs, so the job's claim never binds",
}
#: run in CI: a resumable-training AscendJob, a pod-rescheduling Volcano Job, a sub-health 16-NPU module job
REPRESENTATIVE = {"llm-resumable-training-acjob", "pytorch-pod-rescheduling-vcjob", "tensorflow-box16-subhealth-acjob"}


def _showcase() -> List[Any]:
    params = []
    profiles = nodes.load_profiles()
    for path in sorted(SHOWCASE.glob("*.yaml")):
        spec = yaml.safe_load((ROOT / "examples" / "showcase" / path.name).read_text())
        profile = profiles[spec["spec"]["profile"]]
        marks = [] if path.stem in REPRESENTATIVE else [pytest.mark.simcluster_full]
        if not profile.simulated:
            marks += [pytest.mark.skip(reason=f"profile {profile.name} is not simulated: "
                                              f"{nodes.UNSIMULATED[profile.name]}"), pytest.mark.simcluster_full]
        if path.stem in NOT_SIMULATED:
            marks += [pytest.mark.skip(reason=NOT_SIMULATED[path.stem]), pytest.mark.simcluster_full]
        params.append(pytest.param(path, marks=marks, id=path.stem))
    return params


@pytest.mark.parametrize("golden", _showcase())
def test_showcase_golden_reaches_running(sim, golden):
    docs = [d for d in yaml.safe_load_all(golden.read_text()) if d]
    job = next(d for d in docs if d["kind"] in ("AscendJob", "Job"))
    namespace, name = job["metadata"].get("namespace", "default"), job["metadata"]["name"]
    jobs.create_namespace(sim, namespace)
    try:
        applied = sim.kubectl("apply", "-f", str(golden), check=False)
        assert applied.returncode == 0, applied.stderr
        expected = sum(int(r.get("replicas", 1)) for r in job["spec"].get("replicaSpecs", {}).values()) + \
            sum(int(t.get("replicas", 1)) for t in job["spec"].get("tasks", []))

        def all_running():
            pods = jobs.pods_of(sim, namespace, job["kind"], name)
            return pods if len(pods) == expected and set(jobs.phases(pods)) == {"Running"} else None

        wait_for(all_running, timeout=180, what=f"{expected} Running pods of {name}", sim=sim,
                 last=lambda: jobs.describe_namespace(sim, namespace))
    finally:
        sim.kubectl("delete", "-f", str(golden), "--wait=false", check=False)
        jobs.clean_namespace(sim, namespace)
