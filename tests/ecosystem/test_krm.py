"""The KRM function: ascend_compile.compiling.krm as a pure function, the krm command, and real runs under
kustomize (exec function) and kpt (fn eval --exec)."""
from __future__ import annotations

import copy
import json
import os
import shutil
import stat
import subprocess
import re
import sys
from pathlib import Path
from typing import Any, Dict, List, Optional

import pytest
import yaml

from ascend_compile.compiling import krm
from ascend_compile.api import compile_files
from ascend_compile.config import ProjectConfig
from ascend_compile.yamlio.dump import dump_document
from tests.checkout import IMPORT_ROOT, checkout_pythonpath, run_cli

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "pytorch-module-910b-8.yaml"  # 2 pods x 8, AscendJob
GENERATOR_DIR = ROOT / "examples" / "kustomize" / "generator"


def load_spec(path: Path = EXAMPLE) -> Dict[str, Any]:
    data: Dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return data


def compiled(path: Path = EXAMPLE) -> List[Dict[str, Any]]:
    return [obj for job in compile_files([str(path)], config=ProjectConfig()) for obj in job.objects]


def resource_list(items: List[Any], function_config: Any = None) -> Dict[str, Any]:
    out: Dict[str, Any] = {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": items}
    if function_config is not None:
        out["functionConfig"] = function_config
    return out


def annotate(obj: Dict[str, Any], **annotations: str) -> Dict[str, Any]:
    obj = copy.deepcopy(obj)
    obj.setdefault("metadata", {}).setdefault("annotations", {}).update(annotations)
    return obj


CONFIGMAP = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "unrelated", "namespace": "training"},
             "data": {"b": "2", "a": "1"}}


# --------------------------------------------------------------------------- ascend_compile.compiling.krm (pure)

def test_specs_are_replaced_in_place_and_other_items_pass_through() -> None:
    spec = annotate(load_spec(), **{"config.kubernetes.io/path": "specs/job.yaml", "config.kubernetes.io/index": "0"})
    other = copy.deepcopy(CONFIGMAP)
    out = krm.process(resource_list([other, spec, {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}]))
    assert out["kind"] == "ResourceList" and out["apiVersion"] == "config.kubernetes.io/v1"
    assert out["items"] == [CONFIGMAP, *compiled(), {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}]
    assert "results" not in out
    # key order of the passed-through item is kept
    assert list(out["items"][0]["data"]) == ["b", "a"]


def test_spec_as_function_config_is_compiled_after_the_items() -> None:
    out = krm.process(resource_list([copy.deepcopy(CONFIGMAP)], function_config=load_spec()))
    assert out["items"] == [CONFIGMAP, *compiled()]
    assert out["functionConfig"] == load_spec()


def test_kustomize_generator_input_compiles_the_spec_once() -> None:
    """kustomize passes a generator's config both as functionConfig and, marked local-config, among the items."""
    spec = annotate(load_spec(), **{"config.kubernetes.io/function": "exec:\n  path: ./fn\n"})
    item = annotate(spec, **{"config.kubernetes.io/local-config": "true", "config.kubernetes.io/index": "0",
                             "internal.config.kubernetes.io/index": "0", "config.k8s.io/id": "1"})
    out = krm.process(resource_list([item], function_config=spec))
    assert out["items"] == compiled()
    assert "results" not in out


def test_volcano_job_spec_emits_configmap_and_job() -> None:
    spec_path = GENERATOR_DIR / "job.yaml"
    out = krm.process(resource_list([load_spec(spec_path)]))
    assert [o["kind"] for o in out["items"]] == ["ConfigMap", "Job"]
    assert out["items"] == compiled(spec_path)


