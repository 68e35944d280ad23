"""The Python API behaves as the CLI does: same pipeline, same checks, same messages."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
import yaml

import ascend_compile
from ascend_compile.api import JobSpec
from tests.checkout import run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SPEC = ROOT / "examples" / "pytorch-module-910b-8.yaml"
SCHEMA = json.loads((ROOT / "schemas" / "trainingjob-v1alpha1.json").read_text())


def example_as_jobspec() -> JobSpec:
    return ascend_compile.JobSpec(
        name="resnet50-pytorch", namespace="training", framework="pytorch", profile="module-910b-8", npus=16,
        image="swr.example.com/ml/pytorch-train:2.1.0", command=("/bin/bash", "-c"),
        args=["bash /job/code/train_start.sh --epochs=90"],
        volumes=[
            {"name": "code", "nfs": "10.0.0.5:/data/atlas_dls/public/code", "mountPath": "/job/code"},
            {"name": "data", "nfs": "10.0.0.5:/data/atlas_dls/public/dataset", "mountPath": "/job/data",
             "readOnly": True},
            {"name": "output", "pvc": "resnet50-output", "mountPath": "/job/output"},
        ])


# --------------------------------------------------------------------------- JobSpec


def test_jobspec_covers_every_spec_field_of_the_schema():
    schema_fields = set(SCHEMA["properties"]["spec"]["properties"])
    ours = set(JobSpec.spec_fields().values())
    assert ours <= schema_fields, f"JobSpec fields the schema lacks: {sorted(ours - schema_fields)}"
    missing = sorted(schema_fields - ours)
    assert not missing, f"add these schema fields to ascend_compile.api.JobSpec (snake_case): {missing}"
    meta = set(SCHEMA["properties"]["metadata"]["properties"]) - {"labels", "annotations"}
    assert meta == {"name", "namespace"}


def test_jobspec_is_keyword_only():
    with pytest.raises(TypeError):
        JobSpec("a", "pytorch", "module-910b-8", "img")  # type: ignore[misc]


def test_jobspec_to_dict_leaves_unset_fields_out():
    spec = JobSpec(name="a", framework="pytorch", profile="module-910b-8", image="img", pods=2, npus_per_pod=8,
                   super_pod={"spBlock": 16}, command=("x",), extra={"queue": "q1"})
    assert spec.to_dict() == {
        "apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "a"},
        "spec": {"framework": "pytorch", "profile": "module-910b-8", "image": "img", "pods": 2, "npusPerPod": 8,
                 "command": ["x"], "superPod": {"spBlock": 16}, "queue": "q1"}}


def test_jobspec_compiles_like_the_yaml_file():
    from_file = ascend_compile.compile_files(EXAMPLE_SPEC)[0].objects
    assert ascend_compile.compile_spec(example_as_jobspec()) == from_file


def test_dict_spec_compiles_like_the_yaml_file():
    data = yaml.safe_load(EXAMPLE_SPEC.read_text())
    assert ascend_compile.compile_spec(data) == ascend_compile.compile_files([str(EXAMPLE_SPEC)])[0].objects


def test_compile_to_yaml_is_what_the_cli_prints():
    proc = run_cli("compile", "--no-config", str(EXAMPLE_SPEC))
    assert proc.returncode == 0, proc.stderr
    assert ascend_compile.compile_to_yaml(example_as_jobspec()) == proc.stdout
    objects = ascend_compile.compile_spec(example_as_jobspec())
    assert ascend_compile.to_yaml(objects) == proc.stdout


def test_compile_job_carries_the_resolved_spec():
    job = ascend_compile.compile_job(example_as_jobspec())
    assert (job.spec.pods, job.spec.npus_per_pod, job.spec.profile.name) == (2, 8, "module-910b-8")
    assert job.source == "<python>"


# --------------------------------------------------------------------------- errors: the CLI's


BAD = {
    "apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob", "metadata": {"name": "bad"},
    "spec": {"framework": "pytorch", "profile": "module-910b-8", "npus": "16", "image": "x", "bogus": 1},
}


def _cli_findings(tmp_path: Path, data: dict) -> list:
    path = tmp_path / "spec.yaml"
    path.write_text(yaml.safe_dump(data))
    proc = run_cli("compile", "--no-config", "--format", "json", str(path))
    assert proc.returncode == 1, proc.stderr
    report = json.loads(proc.stdout or proc.stderr)
    return sorted((f["rule"], f["path"], f["message"]) for f in report["findings"])


@pytest.mark.parametrize("data", [
    BAD,
    {**BAD, "spec": {**BAD["spec"], "npus": 12, "bogus": None}},
    {**BAD, "spec": {"framework": "pytorch", "profile": "module-910b-88", "npus": 16, "image": "x"}},
    {**BAD, "spec": {"framework": "pytorch", "profile": "module-910b-8", "npus": 12, "pods": 2, "image": "x"}},
], ids=["schema", "hardware", "unknown-profile", "npus-and-pods"])
def test_errors_are_the_clis(tmp_path, data):
    data = json.loads(json.dumps(data))
    if data["spec"].get("bogus", 0) is None:
        del data["spec"]["bogus"]
    with pytest.raises(ascend_compile.CompileError) as info:
        ascend_compile.compile_spec(data)
    ours = sorted((f.rule, f.field_path, f.message) for f in info.value.findings)
    assert ours == _cli_findings(tmp_path, data)
    assert all(f.file == "<python>" and f.line == 0 for f in info.value.findings)


def test_jobspec_type_errors_are_schema_findings():
    spec = JobSpec(name="Bad_Name", framework="pytorch", profile="module-910b-8", image="x",
                   npus="16")  # type: ignore[arg-type]
    with pytest.raises(ascend_compile.CompileError) as info:
        ascend_compile.compile_spec(spec)
    paths = {f.field_path for f in info.value.findings}
    assert paths == {"metadata.name", "spec.npus"}


def test_not_a_spec():
    with pytest.raises(ascend_compile.CompileError) as info:
        ascend_compile.compile_spec({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})
    assert "is not a job spec" in info.value.findings[0].message
    with pytest.raises(TypeError):
        ascend_compile.compile_spec("examples/pytorch-module-910b-8.yaml")  # type: ignore[arg-type]


def test_compile_files_input_errors(tmp_path):
    with pytest.raises(ascend_compile.InputError) as info:
        ascend_compile.compile_files([tmp_path / "missing.yaml"])
    assert info.value.findings[0].input_error


# --------------------------------------------------------------------------- config and profiles


def test_config_path_supplies_defaults(tmp_path):
    config = tmp_path / ".ascend-compile.yaml"
    config.write_text("defaults:\n  namespace: team-a\n  imageRegistry: registry.example.com/ml\n")
    spec = JobSpec(name="a", framework="pytorch", profile="module-910b-8", npus=8, image="train:1")
    job = ascend_compile.compile_spec(spec, config=config)[-1]
    assert job["metadata"]["namespace"] == "team-a"
    containers = job["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"]
    assert containers[0]["image"] == "registry.example.com/ml/train:1"
    # No config given: none is read, whatever the working directory holds.
    assert "namespace" not in ascend_compile.compile_spec(spec)[-1]["metadata"]


def test_profiles():
    names = [p.name for p in ascend_compile.list_profiles()]
    assert names == sorted(names) and "module-910b-8" in names
    profile = ascend_compile.load_profile("module-910b-8")
    assert isinstance(profile, ascend_compile.Profile) and profile.npus_per_node == 8
    with pytest.raises(ascend_compile.ProfileNotFoundError) as info:
        ascend_compile.load_profile("module-910b-88")
    assert "did you mean 'module-910b-8'" in info.value.findings[0].hint
    with pytest.raises(LookupError):
        ascend_compile.load_profile("nope")


def test_extra_profile_dirs(tmp_path):
    source = (ROOT / "profiles" / "module-910b-8.yaml").read_text()
    (tmp_path / "lab.yaml").write_text(source.replace("name: module-910b-8", "name: lab-910b"))
    assert ascend_compile.load_profile("lab-910b", extra_dirs=[tmp_path]).npus_per_node == 8
    spec = JobSpec(name="a", framework="pytorch", profile="lab-910b", npus=8, image="x")
    assert ascend_compile.compile_spec(spec, profile_dirs=[tmp_path])[-1]["kind"] == "AscendJob"


# --------------------------------------------------------------------------- validate and lint


def test_validate_objects_and_paths(tmp_path):
    objects = ascend_compile.compile_spec(example_as_jobspec())
    assert ascend_compile.validate_manifests(objects) == []
    broken = json.loads(json.dumps(objects))
    broken[-1]["spec"]["replicaSpecs"]["Master"]["replicas"] = "1"
    findings = ascend_compile.validate_manifests(broken)
    assert [f.rule for f in findings] == ["AC102"]
    assert findings[0].field_path == "spec.replicaSpecs.Master.replicas"

    path = tmp_path / "job.yaml"
    path.write_text(ascend_compile.to_yaml(broken))
    from_file = ascend_compile.validate_manifests(path)
    assert [(f.rule, f.field_path) for f in from_file] == [(f.rule, f.field_path) for f in findings]
    assert from_file[0].file == str(path) and from_file[0].line > 0


def test_validate_refuses_mixed_or_odd_input(tmp_path):
    with pytest.raises(TypeError):
        ascend_compile.validate_manifests([{"kind": "x"}, str(tmp_path)])
    with pytest.raises(TypeError):
        ascend_compile.validate_manifests([42])  # type: ignore[list-item]


def test_lint_objects_and_paths(tmp_path):
    objects = ascend_compile.compile_spec(example_as_jobspec())
    assert [f for f in ascend_compile.lint_manifests(objects) if f.severity == "error"] == []
    path = tmp_path / "job.yaml"
    path.write_text(ascend_compile.to_yaml(objects))
    assert [f for f in ascend_compile.lint_manifests([path]) if f.severity == "error"] == []

    broken = json.loads(json.dumps(objects))
    master = broken[-1]["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"][0]
    master["resources"]["limits"]["huawei.com/Ascend910"] = 3  # requests say 8
    findings = ascend_compile.lint_manifests(broken)
    assert any(f.severity == "error" for f in findings)
    assert all(isinstance(f, ascend_compile.Finding) for f in findings)
    path.write_text(ascend_compile.to_yaml(broken))
    from_file = ascend_compile.lint_manifests(path)
    assert {f.rule for f in from_file} == {f.rule for f in findings}
    assert all(f.line > 0 for f in from_file if f.file == str(path))


def test_finding_is_a_frozen_dataclass():
    finding = ascend_compile.Finding("AC999", "error", "m", ("spec", "x", 0))
    assert finding.field_path == "spec.x[0]"
    with pytest.raises(dataclasses.FrozenInstanceError):
        finding.message = "other"  # type: ignore[misc]
