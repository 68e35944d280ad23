"""Every golden of the matrix on the simulated cluster: admitted, pods made by the real controller or
operator, bound by the real scheduler (with the Ascend plugin) to nodes of the right profile with the
plugin's device annotation, Running, then Succeeded.

The jobs are submitted as a user does: ``ascend-compile apply <spec>`` against the cluster's
kubeconfig; their states are read with ``ascend-compile status``.  CI runs a representative golden per
kind of hardware; the rest of the matrix is marked ``simcluster_full``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs, nodes
from tests.simcluster.jobs import wait_for

EXAMPLES = ROOT / "examples" / "matrix"
GOLDEN = ROOT / "golden" / "matrix"

#: one golden per kind of hardware and target, in CI
REPRESENTATIVE = {
    "pytorch-module-910b-8-vcjob", "pytorch-module-910b-8-acjob", "tensorflow-card-910b-2-acjob",
    "mindspore-module-910b-16-vcjob", "pytorch-module-a3-16-super-pod-acjob", "tensorflow-module-910-vcjob",
}

#: goldens upstream does not run: product defects, each a strict xfail (reported to the lead)
DEFECTS: Dict[str, str] = {}


def _golden_names() -> List[Any]:
    profiles = nodes.load_profiles()
    params = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        spec = yaml.safe_load((EXAMPLES / path.name).read_text())
        profile = profiles[spec["spec"]["profile"]]
        marks = [] if path.stem in REPRESENTATIVE else [pytest.mark.simcluster_full]
        if path.stem in DEFECTS:
            marks.append(pytest.mark.xfail(strict=True, reason=DEFECTS[path.stem]))
        if not profile.simulated:
            marks.append(pytest.mark.skip(reason=f"profile {profile.name} is not simulated: "
                                                 f"{nodes.UNSIMULATED[profile.name]}"))
            marks.append(pytest.mark.simcluster_full)
        params.append(pytest.param(path.stem, marks=marks, id=path.stem))
    return params


def _job_doc(name: str) -> Dict[str, Any]:
    docs = [d for d in yaml.safe_load_all((GOLDEN / f"{name}.yaml").read_text()) if d]
    return next(d for d in docs if d["kind"] in ("AscendJob", "Job"))


def _npus_per_pod(pod: Dict[str, Any], resource: str) -> int:
    total = 0
    for container in pod["spec"]["containers"]:
        total += int((container.get("resources", {}).get("limits") or {}).get(resource, 0))
    return total


def _status(sim, name: str, namespace: str, kind: str) -> Dict[str, Any]:
    out = run_cli("status", name, "-n", namespace, "--kind", "acjob" if kind == "AscendJob" else "vcjob",
                  "--kubeconfig", str(sim.kubeconfig), "-o", "json")
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)[0]


def _expected_pods(job: Dict[str, Any]) -> int:
    if job["kind"] == "AscendJob":
        return sum(int(r.get("replicas", 1)) for r in job["spec"]["replicaSpecs"].values())
    return sum(int(t.get("replicas", 1)) for t in job["spec"]["tasks"])


@pytest.mark.parametrize("name", _golden_names())
def test_golden_runs_then_succeeds(sim, name):
    spec_path = EXAMPLES / f"{name}.yaml"
    job = _job_doc(name)
    kind, namespace = job["kind"], job["metadata"]["namespace"]
    profile = nodes.load_profiles()[yaml.safe_load(spec_path.read_text())["spec"]["profile"]]
    jobs.create_namespace(sim, namespace)
    try:
        applied = run_cli("apply", str(spec_path), "--kubeconfig", str(sim.kubeconfig))
        assert applied.returncode == 0, f"apply refused:\n{applied.stderr}\n{sim.logs_for_failure()}"

        expected = _expected_pods(job)

        def all_running():
            pods = jobs.pods_of(sim, namespace, kind, name)
            return pods if len(pods) == expected and set(jobs.phases(pods)) == {"Running"} else None

        pods = wait_for(all_running, timeout=120, what=f"{expected} Running pod(s) of {kind} {name}", sim=sim,
                        last=lambda: jobs.describe_namespace(sim, namespace))
        npu_pods = 0
        for pod in pods:
            node = pod["spec"]["nodeName"]
            annotations = pod["metadata"].get("annotations", {})
            requested = _npus_per_pod(pod, profile.resource)
            if requested:  # (a MindSpore Scheduler asks for none and may run on any node its selector allows)
                npu_pods += 1
                assert sim.profile_of_node(node) == profile.name, f"{pod['metadata']['name']} bound to {node}"
                devices = annotations.get(profile.resource, "")
                assert devices, f"no {profile.resource} annotation from the plugin on {pod['metadata']['name']}: " \
                                f"{annotations}"
                assert len(devices.split(",")) == requested, devices
                assert all(d.startswith(profile.device_prefix) for d in devices.split(",")), devices
        assert npu_pods, "no pod of the job requests NPUs"
        assert _status(sim, name, namespace, kind)["state"] == "Running"

        jobs.label_pods(sim, namespace, pods, 0)
        done = "Succeeded" if kind == "AscendJob" else "Completed"
        state = wait_for(lambda: (s := _status(sim, name, namespace, kind))["state"] == done and s,
                         timeout=90, what=f"{kind} {name} {done}", sim=sim,
                         last=lambda: json.dumps(_status(sim, name, namespace, kind)))
        assert state["terminal"] is True and state["succeeded"] is True
    finally:
        run_cli("delete", str(spec_path), "--kubeconfig", str(sim.kubeconfig), "--ignore-not-found")
        jobs.clean_namespace(sim, namespace)
