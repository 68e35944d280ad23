"""The oracle: one verdict per job, for each kind of verdict, its throughput (200 jobs, marked full), objects created as
kubectl creates them (strict field validation), pods a kubelet would not start, and (offline) how it counts a job's
pods."""
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


def _master_spec(docs: List[Dict[str, Any]]) -> Dict[str, Any]:
    return _job(docs)["spec"]["replicaSpecs"]["Master"]["template"]["spec"]


def test_fields_the_kind_lacks_are_refused_as_kubectl_refuses_them(sim):
    """An AscendJob with a field its CRD lacks (spec.backoffLimit, as upstream's tensorflow-standalone sample has) and a
    ConfigMap with one its kind lacks are refused at submission, as ``kubectl apply`` (strict field validation) is
    refused; created without it the server drops the field and the job runs."""
    job_field = _renamed(_golden("pytorch-card-910b-2-acjob"), "unknown-job-field")
    _job(job_field)["spec"]["backoffLimit"] = 3
    core_field = _renamed(_golden("pytorch-card-910b-2-acjob"), "unknown-core-field")
    core_field.insert(0, {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "train-settings"},
                          "data": {"a": "b"}, "spec": {"a": "b"}})
    verdicts = judge_manifests({"job-field": job_field, "core-field": core_field}, sim=sim, quiet=6, round_timeout=60)
    by_case = {v.case: v for v in verdicts}
    detail = "\n".join(v.line() for v in verdicts)
    assert by_case["job-field"].outcome == "rejected", detail
    assert 'unknown field "spec.backoffLimit"' in by_case["job-field"].message, detail
    assert by_case["core-field"].outcome == "rejected", detail
    assert by_case["core-field"].reason == "ConfigMap refused", detail
    assert 'unknown field "spec"' in by_case["core-field"].message, detail


def test_pods_a_kubelet_would_not_start_are_not_running(sim):
    """A placed pod whose non-optional ConfigMap volume, projected Secret or envFrom names an object its namespace lacks
    never starts on a real node (kwok runs it): the job is pending and the verdict names the object; the same
    references marked optional, or naming objects the case brings, run."""
    def variant(name: str, optional: bool, bring: bool) -> List[Dict[str, Any]]:
        docs = _renamed(_golden("pytorch-card-910b-2-acjob"), name)
        spec = _master_spec(docs)
        spec.setdefault("volumes", []).extend([
            {"name": "settings", "configMap": {"name": f"{name}-settings", "optional": optional}},
            {"name": "keys", "projected": {"sources": [{"secret": {"name": f"{name}-keys", "optional": optional}}]}}])
        spec["containers"][0]["envFrom"] = [{"secretRef": {"name": f"{name}-env", "optional": optional}}]
        if bring:
            namespace = _job(docs)["metadata"]["namespace"]
            docs[:0] = [{"apiVersion": "v1", "kind": kind, "metadata": {"name": f"{name}-{suffix}", "namespace": namespace},
                         "data": {}}
                        for kind, suffix in (("ConfigMap", "settings"), ("Secret", "keys"), ("Secret", "env"))]
        return docs

    verdicts = judge_manifests({"missing": variant("missing", False, False), "optional": variant("optional", True, False),
                                "brought": variant("brought", False, True)}, sim=sim, quiet=6, round_timeout=60)
    by_case = {v.case: v for v in verdicts}
    detail = "\n".join(v.line() + "".join(f"\n    {e}" for e in v.events) for v in verdicts)
    assert by_case["optional"].outcome == "running", detail
    assert by_case["brought"].outcome == "running", detail
    missing = by_case["missing"]
    assert missing.outcome == "pending" and missing.room == "never-fits", detail
    assert missing.reason == "FailedMount", detail
    assert missing.message.startswith("pod missing-master-0: MountVolume.SetUp failed for volume \"settings\" : "
                                      "configmap \"missing-settings\" not found"), detail
    said = "\n".join(missing.events)
    assert 'volume "keys" : secret "missing-keys" not found' in said, detail
    assert 'CreateContainerConfigError: container "ascend": Error: secret "missing-env" not found' in said, detail


def _pod_with(spec: Dict[str, Any], objects: Any) -> str:
    """The oracle's reading (offline) of a one-replica AscendJob whose placed, Running pod has ``spec``, in a namespace
    holding ``objects`` ((kind, name) pairs)."""
    from tests.simcluster.oracle import Case, _observe, _pending_reasons, _Snapshot, _Tracked

    job = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "cm"},
           "spec": {"replicaSpecs": {"Master": {"replicas": 1, "template": {"spec": spec}}}}}
    item = _Tracked(Case("cm", [job]), job, {"default": "o1-default"})
    pod = {"metadata": {"name": "cm-master-0", "labels": {"job-name": "cm"}}, "spec": {**spec, "nodeName": "n"},
           "status": {"phase": "Running"}}
    snap = _Snapshot({("AscendJob", "o1-default", "cm"): {"status": {}}}, {"o1-default": [pod]}, {}, {},
                     {"o1-default": set(objects)})
    outcome = _observe(item, snap)[0]
    return outcome if outcome == "running" else f"{outcome}: " + ": ".join(_pending_reasons(item, snap)[:2])


def test_missing_references_read_as_a_kubelet_reads_them() -> None:
    """Offline: which references keep a placed pod from starting (non-optional ConfigMap and Secret volumes, projected
    sources, envFrom and valueFrom; the ConfigMap kube-root-ca.crt is in every namespace of a real cluster)."""
    ascend = {"name": "ascend", "image": "x"}
    volume = {"containers": [ascend], "volumes": [{"name": "rt", "configMap": {"name": "rings-config-other"}}]}
    assert _pod_with(volume, []) == ('pending: FailedMount: pod cm-master-0: MountVolume.SetUp failed for volume "rt" '
                                     ': configmap "rings-config-other" not found')
    assert _pod_with(volume, [("ConfigMap", "rings-config-other")]) == "running"
    assert _pod_with(volume, [("Secret", "rings-config-other")]).startswith("pending: FailedMount")
    secret = {"containers": [ascend], "volumes": [{"name": "s", "secret": {"secretName": "creds"}}]}
    assert 'secret "creds" not found' in _pod_with(secret, [])
    optional = {"containers": [ascend], "volumes": [{"name": "s", "secret": {"secretName": "creds", "optional": True}}]}
    assert _pod_with(optional, []) == "running"
    root_ca = {"containers": [ascend], "volumes": [{"name": "api", "projected": {"sources": [
        {"configMap": {"name": "kube-root-ca.crt"}}, {"serviceAccountToken": {"path": "token"}}]}}]}
    assert _pod_with(root_ca, []) == "running"
    env = {"containers": [{**ascend, "env": [{"name": "K", "valueFrom": {"configMapKeyRef": {"name": "cfg", "key": "k"}}}]}]}
    assert _pod_with(env, []) == ('pending: CreateContainerConfigError: pod cm-master-0: container "ascend": Error: '
                                  'configmap "cfg" not found')
    assert _pod_with(env, [("ConfigMap", "cfg")]) == "running"
    init = {"containers": [ascend], "initContainers": [{"name": "prep", "envFrom": [{"configMapRef": {"name": "cfg"}}]}]}
    assert 'container "prep": Error: configmap "cfg" not found' in _pod_with(init, [])
