"""examples/python/build_job.py builds a 2-node PyTorch job from Python values, lints it, prints YAML."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml
from tests.checkout import checkout_pythonpath

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "python" / "build_job.py"


def test_example_script(tmp_path):
    env = dict(os.environ)
    env["PYTHONPATH"] = checkout_pythonpath(env)
    # Run from elsewhere: the script must not depend on the working directory.
    proc = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, cwd=tmp_path,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "", f"lint is not clean:\n{proc.stderr}"

    docs = list(yaml.safe_load_all(proc.stdout))
    assert [d["kind"] for d in docs] == ["AscendJob"]
    job = docs[0]
    assert job["apiVersion"] == "mindxdl.gitee.com/v1"
    assert job["metadata"]["labels"]["framework"] == "pytorch"
    replicas = job["spec"]["replicaSpecs"]
    pods = []
    for replica in replicas.values():
        container = replica["template"]["spec"]["containers"][0]
        npus = container["resources"]["limits"]["huawei.com/Ascend910"]
        assert container["resources"]["requests"]["huawei.com/Ascend910"] == npus
        assert replica["template"]["spec"]["nodeSelector"]["accelerator-type"] == "module-910b-8"
        pods.extend([npus] * replica["replicas"])
    assert pods == [8, 8], "2 pods x 8 NPUs"


def test_example_script_is_short():
    lines = [line for line in SCRIPT.read_text().splitlines() if line.strip()]
    assert len(lines) <= 25
