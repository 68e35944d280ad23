"""AC503's message on a ranktable volume naming another job's ConfigMap holds whether that ConfigMap exists or not
(issue 44: the fidelity mutation names one that exists nowhere, and a kubelet never starts such a pod), and says
nothing of what the job's start script does, which the manifest does not say."""
from __future__ import annotations

import yaml

from ascend_compile.lint.oneshot import lint_objects
from tests.checkout import ROOT

GOLDEN = ROOT / "golden" / "matrix" / "pytorch-module-910b-8-vcjob.yaml"
JOB = "pytorch-module-910b-8-vcjob"


def _volume_named(name: str):
    docs = [d for d in yaml.safe_load_all(GOLDEN.read_text(encoding="utf-8")) if d]
    job = next(d for d in docs if d["kind"] == "Job")
    for volume in job["spec"]["tasks"][0]["template"]["spec"]["volumes"]:
        if (volume.get("configMap") or {}).get("name") == f"rings-config-{JOB}":
            volume["configMap"]["name"] = name
    return docs


def test_the_message_covers_a_missing_and_an_existing_configmap():
    other = f"rings-config-x{JOB}"
    [finding] = [f for f in lint_objects(_volume_named(other)) if f.rule == "AC503"]
    assert finding.severity == "error"
    assert f"where {other} does not exist, the kubelet never starts the pods" in finding.message
    assert "where it exists, it keeps what it was created with" in finding.message
    assert "script" not in finding.message
