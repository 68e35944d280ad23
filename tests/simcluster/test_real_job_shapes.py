"""The job shapes of issue 34 on the simulated cluster: each golden admitted, placed and Running.

- an inference Volcano Job (``ranktable: none``) has no job plugins, so Volcano's ``svc`` plugin makes no
  NetworkPolicy that would keep its clients out; the same job with ``plugins: {svc: []}`` gets one (the
  check can fail);
- upstream's inference sample as a spec (``golden/samples/infer-vcjob-910.yaml``: task ``default-test``,
  container ``infer``, pod label ``app: infer``): its pod is named after the task and runs, with no
  NetworkPolicy;
- a reset ConfigMap on its own (``resetConfig`` without a rescheduling feature): the ConfigMap exists and the
  job runs;
- jobs that name no hardware (``scheduling: none``): the plugin's default handler (module-910) and its
  sp-block default (module-a3-16-super-pod) admit and place them, with their devices, on nodes of any profile
  offering the resource (here: the module-910 job on module-a3-8-super-pod nodes, the super-pod job on
  module-910b-16 nodes), which is what docs/spec.md says of scheduling: none.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs, nodes
from tests.simcluster.jobs import wait_for

EXAMPLES = ROOT / "examples" / "showcase"
GOLDEN = ROOT / "golden" / "showcase"


def _job(name: str) -> Dict[str, Any]:
    docs = [d for d in yaml.safe_load_all((GOLDEN / f"{name}.yaml").read_text()) if d]
    return next(d for d in docs if d["kind"] in ("AscendJob", "Job"))


def _apply(sim, spec: Path) -> None:
    out = run_cli("apply", str(spec), "--kubeconfig", str(sim.kubeconfig))
    assert out.returncode == 0, f"{out.stdout}\n{out.stderr}\n{sim.logs_for_failure()}"


def _running(sim, namespace: str, kind: str, name: str, count: int) -> List[Dict[str, Any]]:
    def check():
        pods = jobs.pods_of(sim, namespace, kind, name)
        return pods if len(pods) == count and set(jobs.phases(pods)) == {"Running"} else None

    return wait_for(check, timeout=180, what=f"{count} Running pods of {kind} {name}", sim=sim,
                    last=lambda: jobs.describe_namespace(sim, namespace))


def _network_policies(sim, namespace: str) -> List[str]:
    return [p["metadata"]["name"] for p in jobs.get_json(sim, "networkpolicies", "-n", namespace)["items"]]


@pytest.fixture
def cleanup(sim):
    namespaces: List[str] = []
    yield namespaces
    for namespace in namespaces:
        jobs.clean_namespace(sim, namespace)
        sim.kubectl("delete", "networkpolicies", "--all", "-n", namespace, "--wait=false", check=False)
        sim.kubectl("delete", "services", "--all", "-n", namespace, "--wait=false", check=False)


@pytest.mark.parametrize("plugins", [None, {"svc": []}], ids=["default", "with-svc"])
def test_inference_job_runs_without_a_network_policy(sim, cleanup, tmp_path, plugins):
    job = _job("inference-vcjob")
    namespace, name = job["metadata"]["namespace"], job["metadata"]["name"]
    assert "plugins" not in job["spec"] and job["metadata"]["labels"]["ring-controller.atlas"] == "ascend-910b"
    spec = yaml.safe_load((EXAMPLES / "inference-vcjob.yaml").read_text())
    if plugins is not None:
        spec["spec"]["plugins"] = plugins
    path = tmp_path / "inference.yaml"
    path.write_text(yaml.safe_dump(spec, sort_keys=False))
    jobs.create_namespace(sim, namespace)
    cleanup.append(namespace)
    _apply(sim, path)
    _running(sim, namespace, "Job", name, 1)
    if plugins is None:
        assert _network_policies(sim, namespace) == []
    else:  # the control: Volcano's svc plugin fences the job off (it admits only the job's own pods)
        wait_for(lambda: _network_policies(sim, namespace) == [name], timeout=60, sim=sim,
                 what=f"the svc plugin's NetworkPolicy {name}")


@pytest.mark.parametrize("name", ["reset-config-acjob", "module-910-unnamed-hardware-vcjob",
                                  "super-pod-unnamed-hardware-acjob"])
def test_shape_is_admitted_placed_and_running(sim, cleanup, name):
    job = _job(name)
    kind, namespace, job_name = job["kind"], job["metadata"]["namespace"], job["metadata"]["name"]
    profile = nodes.load_profiles()[yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())["spec"]["profile"]]
    expected = sum(int(r.get("replicas", 1)) for r in job["spec"].get("replicaSpecs", {}).values()) + \
        sum(int(t.get("replicas", 1)) for t in job["spec"].get("tasks", []))
    jobs.create_namespace(sim, namespace)
    cleanup.append(namespace)
    _apply(sim, EXAMPLES / f"{name}.yaml")
    pods = _running(sim, namespace, kind, job_name, expected)
    everywhere = nodes.load_profiles().values()
    for pod in pods:
        placed = sim.profile_of_node(pod["spec"]["nodeName"])
        if name == "reset-config-acjob":
            assert placed == profile.name, pod["spec"]["nodeName"]
        else:  # no accelerator-type: any node offering the resource that the handler takes
            assert placed in {p.name for p in everywhere if p.resource == profile.resource}, placed
        assert pod["metadata"].get("annotations", {}).get(profile.resource), "no devices from the plugin"
    if name == "reset-config-acjob":
        reset = jobs.get_json(sim, "configmap", f"reset-config-{job_name}", "-n", namespace)
        assert reset["metadata"]["labels"] == {"reset": "true"}
        sim.kubectl("delete", "configmap", f"reset-config-{job_name}", "-n", namespace, "--wait=false", check=False)


def test_inference_sample_with_its_own_names_runs(sim, cleanup):
    name = "infer-vcjob-910"
    docs = [d for d in yaml.safe_load_all((ROOT / "golden" / "samples" / f"{name}.yaml").read_text()) if d]
    job = next(d for d in docs if d["kind"] == "Job")
    namespace, job_name = job["metadata"]["namespace"], job["metadata"]["name"]
    jobs.create_namespace(sim, namespace)
    cleanup.append(namespace)
    _apply(sim, ROOT / "examples" / "samples" / f"{name}.yaml")
    [pod] = _running(sim, namespace, "Job", job_name, 1)
    assert pod["metadata"]["name"] == f"{job_name}-default-test-0"
    assert pod["metadata"]["labels"]["app"] == "infer"
    assert [c["name"] for c in pod["spec"]["containers"]] == ["infer"]
    assert _network_policies(sim, namespace) == []
