"""Plain, if odd, input: located errors or the value as written, never an internal error.

Issue 16, item 9 (unquoted dates in ``profile``, ``nfs`` and ``image``, a huge ``retries``) and
the input parts of item 11 (env timestamps rewritten, ``npusPerNode: 8.0``, ``krm --lint`` on an
indented ResourceList, secret values echoed in errors, raw Python exceptions from the API).
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from tests.hardening.helpers import EXAMPLE_SPEC, ROOT, assert_clean, cli, output, spec_text, write

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX paths")

REGISTRY_CONFIG = "defaults:\n  imageRegistry: registry.example.com/ml\n"


def no_internal_error(proc) -> None:
    assert "internal error" not in output(proc) and "Traceback" not in output(proc), output(proc)


@pytest.mark.parametrize("old,new,where", [
    ("profile: module-910b-8", "profile: 2024-01-01", "spec.yaml:10:"),
    ('nfs: "10.0.0.5:/data/atlas_dls/public/code"', "nfs: 2024-01-01", "spec.yaml:16:"),
    ("image: swr.example.com/ml/pytorch-train:2.1.0", "image: 2024-01-01", ""),
], ids=["profile", "nfs", "image"])
def test_unquoted_dates_are_read_as_written(tmp_path: Path, old: str, new: str, where: str) -> None:
    (tmp_path / ".git").mkdir()
    write(tmp_path / ".ascend-compile.yaml", REGISTRY_CONFIG)
    path = write(tmp_path / "spec.yaml", spec_text(**{old: new}))
    proc = cli("compile", path.name, cwd=tmp_path)
    no_internal_error(proc)
    if where:  # no such profile / an nfs source without a server path: the user's error, located
        assert_clean(proc, {1}, where, "2024-01-01")
    else:  # an image named 2024-01-01 is odd but valid: the registry is prefixed to the text as written
        assert_clean(proc, {0}, "image: registry.example.com/ml/2024-01-01")


def test_unquoted_env_timestamps_keep_their_text(tmp_path: Path) -> None:
    spec = spec_text(**{"npus: 16": "npus: 16\n  env:\n    STARTED: 2024-01-01T10:00:00Z\n    DAY: 2024-01-01"})
    proc = cli("compile", write(tmp_path / "spec.yaml", spec).name, cwd=tmp_path)
    assert_clean(proc, {0})
    env = {e["name"]: e.get("value") for doc in yaml.safe_load_all(proc.stdout) if doc and doc["kind"] == "AscendJob"
           for e in doc["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["env"]}
    assert env["STARTED"] == "2024-01-01T10:00:00Z" and env["DAY"] == "2024-01-01"


@pytest.mark.parametrize("value", ["99999999999", "2147483648"])
def test_retries_out_of_range_is_a_located_range_error(tmp_path: Path, value: str) -> None:
    path = write(tmp_path / "spec.yaml", spec_text(**{"npus: 16": f"npus: 16\n  retries: {value}"}))
    proc = cli("compile", path.name, cwd=tmp_path)
    no_internal_error(proc)
    assert_clean(proc, {1}, "spec.yaml:12:", "retries", "2147483647")


def test_a_float_in_a_profile_gives_integer_replicas(tmp_path: Path) -> None:
    profile = (ROOT / "profiles" / "module-910b-8.yaml").read_text()
    assert "npusPerNode: 8\n" in profile
    write(tmp_path / "hw" / "mine.yaml", profile.replace("name: module-910b-8", "name: mine-910b-8")
          .replace("npusPerNode: 8\n", "npusPerNode: 8.0\n"))
    path = write(tmp_path / "spec.yaml", spec_text(**{"profile: module-910b-8": "profile: mine-910b-8"}))
    proc = cli("compile", "--profile-dir", "hw", path.name, cwd=tmp_path)
    no_internal_error(proc)
    job = [d for d in yaml.safe_load_all(proc.stdout) if d and d["kind"] == "AscendJob"][0]
    replicas = [r["replicas"] for r in job["spec"]["replicaSpecs"].values()]
    assert replicas and all(type(r) is int for r in replicas), replicas  # noqa: E721 - 1.0 is not a replica count


# --------------------------------------------------------------------------- krm --lint, indented


def test_krm_lint_on_an_indented_resource_list_prints_valid_yaml(tmp_path: Path) -> None:
    text = ("--- \n  apiVersion: config.kubernetes.io/v1\n  kind: ResourceList\n  items:\n"
            "  - apiVersion: v1\n    kind: ConfigMap\n    metadata:\n      name: x\n    bogus: 1\n")
    proc = cli("krm", "--lint", input=text.encode(), cwd=tmp_path)
    no_internal_error(proc)
    data = yaml.safe_load(proc.stdout)
    assert data["kind"] == "ResourceList" and data["results"], proc.stdout


# --------------------------------------------------------------------------- secrets in messages


@pytest.mark.parametrize("key", ["DB_PASSWORD", "api_token", "SECRET_KEY", "AUTH"])
def test_wrong_type_errors_do_not_echo_secret_looking_values(tmp_path: Path, key: str) -> None:
    text = f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  {key}: 918273645\n"
    for command in ("validate", "lint"):
        proc = cli(command, write(tmp_path / "cm.yaml", text).name, cwd=tmp_path)
        assert_clean(proc, {1}, "cm.yaml:6:", "quote it")
        assert "918273645" not in output(proc)


def test_wrong_type_errors_still_echo_ordinary_values(tmp_path: Path) -> None:
    text = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  PORT: 8080\n"
    proc = cli("validate", write(tmp_path / "cm.yaml", text).name, cwd=tmp_path)
    assert_clean(proc, {1}, '"8080"')


# --------------------------------------------------------------------------- the Python API


def _calls() -> dict:
    import ascend_compile as ac

    good = ac.JobSpec(name="x", framework="pytorch", profile="module-910b-8", npus=8, image="i")
    return {
        "compile_spec(None)": lambda: ac.compile_spec(None),  # type: ignore[arg-type]
        "compile_spec(str)": lambda: ac.compile_spec("kind: TrainingJob"),  # type: ignore[arg-type]
        "compile_spec(profile_dirs=[1])": lambda: ac.compile_spec(good, profile_dirs=[1]),  # type: ignore[list-item]
        "compile_spec(config=1)": lambda: ac.compile_spec(good, config=1),  # type: ignore[arg-type]
        "compile_spec(JobSpec(npus='8'))": lambda: ac.compile_spec(
            ac.JobSpec(name="x", framework="pytorch", profile="module-910b-8", npus="8", image="i")),  # type: ignore
        "compile_spec(JobSpec(env=1))": lambda: ac.compile_spec(
            ac.JobSpec(name="x", framework="pytorch", profile="module-910b-8", npus=8, image="i", env=1)),  # type: ignore
        "compile_spec({spec: list})": lambda: ac.compile_spec({"apiVersion": "ascend-compile.io/v1alpha1",
                                                               "kind": "TrainingJob", "metadata": {"name": "x"},
                                                               "spec": []}),
        "compile_spec({1: 2})": lambda: ac.compile_spec({1: 2}),
        "compile_files(1)": lambda: ac.compile_files(1),  # type: ignore[arg-type]
        "lint_manifests(1)": lambda: ac.lint_manifests(1),  # type: ignore[arg-type]
        "lint_manifests(mixed)": lambda: ac.lint_manifests([{"kind": "x"}, "a.yaml"]),
        "validate_manifests(None)": lambda: ac.validate_manifests(None),  # type: ignore[arg-type]
        "validate_manifests(volcano_version=x)": lambda: ac.validate_manifests([{"kind": "x"}], volcano_version="x"),
        "lint_manifests(disable=[nope])": lambda: ac.lint_manifests([{"kind": "x"}], disable=["nope"]),
        "load_profile(1)": lambda: ac.load_profile(1),  # type: ignore[arg-type]
        "list_profiles([1])": lambda: ac.list_profiles([1]),  # type: ignore[list-item]
        "to_yaml(1)": lambda: ac.to_yaml(1),  # type: ignore[arg-type]
    }


@pytest.mark.parametrize("call", sorted(_calls()))
def test_the_api_raises_its_own_errors_for_bad_input(call: str) -> None:
    from ascend_compile import AscendCompileError

    function: Callable[[], Any] = _calls()[call]
    with pytest.raises(AscendCompileError) as caught:
        function()
    assert caught.value.findings and caught.value.findings[0].message
