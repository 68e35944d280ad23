"""``import`` refuses an upstream sample only where upstream itself refuses its job: every job among the
samples import refuses (tests/golden/test_import_roundtrip.py, ``REFUSED``) is submitted to the simulated
cluster, and none of them runs (one oracle run for all of them); the one refused for fields the AscendJob
does not have is refused by ``kubectl apply`` (its strict field validation)."""
from __future__ import annotations

import json
from typing import Dict

import pytest
import yaml

from tests.golden.test_import_roundtrip import REFUSED, SAMPLES
from tests.simcluster.oracle import Verdict, judge_manifests

#: the samples import refuses that hold a job (the Deployment sample has none), and what upstream does
UPSTREAM: Dict[str, str] = {
    name: "rejected" for name in REFUSED if "expected a string" in REFUSED[name]
}
UPSTREAM["samples__inference__volcano__pytorch_acjob_infer_310p_with_ranktable.yaml"] = "pending"


@pytest.fixture(scope="module")
def verdicts(sim) -> Dict[str, Verdict]:
    paths = {p.name: p for p in SAMPLES}
    if not paths:
        pytest.skip("the upstream samples are not there (../shared)")
    manifests = {name: [d for d in yaml.safe_load_all(paths[name].read_text()) if d] for name in UPSTREAM}
    return {v.case: v for v in judge_manifests(manifests, sim=sim, round_timeout=60)}


@pytest.mark.parametrize("name", sorted(UPSTREAM))
def test_upstream_refuses_the_job_import_refuses(verdicts: Dict[str, Verdict], name: str) -> None:
    verdict = verdicts[name]
    assert verdict.outcome == UPSTREAM[name], verdict.line()
    if verdict.outcome == "pending":
        assert verdict.room == "never-fits", verdict.line()


def test_kubectl_refuses_the_sample_with_fields_an_ascendjob_does_not_have(sim) -> None:
    name = "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml"
    assert 'unknown field "cleanPodPolicy"' in REFUSED[name]
    paths = {p.name: p for p in SAMPLES}
    if name not in paths:
        pytest.skip("the upstream samples are not there (../shared)")
    [job] = [d for d in yaml.safe_load_all(paths[name].read_text()) if d]
    job["metadata"]["namespace"] = "default"
    result = sim.kubectl("apply", "--dry-run=server", "-f", "-", input=json.dumps(job), check=False)
    assert result.returncode != 0 and 'unknown field "spec.cleanPodPolicy"' in result.stderr, result.stderr
