"""Discovery in kustomize folders: whole objects are read; kustomization files and the parts they merge in are not.

A strategic-merge patch linted as a whole object gave false errors (no framework label, no containers);
a JSON 6902 patch, "not an object"; a base kustomization without apiVersion, AC107.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from ascend_compile.files.discovery import discover
from ascend_compile.files.kustomize import parts
from tests.checkout import run_cli, write_tree

JOB = """apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: "1"}
"""
PATCH = """apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata: {name: train}
spec:
  replicaSpecs:
    Worker: {replicas: 3}
"""
OVERLAY = """apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../base, extra.yaml]
patches:
- path: replicas.yaml
- patch: |-
    - op: replace
      path: /spec/replicas
      value: 2
- path: ../shared/image.yaml
  target: {kind: AscendJob}
patchesStrategicMerge: [env.yaml, extra.yaml]
patchesJson6902:
- {target: {kind: AscendJob, name: train}, path: ops.yaml}
configMapGenerator:
- {name: cfg, files: [settings=conf.yaml, more.yaml], envs: [vars.yaml]}
helmCharts:
- {name: x, valuesFile: values-prod.yaml}
configurations: [kustomizeconfig.yaml]
openapi: {path: schema.yaml}
"""


def _tree(root: Path) -> None:
    files = {"base/kustomization.yaml": "resources: [job.yaml]\n", "base/job.yaml": JOB,
             "overlays/prod/kustomization.yaml": OVERLAY, "overlays/prod/extra.yaml": JOB,
             "overlays/prod/replicas.yaml": PATCH, "overlays/prod/env.yaml": PATCH,
             "overlays/prod/ops.yaml": '[{"op": "remove", "path": "/spec/x"}]\n',
             "overlays/prod/conf.yaml": "log: debug\n", "overlays/prod/more.yaml": "x: 1\n",
             "overlays/prod/vars.yaml": "A=1\n", "overlays/prod/values-prod.yaml": "replicas: 2\n",
             "overlays/prod/kustomizeconfig.yaml": "nameReference: []\n", "overlays/prod/schema.yaml": "definitions: {}\n",
             "overlays/shared/image.yaml": PATCH, "overlays/shared/other.yaml": JOB}
    write_tree(root, files)


def test_parts_are_the_files_a_kustomization_merges_in_and_not_its_resources(tmp_path):
    _tree(tmp_path)
    prod = tmp_path / "overlays" / "prod"
    found = [os.path.relpath(p, tmp_path) for p in parts(str(prod / "kustomization.yaml"))]
    assert found == sorted(os.path.join(*p.split("/")) for p in (
        "overlays/prod/conf.yaml", "overlays/prod/env.yaml", "overlays/prod/kustomizeconfig.yaml",
        "overlays/prod/more.yaml", "overlays/prod/ops.yaml", "overlays/prod/replicas.yaml",
        "overlays/prod/schema.yaml", "overlays/prod/values-prod.yaml", "overlays/prod/vars.yaml"))
    # extra.yaml is a resource too; inline patches are no files; ../shared/image.yaml is outside the
    # kustomization's folder: kustomize refuses to read it, so it is no part (it is linted as what it is)
    assert parts(str(tmp_path / "base" / "kustomization.yaml")) == []


def test_a_walk_reads_the_objects_and_warns_of_each_part_it_leaves_out(tmp_path):
    _tree(tmp_path)
    found = discover([str(tmp_path)])
    read = sorted(os.path.relpath(p, tmp_path) for p in found.paths)
    assert read == [os.path.join("base", "job.yaml"), os.path.join("overlays", "prod", "extra.yaml"),
                    os.path.join("overlays", "shared", "image.yaml"), os.path.join("overlays", "shared", "other.yaml")]
    assert [f.rule for f in found.findings] == ["AC014"] * 9 and all(f.severity == "warning" for f in found.findings)
    note = next(f for f in found.findings if f.file.endswith("replicas.yaml"))
    assert str(tmp_path / "overlays" / "prod" / "kustomization.yaml") in note.message
    assert note.hint.startswith("lint what it builds: kubectl kustomize ") and str(tmp_path / "overlays" / "prod") in note.hint


def test_named_files_a_patch_or_a_kustomization_are_left_out_with_a_note(tmp_path):
    _tree(tmp_path)
    prod = tmp_path / "overlays" / "prod"
    patch, kustomization, extra = str(prod / "replicas.yaml"), str(prod / "kustomization.yaml"), str(prod / "extra.yaml")
    found = discover([patch, kustomization, extra])
    assert found.paths == [extra]
    assert sorted((f.file, f.rule) for f in found.findings) == [(kustomization, "AC008"), (patch, "AC014")]


def test_lint_of_only_a_patch_exits_0_as_pre_commit_passes_it_and_warns_it_was_not_checked(tmp_path):
    _tree(tmp_path)
    patch = tmp_path / "overlays" / "prod" / "replicas.yaml"
    for command in (("lint", "--no-cache"), ("validate",)):
        result = run_cli(*command, "--format", "json", str(patch), env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        assert [f["rule"] for f in json.loads(result.stdout)["findings"]] == ["AC014"], command
        assert json.loads(result.stdout)["summary"]["filesNotChecked"] == 1
        text = run_cli(*command, str(patch), env={"NO_COLOR": "1"})
        assert "1 file NOT CHECKED: a kustomization merges it into objects (AC014)." in text.stdout, text.stdout
    failing = run_cli("lint", "--no-cache", "--fail-on", "warning", str(patch), env={"NO_COLOR": "1"})
    assert failing.returncode == 1, failing.stdout


def test_an_unreadable_kustomization_leaves_the_other_files_read(tmp_path):
    (tmp_path / "kustomization.yaml").write_text("patches: [\n", encoding="utf-8")  # not YAML
    (tmp_path / "job.yaml").write_text(JOB, encoding="utf-8")
    found = discover([str(tmp_path)])
    assert found.paths == [str(tmp_path / "job.yaml")] and found.findings == []


def test_a_patch_in_a_folder_below_its_kustomization_is_left_out_named_or_walked(tmp_path):
    """pre-commit passes overlays/prod/patches/replicas.yaml alone; the kustomization that lists it is a folder up."""
    write_tree(tmp_path, {"overlays/prod/kustomization.yaml": "resources: [../../base]\npatches:\n- path: patches/replicas.yaml\n",
                          "overlays/prod/patches/replicas.yaml": PATCH, "overlays/prod/patches/job.yaml": JOB,
                          ".git/HEAD": "ref: refs/heads/main\n"})  # the repository: kustomizations are asked up to here
    patches = tmp_path / "overlays" / "prod" / "patches"
    for args in ([str(patches / "replicas.yaml")], [str(patches)]):
        found = discover(args)
        assert [os.path.basename(p) for p in found.paths] == ([] if args[0].endswith(".yaml") else ["job.yaml"]), args
        assert [(f.rule, os.path.basename(f.file)) for f in found.findings] == [("AC014", "replicas.yaml")], args
        assert os.path.join("overlays", "prod", "kustomization.yaml") in found.findings[0].message


def test_a_folder_holding_only_a_kustomization_exits_0_with_its_note_not_no_yaml_found(tmp_path):
    """An overlay whose patches are inline holds nothing to lint but kustomization.yaml: left out on purpose."""
    write_tree(tmp_path, {"overlays/prod/kustomization.yaml": OVERLAY, "empty/.keep": ""})
    overlay = tmp_path / "overlays" / "prod"
    for command in (("lint", "--no-cache"), ("validate",)):
        result = run_cli(*command, "--format", "json", str(overlay), env={"NO_COLOR": "1"})
        assert result.returncode == 0, (command, result.stdout, result.stderr)
        findings = json.loads(result.stdout)["findings"]
        assert [(f["rule"], f["file"]) for f in findings] == [("AC008", str(overlay / "kustomization.yaml"))], command
        result = run_cli(*command, str(tmp_path / "empty"), env={"NO_COLOR": "1"})
        assert result.returncode == 2 and "no YAML files found" in result.stderr, command


def test_a_file_one_kustomization_lists_as_a_resource_is_linted_though_another_patches_with_it(tmp_path):
    write_tree(tmp_path, {"apps/kustomization.yaml": "resources: [../shared/job.yaml]\n",
                          "canary/kustomization.yaml": "resources: [../apps]\npatches:\n- path: ../shared/job.yaml\n",
                          "shared/job.yaml": JOB})
    for order in (["apps", "canary"], ["canary", "apps"]):
        found = discover([str(tmp_path / name) for name in order] + [str(tmp_path / "shared")])
        assert found.paths == [str(tmp_path / "shared" / "job.yaml")] and found.findings == [], order


def test_a_patch_through_a_link_out_of_its_kustomization_folder_is_linted(tmp_path):
    """overlays/prod/patches -> ../../shared-patches: kustomize refuses a file whose real path is outside the
    kustomization's folder, so the kustomization leaves nothing out; the walk does not follow the link (AC015)."""
    write_tree(tmp_path, {"overlays/prod/kustomization.yaml": "patches:\n- path: patches/replicas.yaml\n",
                          "shared-patches/replicas.yaml": PATCH, ".git/HEAD": "ref: refs/heads/main\n"})
    os.symlink(os.path.join("..", "..", "shared-patches"), tmp_path / "overlays" / "prod" / "patches")
    walked = discover([str(tmp_path)])
    assert walked.paths == [str(tmp_path / "shared-patches" / "replicas.yaml")]
    assert [(f.rule, f.file) for f in walked.findings] == [("AC015", str(tmp_path / "overlays" / "prod" / "patches"))]
    named = str(tmp_path / "overlays" / "prod" / "patches" / "replicas.yaml")
    assert (discover([named]).paths, discover([named]).findings) == ([named], [])
