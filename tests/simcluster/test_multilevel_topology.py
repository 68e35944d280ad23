"""AC911 (cluster-multilevel-topology) against the simulated cluster (issue 35): its scheduler runs the Ascend plugin
without a ``resource-level-config``, so a multilevel job (the showcase golden) is never placed; with the scheduler's
configuration in the cluster, as an installation keeps it (the ConfigMap ``volcano-scheduler-configmap``), the
snapshot records that the topology is missing and lint says the job is never placed, live and from the snapshot.
Without that ConfigMap (not read) the rule says nothing."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT, run_cli
from tests.simcluster import jobs, manifests
from tests.simcluster.cluster import SimCluster
from tests.simcluster.jobs import wait_for

NAMESPACE = "multilevel-topology"
CONFIG_NAMESPACE, CONFIG_MAP = "volcano-system", "volcano-scheduler-configmap"
TOPOLOGY_REFUSAL = "topology label does not match config"  # the multilevel handler's words for every node


def _job() -> List[Dict[str, Any]]:
    docs = [d for d in yaml.safe_load_all((ROOT / "golden/showcase/multilevel-acjob.yaml").read_text()) if d]
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
    return docs


def _lint(sim: SimCluster, path: Path, *flags: str) -> List[str]:
    proc = run_cli("lint", "--no-cache", "--format", "json", str(path), *flags,
                   env={"KUBECONFIG": str(sim.kubeconfig)}, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    data = json.loads(proc.stdout)
    return [f"{f['rule']} {f['severity']}: {f['message']}" for f in (data["findings"] if isinstance(data, dict) else data)
            if f["rule"] == "AC911"]


def _refusal(sim: SimCluster) -> Any:
    """The plugin's topology refusal, from the PodGroup's conditions or the namespace's Warning events."""
    messages = [str(cond.get("message")) for pg in jobs.get_json(sim, "podgroups.scheduling.volcano.sh", "-n",
                                                                  NAMESPACE)["items"]
                for cond in (pg.get("status") or {}).get("conditions") or []]
    messages += [str(e.get("message")) for e in jobs.get_json(sim, "events", "-n", NAMESPACE,
                                                               "--field-selector=type=Warning")["items"]]
    return next((m for m in messages if TOPOLOGY_REFUSAL in m), None)


@pytest.fixture
def scheduler_config(sim: SimCluster) -> Any:
    """The simulated scheduler's own configuration, kept in the cluster as an installation keeps it."""
    sim.kubectl("create", "namespace", CONFIG_NAMESPACE, check=False)
    config = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": CONFIG_MAP, "namespace": CONFIG_NAMESPACE},
              "data": {"volcano-scheduler.conf": yaml.safe_dump(manifests.scheduler_conf(sim.release), sort_keys=False)}}
    sim.apply_objects([config])
    yield
    sim.kubectl("delete", "configmap", CONFIG_MAP, "-n", CONFIG_NAMESPACE, "--wait=false", check=False)


def test_a_multilevel_job_without_the_topology_is_predicted_and_never_placed(sim: SimCluster, scheduler_config: Any,
                                                                             tmp_path: Path) -> None:
    job = tmp_path / "job.yaml"
    job.write_text(yaml.safe_dump_all(_job(), sort_keys=False), encoding="utf-8")
    assert _lint(sim, job) == []  # offline: nothing to say
    snapshot = tmp_path / "cluster.yaml"
    taken = run_cli("cluster", "snapshot", "-o", str(snapshot), env={"KUBECONFIG": str(sim.kubeconfig)}, timeout=300)
    assert taken.returncode == 0, taken.stderr
    assert yaml.safe_load(snapshot.read_text(encoding="utf-8"))["spec"]["resourceLevels"] == {}
    for flags in (["--cluster-snapshot", str(snapshot)], ["--cluster"]):
        found = _lint(sim, job, *flags)
        assert len(found) == 1 and found[0].startswith("AC911 error:"), (flags, found)
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(_job())
        reason = wait_for(lambda: _refusal(sim), timeout=120, what=f"the plugin's refusal ({TOPOLOGY_REFUSAL})",
                          sim=sim, last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        print(reason)
        pods = jobs.pods_of(sim, NAMESPACE, "AscendJob", "llama-multilevel")
        assert all(not p["spec"].get("nodeName") for p in pods), "a pod was bound"
    finally:
        jobs.clean_namespace(sim, NAMESPACE)


def test_without_the_schedulers_configuration_the_rule_is_silent(sim: SimCluster, tmp_path: Path) -> None:
    sim.kubectl("delete", "configmap", CONFIG_MAP, "-n", CONFIG_NAMESPACE, "--ignore-not-found", check=False)
    job = tmp_path / "job.yaml"
    job.write_text(yaml.safe_dump_all(_job(), sort_keys=False), encoding="utf-8")
    assert _lint(sim, job, "--cluster") == []  # the topology is not known, not missing
