"""``compile --set PATH=VALUE``: CI overrides of one field for every spec, checked like the spec itself."""
from __future__ import annotations

import yaml

from tests.checkout import run_cli

SPEC = "examples/pytorch-module-910b-8.yaml"  # AscendJob resnet50-pytorch, 2 pods x 8 NPUs
OTHER = "examples/tensorflow-card-910b-2.yaml"


def containers(stdout: str):
    for obj in yaml.safe_load_all(stdout):
        for replica in (obj.get("spec", {}).get("replicaSpecs") or {}).values():
            yield from replica["template"]["spec"]["containers"]


def test_set_changes_the_field_of_every_spec() -> None:
    proc = run_cli("compile", SPEC, OTHER, "--set", "spec.image=registry.example.com/train:2.1",
                   "--set", "spec.labels.release=r7")
    assert proc.returncode == 0, proc.stderr
    images = {c["image"] for c in containers(proc.stdout)}
    assert images == {"registry.example.com/train:2.1"}
    jobs = [o for o in yaml.safe_load_all(proc.stdout) if o["kind"] == "AscendJob"]
    assert len(jobs) == 2 and all(job["metadata"]["labels"]["release"] == "r7" for job in jobs)


def test_value_is_yaml_and_a_quoted_value_a_string() -> None:
    proc = run_cli("compile", SPEC, "--set", "spec.npus=8")
    assert proc.returncode == 0, proc.stderr
    [job] = [o for o in yaml.safe_load_all(proc.stdout) if o["kind"] == "AscendJob"]
    assert sum(r["replicas"] for r in job["spec"]["replicaSpecs"].values()) == 1
    proc = run_cli("compile", SPEC, "--set", 'spec.env.MODEL_VERSION="1.0"')
    assert proc.returncode == 0, proc.stderr
    env = [e for c in containers(proc.stdout) for e in c.get("env", []) if e["name"] == "MODEL_VERSION"]
    assert env and all(e["value"] == "1.0" for e in env)


def test_a_bad_value_is_refused_like_the_spec_and_names_the_argument() -> None:
    proc = run_cli("compile", SPEC, "--set", "spec.npus=13")
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("--set spec.npus=13: error: 13 NPUs cannot be placed on module-910b-8")
    assert "for the spec in examples/pytorch-module-910b-8.yaml" in proc.stderr
    proc = run_cli("compile", SPEC, "--set", "spec.imagee=x")
    assert proc.returncode == 1 and "--set spec.imagee=x: error: unknown field \"imagee\"" in proc.stderr


def test_a_malformed_argument_is_a_usage_error_naming_it(tmp_path) -> None:
    for argument, words in [("image=1", "dotted field path under metadata or spec"),
                            ("spec.image", "write PATH=VALUE"),
                            ("spec.image.tag=1", "spec.image is not a mapping"),
                            ("spec.image=[", "VALUE is not a YAML value")]:
        proc = run_cli("compile", SPEC, "-o", str(tmp_path / "out"), "--set", argument)
        assert proc.returncode == 2, (argument, proc.stderr)
        assert f"--set '{argument}'" in proc.stderr and words in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr
    assert not (tmp_path / "out").exists()


def test_the_spec_file_is_not_changed(tmp_path) -> None:
    spec = tmp_path / "job.yaml"
    spec.write_text((run_cli("init", "-", "--name", "demo", "--npus", "2", "--profile", "card-910b-2").stdout))
    before = spec.read_bytes()
    proc = run_cli("compile", str(spec), "--set", "spec.image=other:1")
    assert proc.returncode == 0, proc.stderr
    assert spec.read_bytes() == before
