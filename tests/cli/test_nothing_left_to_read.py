"""compile and import given only what discovery leaves out on purpose (a Helm chart, kustomize's patches) say
what they left out, not just that there was nothing; reading nothing at all is an input error (exit 2) for both.
import names what it left out whether it imports a job or finds none (AC026), with a hint that imports it."""
from __future__ import annotations

import json

import pytest

from tests.checkout import ROOT, run_cli, write_tree

LEFT_OUT = {
    "charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
    "charts/app/templates/job.yaml": "kind: {{ .Values.kind }}\n",
    "overlay/kustomization.yaml": "resources: [../base]\npatches:\n- path: replicas.yaml\n",
    "overlay/replicas.yaml": "apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata: {name: a}\n"
                             "spec: {replicaSpecs: {Worker: {replicas: 4}}}\n",
}


@pytest.mark.parametrize("command,what", [("compile", "job specs (kind: TrainingJob)"), ("import", "manifests")])
def test_a_folder_of_only_left_out_files_names_them(tmp_path, command, what):
    write_tree(tmp_path, LEFT_OUT)
    result = run_cli(command, ".", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == f"ascend-compile {command}: no {what} in the given paths; left out on purpose:"
    assert lines[1].startswith("  ./charts/app: is a Helm chart") and lines[1].endswith("[AC007]")
    assert lines[2].startswith("  ./overlay/replicas.yaml: was NOT CHECKED: ./overlay/kustomization.yaml merges")
    assert lines[2].endswith("[AC014]") and len(lines) == 3


@pytest.mark.parametrize("command,what", [("compile", "job specs (kind: TrainingJob)"), ("import", "manifests")])
def test_an_empty_input_is_an_input_error_with_nothing_left_out(tmp_path, command, what):
    (tmp_path / "empty.yaml").write_text("", encoding="utf-8")
    result = run_cli(command, "empty.yaml", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stderr) == (2, f"ascend-compile {command}: no {what} in the given paths\n")


def test_import_of_objects_that_are_not_jobs_names_the_left_out_patches_too(tmp_path):
    write_tree(tmp_path, {**LEFT_OUT, "cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"})
    result = run_cli("import", ".", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert (result.returncode, result.stdout) == (1, ""), result.stderr
    assert "./cm.yaml: error: no AscendJob or Volcano Job to import [AC026]" in result.stderr
    assert "./charts/app: info: is a Helm chart" in result.stderr
    assert "./overlay/replicas.yaml: warning: was NOT CHECKED: ./overlay/kustomization.yaml merges" in result.stderr
    assert "    hint: import what it builds: kubectl kustomize ./overlay | ascend-compile import -\n" in result.stderr
    as_json = run_cli("import", "--format", "json", ".", cwd=tmp_path)
    rules = sorted(f["rule"] for f in json.loads(as_json.stdout)["findings"])
    assert (as_json.returncode, rules) == (1, ["AC007", "AC014", "AC026", "AC026"])


def test_import_that_imports_a_job_names_what_it_left_out(tmp_path):
    write_tree(tmp_path, {**LEFT_OUT, "job.yaml": (ROOT / "golden" / "pytorch-module-910b-8.yaml").read_text()})
    result = run_cli("import", ".", cwd=tmp_path, env={"NO_COLOR": "1"})
    assert result.returncode == 0, result.stderr
    assert "kind: TrainingJob" in result.stdout
    assert "./overlay/replicas.yaml: warning: was NOT CHECKED: ./overlay/kustomization.yaml merges" in result.stderr
    assert "    hint: import what it builds: kubectl kustomize ./overlay | ascend-compile import -\n" in result.stderr
