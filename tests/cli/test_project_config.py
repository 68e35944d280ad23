"""Project defaults (.ascend-compile.yaml): discovery, precedence, and located errors."""
from __future__ import annotations

import yaml

from tests.checkout import run_cli

CONFIG = """\
defaults:
  imageRegistry: swr.example.com/ml
  namespace: team-a
  queue: research
  scheduling: schedulePolicy
"""

SPEC = """\
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata:
  name: precedence
spec:
  framework: pytorch
  profile: module-910b-16
  npus: 16
  image: pytorch-train:2.1
{extra}"""


def compiled_job(result):
    assert result.returncode == 0, result.stderr
    return [d for d in yaml.safe_load_all(result.stdout) if d["kind"] == "AscendJob"][0]


def test_config_is_found_upward_and_fills_what_the_spec_leaves_out(tmp_path):
    (tmp_path / ".git").mkdir()  # the search stops at the repository root
    (tmp_path / ".ascend-compile.yaml").write_text(CONFIG)
    specs = tmp_path / "specs"
    specs.mkdir()
    (specs / "job.yaml").write_text(SPEC.format(extra=""))
    job = compiled_job(run_cli("compile", "job.yaml", cwd=specs))
    master = job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]
    assert job["metadata"]["namespace"] == "team-a"
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "research"
    assert master["containers"][0]["image"] == "swr.example.com/ml/pytorch-train:2.1"
    # config scheduling: schedulePolicy beats the profile's default dialect (node selectors)
    assert job["metadata"]["annotations"]["huawei.com/schedule_policy"] == "chip8-node16"
    assert "nodeSelector" not in master


def test_spec_beats_config_and_config_beats_profile(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".ascend-compile.yaml").write_text(CONFIG + "  hostArch: huawei-arm\n")
    (tmp_path / "job.yaml").write_text(SPEC.format(extra="  queue: urgent\n  scheduling: nodeSelector\n"
                                                         "  image: registry.local:5000/x/train:1\n")
                                       .replace("  image: pytorch-train:2.1\n", "", 1))
    job = compiled_job(run_cli("compile", "job.yaml", cwd=tmp_path))
    master = job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "urgent"  # spec wins over config
    assert master["containers"][0]["image"] == "registry.local:5000/x/train:1"  # a registry is kept as is
    # hostArch: the profile says huawei-x86 for module-910b-16, the config says huawei-arm
    assert master["nodeSelector"] == {"host-arch": "huawei-arm", "accelerator-type": "module-910b-16"}


def test_without_config_the_profile_and_built_in_defaults_apply(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / "job.yaml").write_text(SPEC.format(extra=""))
    job = compiled_job(run_cli("compile", "job.yaml", cwd=tmp_path))
    master = job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]
    assert "namespace" not in job["metadata"]
    assert job["spec"]["runPolicy"]["schedulingPolicy"]["queue"] == "default"
    assert master["nodeSelector"]["host-arch"] == "huawei-x86"


def test_no_config_flag_ignores_the_file(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".ascend-compile.yaml").write_text(CONFIG)
    (tmp_path / "job.yaml").write_text(SPEC.format(extra=""))
    job = compiled_job(run_cli("compile", "--no-config", "job.yaml", cwd=tmp_path))
    assert "namespace" not in job["metadata"]


def test_a_bad_config_is_an_input_error_at_its_line(tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".ascend-compile.yaml").write_text("defaults:\n  namespace: team-a\n  quue: research\n")
    (tmp_path / "job.yaml").write_text(SPEC.format(extra=""))
    result = run_cli("compile", "job.yaml", cwd=tmp_path)
    assert result.returncode == 2
    assert ".ascend-compile.yaml:3:3: error: unknown default 'quue' [AC011]" in result.stderr
    assert "queue" in result.stderr  # the hint lists what may be set
    assert "Traceback" not in result.stderr
