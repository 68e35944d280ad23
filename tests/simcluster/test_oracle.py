"""The oracle: one verdict per job, for each kind of verdict, its throughput (200 jobs, marked full), and (offline) how
it counts a job's pods."""
from __future__ import annotations

import copy
import time
from typing import Any, Dict, List

import pytest
import yaml

from tests.checkout import ROOT
from tests.simcluster import nodes
from tests.simcluster.oracle import judge_manifests

GOLDEN = ROOT / "golden" / "matrix"


def _golden(name: str) -> List[Dict[str, Any]]:
    return [d for d in yaml.safe_load_all((GOLDEN / f"{name}.yaml").read_text()) if d]


def _renamed(docs: List[Dict[str, Any]], name: str) -> List[Dict[str, Any]]:
    docs = copy.deepcopy(docs)
    job = next(d for d in docs if d["kind"] in ("AscendJob", "Job"))
    old = job["metadata"]["name"]
    text = yaml.safe_dump_all(docs).replace(old, name)
    return [d for d in yaml.safe_load_all(text) if d]


def _job(docs):
    return next(d for d in docs if d["kind"] in ("AscendJob", "Job"))


def test_each_kind_of_verdict(sim):
    running = _golden("pytorch-card-910b-2-acjob")

    rejected = _renamed(_golden("pytorch-module-910b-8-vcjob"), "too-many-min")
    _job(rejected)["spec"]["minAvailable"] = 5  # two replicas

    refused = _renamed(_golden("pytorch-card-910b-2-acjob"), "bad-framework")
    _job(refused)["metadata"]["labels"]["framework"] = "PyTorch"

    never = _renamed(_golden("pytorch-module-910b-8-vcjob"), "too-big")
    container = _job(never)["spec"]["tasks"][0]["template"]["spec"]["containers"][0]
    container["resources"] = {"limits": {"huawei.com/Ascend910": 16}, "requests": {"huawei.com/Ascend910": 16}}

    # two jobs that each take every module-910b-8 node (a pod of 8 NPUs per node): one waits for room
    whole = _renamed(_golden("pytorch-module-910b-8-vcjob"), "whole-a")
    _job(whole)["spec"]["tasks"][0]["replicas"] = sim.nodes_per_profile
    _job(whole)["spec"]["minAvailable"] = sim.nodes_per_profile
    whole_b = _renamed(whole, "whole-b")

    verdicts = judge_manifests({"running": running, "rejected": rejected, "refused": refused, "never": never,
                                "whole-a": whole, "whole-b": whole_b}, sim=sim, quiet=10, round_timeout=90)
    by_case = {v.case: v for v in verdicts}
    detail = "\n".join(v.line() for v in verdicts)

    assert by_case["running"].outcome == "running", detail
    assert all(sim.profile_of_node(n) == "card-910b-2" for n in by_case["running"].nodes), detail

    assert by_case["rejected"].outcome == "rejected", detail
    assert "minAvailable" in by_case["rejected"].message, detail

    assert by_case["refused"].outcome == "refused", detail
    assert by_case["refused"].reason == "JobValidFailed", detail
    assert "framework" in by_case["refused"].message, detail

    assert by_case["never"].outcome == "pending" and by_case["never"].room == "never-fits", detail
    assert by_case["never"].message, detail

    pair = sorted([by_case["whole-a"], by_case["whole-b"]], key=lambda v: v.waited_for_room)
    assert [v.outcome for v in pair] == ["running", "running"], detail
    assert [v.waited_for_room for v in pair] == [False, True], detail


@pytest.mark.simcluster_full
def test_two_hundred_jobs_in_under_ten_minutes(sim):
    profiles = nodes.load_profiles()
    goldens = []
    for path in sorted(GOLDEN.glob("*.yaml")):
        spec = yaml.safe_load((ROOT / "examples" / "matrix" / path.name).read_text())
        if profiles[spec["spec"]["profile"]].simulated:
            goldens.append(path.stem)
    manifests: Dict[str, List[Dict[str, Any]]] = {}
    i = 0
    while len(manifests) < 200:
        name = goldens[i % len(goldens)]
        manifests[f"{name}-{i}"] = _renamed(_golden(name), f"j{i}-{name}"[:50])
        i += 1
    started = time.monotonic()
    verdicts = judge_manifests(manifests, sim=sim)
    elapsed = time.monotonic() - started
    assert len(verdicts) == 200
    print(f"oracle: {len(verdicts)} jobs in {elapsed:.0f}s; outcomes "
          f"{sorted((o, sum(v.outcome == o for v in verdicts)) for o in {v.outcome for v in verdicts})}")
    assert elapsed < 600, f"{elapsed:.0f}s"


def _observed(replicas: Dict[str, int], running: int) -> str:
    """The oracle's reading (offline, no cluster) of an AscendJob with these replicas and ``running`` Running pods."""
    from tests.simcluster.oracle import Case, _observe, _Snapshot, _Tracked

    specs = {kind: {"replicas": count, "template": {"spec": {"containers": [{"name": "ascend"}]}}}
             for kind, count in replicas.items()}
    job = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "neg"},
           "spec": {"replicaSpecs": specs}}
    item = _Tracked(Case("neg", [job]), job, {"default": "o1-default"})
    pods = [{"metadata": {"name": f"neg-{i}", "labels": {"job-name": "neg"}}, "spec": {"nodeName": "n"},
             "status": {"phase": "Running"}} for i in range(running)]
    snap = _Snapshot({("AscendJob", "o1-default", "neg"): {"status": {}}}, {"o1-default": pods}, {}, {})
    return _observe(item, snap)[0]


def test_negative_replicas_never_count_as_running() -> None:
    """Offline: a Master with replicas -1 (up to v7.3.2 the operator refuses it with a Warning event only, so it has no
    status and no pod) is pending, not 0 of -1 pods running; a negative replica counts no pod beside others too."""
    assert _observed({"Master": -1}, running=0) == "pending"
    assert _observed({"Master": -1, "Worker": 2}, running=1) == "pending"
    assert _observed({"Master": -1, "Worker": 2}, running=2) == "running"
    assert _observed({"Master": 1, "Worker": 2}, running=3) == "running"