def test_a_spec_that_does_not_compile_stays_and_is_reported() -> None:
    spec = load_spec()
    spec["spec"]["profile"] = "module-910b-9"
    spec = annotate(spec, **{"config.kubernetes.io/path": "legacy.yaml", "config.kubernetes.io/index": "5",
                             "internal.config.kubernetes.io/path": "specs/job.yaml",
                             "internal.config.kubernetes.io/index": "2"})
    outcome = krm.run(resource_list([copy.deepcopy(CONFIGMAP), spec]))
    out = outcome.resource_list
    assert out["items"] == [CONFIGMAP, spec]
    assert out["results"] == [{
        "message": out["results"][0]["message"],
        "severity": "error",
        "resourceRef": {"apiVersion": "ascend-compile.io/v1alpha1", "kind": "TrainingJob",
                        "name": "resnet50-pytorch", "namespace": "training"},
        "field": {"path": "spec.profile"},
        "file": {"path": "specs/job.yaml", "index": 2},
        "tags": {"rule": "AC021"},
    }]
    message = out["results"][0]["message"]
    assert "unknown hardware profile 'module-910b-9'" in message and "[AC021]" in message
    assert "did you mean 'module-910b-8'" in message
    assert outcome.has_errors and krm.exit_status(outcome.findings) == 1
    assert outcome.findings[0].file == "specs/job.yaml#2"


def test_legacy_path_annotation_is_used_when_internal_is_absent() -> None:
    spec = load_spec()
    spec["spec"]["npus"] = 13
    spec = annotate(spec, **{"config.kubernetes.io/path": "jobs/a.yaml", "config.kubernetes.io/index": "0"})
    results = krm.process(resource_list([spec]))["results"]
    assert results[0]["file"] == {"path": "jobs/a.yaml", "index": 0}
    assert results[0]["field"] == {"path": "spec.npus"}


def test_two_specs_with_one_name_are_an_error() -> None:
    first, second = load_spec(), load_spec()
    out = krm.process(resource_list([first, second]))
    assert out["items"][:-1] == compiled() and out["items"][-1] == second
    assert [r["severity"] for r in out["results"]] == ["error"]
    assert "defined twice" in out["results"][0]["message"]


@pytest.mark.parametrize("bad", [None, [], "text", {"kind": "List", "items": []}])
def test_anything_but_a_resource_list_is_an_input_error(bad: Any) -> None:
    outcome = krm.run(bad)
    assert outcome.resource_list["kind"] == "ResourceList"
    assert outcome.resource_list["results"][0]["severity"] == "error"
    assert "expected a ResourceList" in outcome.resource_list["results"][0]["message"]
    assert krm.exit_status(outcome.findings) == 2


