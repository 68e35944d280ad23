"""Privileged containers run, as on real clusters (kubeadm, kind and distributions start the API server with
``--allow-privileged=true``; its default, false, refuses every such pod).

The module-910b-8 goldens with ``securityContext.privileged: true`` on every container: the pods are created
and Running, and the job reaches Running.  Lint stays silent on it (tests/simcluster/test_rules_rejections.py
has the mutation among its cases).
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional

import pytest
import yaml

from tests.checkout import ROOT
from tests.simcluster import jobs
from tests.simcluster.jobs import wait_for

NAMESPACE = "privileged"
GOLDENS = ("pytorch-module-910b-8-vcjob", "pytorch-module-910b-8-acjob")


def _privileged(name: str) -> List[Dict[str, Any]]:
    """The golden in NAMESPACE, every container of every pod template privileged."""
    docs = [d for d in yaml.safe_load_all((ROOT / "golden" / "matrix" / f"{name}.yaml").read_text()) if d]
    for doc in docs:
        doc["metadata"]["namespace"] = NAMESPACE
        spec = doc.get("spec") or {}
        templates = [t["template"] for t in spec.get("tasks") or []]
        templates += [r["template"] for r in (spec.get("replicaSpecs") or {}).values()]
        for template in templates:
            for container in template["spec"]["containers"]:
                container.setdefault("securityContext", {})["privileged"] = True
    return docs


def _job_running(sim, kind: str, name: str) -> bool:
    status = jobs.job_object(sim, NAMESPACE, kind, name).get("status") or {}
    if kind == "AscendJob":
        conditions = status.get("conditions") or []
        return bool(conditions) and conditions[-1].get("type") == "Running" and conditions[-1].get("status") == "True"
    return (status.get("state") or {}).get("phase") == "Running"


@pytest.mark.parametrize("name", GOLDENS)
def test_privileged_job_runs(sim, name):
    docs = _privileged(name)
    job = next(d for d in docs if d["kind"] in ("AscendJob", "Job"))
    kind = job["kind"]
    expected = sum(int(t.get("replicas", 1)) for t in job["spec"].get("tasks") or []) + sum(
        int(r.get("replicas", 1)) for r in (job["spec"].get("replicaSpecs") or {}).values())
    jobs.create_namespace(sim, NAMESPACE)
    try:
        sim.apply_objects(docs, create=True)

        def all_running() -> Optional[List[Dict[str, Any]]]:
            pods = jobs.pods_of(sim, NAMESPACE, kind, name)
            return pods if len(pods) == expected and set(jobs.phases(pods)) == {"Running"} else None

        pods = wait_for(all_running, timeout=90, what=f"{expected} Running privileged pod(s) of {kind} {name}",
                        sim=sim, last=lambda: jobs.describe_namespace(sim, NAMESPACE))
        assert all(c["securityContext"]["privileged"] is True for p in pods for c in p["spec"]["containers"])
        wait_for(lambda: _job_running(sim, kind, name), timeout=60, what=f"{kind} {name} Running", sim=sim,
                 last=lambda: json.dumps(jobs.job_object(sim, NAMESPACE, kind, name).get("status"), indent=1))
    finally:
        jobs.clean_namespace(sim, NAMESPACE)
