"""The manifest model: one reading of a job's pods and NPUs, which lint and the cluster commands share.

``why``'s node fit (:func:`ascend_compile.kube.jobview.replicas_of`), the NPUs it counts as used on a node
(:func:`ascend_compile.manifest.pods.pod_of`) and lint's rules (:class:`ascend_compile.lint.context.ObjectContext`)
must say the same thing about the same manifest: hand-checked cases first (each one a place where the two
readings used to differ), then every golden file, lint fixture and upstream sample.
"""
from __future__ import annotations

import glob
from pathlib import Path
from typing import Any, Dict, List

import pytest
import yaml

import tests.checkout  # noqa: F401 - imports this checkout as ascend_compile
from ascend_compile.hardware import arithmetic as hardware
from ascend_compile.kube.jobview import replicas_of
from ascend_compile.lint.context import ObjectContext
from ascend_compile.manifest.job import Manifest
from ascend_compile.manifest.pods import pod_of
from ascend_compile.vocabulary import JOBS
from tests.checkout import ROOT, SHARED


def _container(name: str, resources: Dict[str, Any]) -> Dict[str, Any]:
    return {"name": name, "image": "train:1", "resources": resources}


def _vcjob(tasks: List[Dict[str, Any]]) -> Dict[str, Any]:
    return {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job",
            "metadata": {"name": "j", "labels": {"ring-controller.atlas": "ascend-910b"}},
            "spec": {"schedulerName": "volcano", "minAvailable": 1, "tasks": tasks}}


def _task(containers: List[Dict[str, Any]], replicas: Any = 1, **extra: Any) -> Dict[str, Any]:
    task = {"name": "worker", "template": {"spec": {"containers": containers, **extra}}}
    if replicas is not None:
        task["replicas"] = replicas
    return task


def _both(job: Dict[str, Any]) -> List[tuple]:
    """(pods, NPU resource, NPUs per pod) of each group of pods, as why reads them, checked equal to lint's."""
    why = [(r.replicas, r.npu_resource or None, r.npus) for r in replicas_of(Manifest(job))]
    obj = ObjectContext(job)
    lint = [(p.replicas, p.npu_resource(), p.npus()) for p in obj.pod_sets()]
    assert sorted(why, key=str) == sorted(lint, key=str)
    return why


def test_hami_memory_beside_the_npu_is_no_npu():
    """HAMi's ``-memory`` is a size of the vNPU it follows: 1 NPU, not 4097 (why used to add it in, and to take it
    as the resource when it came first)."""
    resources = {"limits": {"huawei.com/Ascend910B3-memory": 4096, "huawei.com/Ascend910B3": 1},
                 "requests": {"huawei.com/Ascend910B3-memory": 4096, "huawei.com/Ascend910B3": 1}}
    job = _vcjob([_task([_container("ascend", resources)])])
    assert _both(job) == [(1, "huawei.com/Ascend910B3", 1)]
    pod = {"kind": "Pod", "spec": job["spec"]["tasks"][0]["template"]["spec"]}
    assert pod_of(pod).npus_by_resource() == {"huawei.com/Ascend910B3": 1}


def test_a_volcano_task_without_replicas_runs_no_pod():
    """Volcano defaults a task's ``replicas`` neither in its API types nor in its webhook: 0 pods (why said 1)."""
    job = _vcjob([_task([_container("ascend", {"limits": {"huawei.com/Ascend910": 8}})], replicas=None)])
    assert _both(job) == [(0, "huawei.com/Ascend910", 8)]
    assert ObjectContext(job).npu_layout() == hardware.NpuLayout((), 0, 0)


def test_requests_win_and_limits_alone_count():
    """A container's requests are what the scheduler sees; a container with limits only gets them as requests."""
    job = _vcjob([_task([_container("ascend", {"requests": {"huawei.com/Ascend910": 4},
                                               "limits": {"huawei.com/Ascend910": 8}}),
                         _container("sidecar", {"limits": {"huawei.com/Ascend910": 2}})], replicas=3)])
    assert _both(job) == [(3, "huawei.com/Ascend910", 6)]


def test_an_ascendjob_replica_without_replicas_is_one_pod_and_a_leader_without_npus_is_counted():
    job = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "j"},
           "spec": {"replicaSpecs": {
               "Master": {"template": {"spec": {"containers": [_container("ascend", {})]}}},
               "Worker": {"replicas": 2, "template": {"spec": {"containers": [
                   _container("ascend", {"requests": {"huawei.com/Ascend910": 8},
                                         "limits": {"huawei.com/Ascend910": 8}})]}}}}}}
    assert sorted(_both(job), key=str) == [(1, None, 0), (2, "huawei.com/Ascend910", 8)]
    assert ObjectContext(job).npu_layout() == hardware.NpuLayout((8,), 2, 16)


def test_a_pod_with_two_npu_resources_counts_each_for_its_node():
    spec = {"containers": [_container("a", {"requests": {"huawei.com/Ascend910": 2}}),
                           _container("b", {"requests": {"huawei.com/Ascend310P": 1}})]}
    assert pod_of({"spec": spec}).npus_by_resource() == {"huawei.com/Ascend910": 2, "huawei.com/Ascend310P": 1}
    assert pod_of({"spec": spec}).npus() == 2  # of its first resource, the one the plugin's handler goes by


def _manifests() -> List[Any]:
    files = sorted(glob.glob(str(ROOT / "golden/**/*.yaml"), recursive=True))
    files += sorted(glob.glob(str(ROOT / "tests/lint/**/*.yaml"), recursive=True))
    samples = SHARED / "upstream" / "samples"
    files += sorted(glob.glob(str(samples / "**/*.yaml"), recursive=True))
    return files


def _jobs(path: str) -> List[Dict[str, Any]]:
    try:
        docs = list(yaml.safe_load_all(Path(path).read_text(encoding="utf-8")))
    except (yaml.YAMLError, UnicodeDecodeError):
        return []  # a fixture that is deliberately no YAML
    return [d for d in docs if isinstance(d, dict) and Manifest(d).kind in JOBS]


def test_why_and_lint_agree_on_every_golden_fixture_and_sample():
    if not (SHARED / "upstream" / "samples").is_dir():
        pytest.skip(f"{SHARED}/upstream/samples is absent: the upstream samples are only beside the repo in "
                    "development and CI")
    seen = 0
    for path in _manifests():
        for job in _jobs(path):
            why = replicas_of(Manifest(job))
            obj = ObjectContext(job)
            lint = [(p.role, p.replicas, p.npu_resource(), p.npus()) for p in obj.pod_sets()]
            assert sorted((r.name, r.replicas, r.npu_resource or None, r.npus) for r in why) == sorted(lint), path
            layout = hardware.NpuLayout.from_pod_sets([(r.replicas, r.npus) for r in why])
            assert layout == obj.npu_layout(), path  # what the NPU rules read
            seen += 1
    assert seen > 100  # goldens, fixtures and samples hold well over a hundred jobs