def test_items_must_be_a_list() -> None:
    outcome = krm.run({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": {"a": 1}})
    assert krm.exit_status(outcome.findings) == 2


def test_empty_resource_list_is_fine() -> None:
    out = krm.process({"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList"})
    assert out == {"apiVersion": "config.kubernetes.io/v1", "kind": "ResourceList", "items": []}


def bad_manifest() -> Dict[str, Any]:
    job = copy.deepcopy(compiled()[-1])
    job["spec"]["successPolicy"] = "Everyone"
    return annotate(job, **{"config.kubernetes.io/path": "manifests/job.yaml", "config.kubernetes.io/index": "0"})


@pytest.mark.parametrize("how", ["flag", "configmap"])
def test_validator_mode_passes_items_through_and_reports_findings(how: str) -> None:
    good = compiled()
    bad = bad_manifest()
    bad["metadata"]["name"] = "other-job"
    items = [*copy.deepcopy(good), bad]
    if how == "flag":
        out = krm.process(resource_list(items), lint=True)
    else:
        out = krm.process(resource_list(items, {"apiVersion": "v1", "kind": "ConfigMap",
                                                "metadata": {"name": "cfg"}, "data": {"lint": "true"}}))
    assert out["items"] == items
    errors = [r for r in out["results"] if r["severity"] == "error"]
    assert errors, out["results"]
    assert all(r["file"] == {"path": "manifests/job.yaml", "index": 0} for r in errors)
    assert all(r["resourceRef"]["name"] == "other-job" for r in errors)
    assert any(r["field"]["path"] == "spec.successPolicy" for r in errors)


def test_validator_mode_checks_specs_without_replacing_them() -> None:
    spec = load_spec()
    out = krm.process(resource_list([spec]), lint=True)
    assert out["items"] == [spec] and "results" not in out
    spec["spec"]["npus"] = 13
    out = krm.process(resource_list([spec]), lint=True)
    assert out["items"] == [spec]
    assert out["results"][0]["severity"] == "error" and out["results"][0]["field"]["path"] == "spec.npus"


def test_output_is_deterministic() -> None:
    spec = load_spec()
    bad = load_spec()
    bad["metadata"]["name"] = "second"
    bad["spec"]["profile"] = "nope"
    rl = resource_list([spec, copy.deepcopy(CONFIGMAP), bad])
    first = dump_document(krm.process(copy.deepcopy(rl)))
    assert all(dump_document(krm.process(copy.deepcopy(rl))) == first for _ in range(3))


# --------------------------------------------------------------------------- the krm command

def test_cli_reads_stdin_and_writes_a_resource_list() -> None:
    spec = load_spec()
    result = run_cli("krm", input=yaml.safe_dump(resource_list([spec, CONFIGMAP])))
    assert result.returncode == 0, result.stderr
    out = yaml.safe_load(result.stdout)
    assert out["items"] == [*compiled(), CONFIGMAP]
    assert result.stderr == ""


def test_cli_error_results_exit_1_and_are_repeated_on_stderr() -> None:
    spec = load_spec()
    spec["spec"]["npus"] = 13
    spec = annotate(spec, **{"config.kubernetes.io/path": "specs/job.yaml"})
    result = run_cli("krm", input=yaml.safe_dump(resource_list([spec])))
    assert result.returncode == 1
    out = yaml.safe_load(result.stdout)
    assert out["results"][0]["file"] == {"path": "specs/job.yaml"}
    assert "specs/job.yaml" in result.stderr and "13 NPUs" in result.stderr


def test_cli_lint_flag() -> None:
    result = run_cli("krm", "--lint", input=yaml.safe_dump(resource_list([bad_manifest()])))
    assert result.returncode == 1
    assert "manifests/job.yaml" in result.stderr
    assert yaml.safe_load(result.stdout)["items"] == [bad_manifest()]


def test_cli_lint_echoes_the_input_bytes_and_appends_results() -> None:
    """kustomize compares a validator's items with its input node by node, quoting style included."""
    text = ('apiVersion: config.kubernetes.io/v1\nkind: ResourceList\nitems:\n'
            + "".join("  " + line if i else "- " + line
                      for i, line in enumerate(dump_document(bad_manifest()).splitlines(keepends=True)))
            + '- {apiVersion: v1, kind: ConfigMap, metadata: {name: "q"}, data: {a: "1", b: \'2\'}}\n')
    result = run_cli("krm", "--lint", input=text)
    assert result.returncode == 1
    assert result.stdout.startswith(text)
    assert yaml.safe_load(result.stdout[len(text):])["results"] == yaml.safe_load(result.stdout)["results"]
    clean = text.replace("Everyone", "AllWorkers")
    result = run_cli("krm", "--lint", input=clean)
    assert result.returncode == 0, result.stdout
    assert result.stdout == clean


def test_cli_rejects_input_that_is_not_yaml() -> None:
    result = run_cli("krm", input="items: [\n")
    assert result.returncode == 2
    assert "not valid YAML" in result.stderr


def test_cli_rejects_a_plain_spec() -> None:
    result = run_cli("krm", input=EXAMPLE.read_text(encoding="utf-8"))
    assert result.returncode == 2
    assert "expected a ResourceList" in result.stdout


# --------------------------------------------------------------------------- real runners

def canonical(objs: List[Dict[str, Any]]) -> str:
    """What kustomize prints for these objects: keys sorted, '---' between documents."""
    return "---\n".join(yaml.safe_dump(o, sort_keys=True, default_flow_style=False, width=4096, allow_unicode=True)
                        for o in objs)


def as_set(objs: List[Dict[str, Any]]) -> List[str]:
    """Objects compared regardless of key order and of the order kustomize sorts them in."""
    return sorted(json.dumps(o, sort_keys=True) for o in objs)


def runner_env(bin_dir: Path) -> Dict[str, str]:
    """PATH leads to the two console scripts in ``bin_dir``, run from this checkout: ``ascend-compile`` and
    ``ascend-compile-krm`` (the example names it), the latter as pip writes it (pyproject's entry point)."""
    script = bin_dir / "ascend-compile"
    script.write_text(f"#!/bin/sh\nPYTHONPATH={checkout_pythonpath({})} exec {sys.executable} -m ascend_compile \"$@\"\n")
    script.chmod(0o755)
    entry = re.search(r'^ascend-compile-krm = "([\w.]+):(\w+)"$', (ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
    assert entry, "pyproject.toml declares the ascend-compile-krm console script"
    krm = bin_dir / "ascend-compile-krm"
    krm.write_text(f"#!{sys.executable}\nimport sys\nsys.path.insert(0, {str(IMPORT_ROOT)!r})\n"
                   f"from {entry.group(1)} import {entry.group(2)}\nsys.exit({entry.group(2)}())\n")
    krm.chmod(0o755)
    env = dict(os.environ)
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return env


def test_kustomize_exec_generator_example_matches_compile(tmp_path: Path, kustomize: str) -> None:
    result = subprocess.run([kustomize, "build", "--enable-alpha-plugins", "--enable-exec", str(GENERATOR_DIR)],
                            capture_output=True, text=True, env=runner_env(tmp_path), timeout=120)
    assert result.returncode == 0, result.stderr
    spec = GENERATOR_DIR / "job.yaml"
    direct = run_cli("compile", str(spec.relative_to(ROOT)))
    assert direct.returncode == 0, direct.stderr
    expected = list(yaml.safe_load_all(direct.stdout))
    assert list(yaml.safe_load_all(result.stdout)) == expected
    # kustomize re-serialises with sorted keys; apart from that the bytes are the same
    assert result.stdout == canonical(expected)


def write_wrapper(directory: Path, extra: str = "") -> Path:
    wrapper = directory / "fn"
    wrapper.write_text(f"#!/bin/sh\nPYTHONPATH={checkout_pythonpath({})} exec {sys.executable} -m ascend_compile krm {extra} \"$@\"\n")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper


@pytest.mark.parametrize("spec", sorted((ROOT / "examples").glob("*.yaml")), ids=lambda p: p.name)
def test_kustomize_runs_every_example(spec: Path, tmp_path: Path, kustomize: str) -> None:
    write_wrapper(tmp_path)
    data = annotate(load_spec(spec), **{"config.kubernetes.io/function": "exec:\n  path: ./fn\n"})
    (tmp_path / "job.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (tmp_path / "extra.yaml").write_text(yaml.safe_dump(CONFIGMAP))
    (tmp_path / "kustomization.yaml").write_text("resources: [extra.yaml]\ngenerators: [job.yaml]\n")
    result = subprocess.run([kustomize, "build", "--enable-alpha-plugins", "--enable-exec", str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    got = list(yaml.safe_load_all(result.stdout))
    expected = compiled(spec)
    assert as_set(got) == as_set([CONFIGMAP, *expected])


def test_kustomize_fails_with_the_finding(tmp_path: Path, kustomize: str) -> None:
    write_wrapper(tmp_path)
    data = annotate(load_spec(), **{"config.kubernetes.io/function": "exec:\n  path: ./fn\n"})
    data["spec"]["npus"] = 13
    (tmp_path / "job.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (tmp_path / "kustomization.yaml").write_text("generators: [job.yaml]\n")
    result = subprocess.run([kustomize, "build", "--enable-alpha-plugins", "--enable-exec", str(tmp_path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode != 0
    assert "13 NPUs cannot be placed on module-910b-8" in result.stderr


def kpt_binary() -> str:
    found = shutil.which("kpt")
    if not found:
        pytest.skip("kpt is not installed: the kpt fn eval --exec runs are skipped")
    return found


def test_kpt_fn_eval_exec_compiles_a_directory(tmp_path: Path) -> None:
    kpt = kpt_binary()
    package = tmp_path / "specs"
    package.mkdir()
    shutil.copy(EXAMPLE, package / "job.yaml")
    (package / "other.yaml").write_text(yaml.safe_dump(CONFIGMAP))
    wrapper = write_wrapper(tmp_path)
    result = subprocess.run([kpt, "fn", "eval", str(package), "--exec", str(wrapper), "-o", "unwrap"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    got = list(yaml.safe_load_all(result.stdout))
    assert as_set(got) == as_set([CONFIGMAP, *compiled()])
    assert (package / "job.yaml").read_text() == EXAMPLE.read_text()  # -o unwrap leaves the package alone


def test_kpt_fn_eval_exec_reports_results(tmp_path: Path) -> None:
    kpt = kpt_binary()
    package = tmp_path / "manifests"
    package.mkdir()
    (package / "job.yaml").write_text(dump_document(bad_manifest()))
    wrapper = write_wrapper(tmp_path, "--lint")
    result = subprocess.run([kpt, "fn", "eval", str(package), "--exec", str(wrapper), "-o", "unwrap",
                             "--results-dir", str(tmp_path / "results")],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode != 0
    assert "successPolicy" in result.stderr
    report = (tmp_path / "results" / "results.yaml").read_text()
    assert "spec.successPolicy" in report and "job.yaml" in report


def test_kpt_keeps_the_real_finding_when_one_spec_among_many_is_bad(tmp_path: Path) -> None:
    """Good specs become unplaced objects; on failure kpt checks them before the results and two of them
    collided ('resource at path "." ... already exists'), so the one real finding was lost."""
    kpt = kpt_binary()
    package = tmp_path / "specs"
    package.mkdir()
    shutil.copy(EXAMPLE, package / "a.yaml")
    shutil.copy(ROOT / "examples" / "tensorflow-card-910b-2.yaml", package / "b.yaml")
    bad = load_spec()
    bad["metadata"]["name"] = "badjob"
    bad["spec"]["npus"] = 13
    (package / "c.yaml").write_text(yaml.safe_dump(bad, sort_keys=False))
    wrapper = write_wrapper(tmp_path)
    result = subprocess.run([kpt, "fn", "eval", str(package), "--exec", str(wrapper), "-o", "unwrap",
                             "--results-dir", str(tmp_path / "results")],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode != 0
    assert "already exists" not in result.stderr
    assert "13 NPUs cannot be placed on module-910b-8" in result.stderr
    report = yaml.safe_load((tmp_path / "results" / "results.yaml").read_text())
    [item] = report["items"]
    [found] = item["results"]
    assert found["file"]["path"] == "c.yaml" and found["field"] == {"path": "spec.npus"}
    assert found["resourceRef"]["name"] == "badjob"


def test_failed_generation_places_generated_objects_apart() -> None:
    good = annotate(load_spec(), **{"internal.config.kubernetes.io/path": "a.yaml"})
    bad = annotate(load_spec(), **{"internal.config.kubernetes.io/path": "c.yaml"})
    bad["metadata"]["name"] = "badjob"
    bad["spec"]["npus"] = 13
    out = krm.process(resource_list([good, bad]))
    paths = [(item["metadata"]["annotations"]["internal.config.kubernetes.io/path"],
              item["metadata"]["annotations"].get("internal.config.kubernetes.io/index")) for item in out["items"]]
    assert len(set(paths)) == len(paths)
    assert ("training/ascendjob_resnet50-pytorch.yaml", "0") in paths and ("c.yaml", None) in paths
    # a successful run leaves placement to the runner (kustomize and kpt compare the objects as compiled)
    ok = krm.process(resource_list([good]))
    assert "annotations" not in ok["items"][-1]["metadata"] or \
        "internal.config.kubernetes.io/path" not in ok["items"][-1]["metadata"]["annotations"]
