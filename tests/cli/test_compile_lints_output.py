"""``compile`` lints its own output: warnings to stderr, errors refuse the output, ``--no-lint`` skips it."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.checkout import run_cli

SPEC = """\
apiVersion: ascend-compile.io/v1alpha1
kind: TrainingJob
metadata: {name: job}
spec:
  framework: pytorch
  profile: module-910b-8
  pods: 2
  npusPerPod: 4
  image: t:1
"""


def _write(tmp_path: Path, extra: str = "") -> str:
    path = tmp_path / "job.yaml"
    path.write_text(SPEC + extra)
    return str(path)


def test_warnings_about_the_output_go_to_stderr(tmp_path):
    result = run_cli("compile", _write(tmp_path, "  env: {DB_PASSWORD: hunter2}\n"))
    assert result.returncode == 0, result.stderr
    assert "kind: AscendJob" in result.stdout
    assert "[AC801]" in result.stderr and "[AC303]" not in result.stderr  # not-full-node is a note (info)
    assert "job.yaml (compiled)" in result.stderr and "AC801" not in result.stdout


def test_no_lint_prints_nothing_more(tmp_path):
    result = run_cli("compile", "--no-lint", _write(tmp_path))
    assert result.returncode == 0 and result.stderr == ""
    assert "kind: AscendJob" in result.stdout


def test_a_lint_error_in_the_output_refuses_it(tmp_path):
    patch = "  podTemplatePatch:\n    spec:\n      schedulerName: default-scheduler\n"
    out = tmp_path / "out"
    result = run_cli("compile", _write(tmp_path, patch), "-o", str(out))
    assert result.returncode == 1
    assert "[AC409]" in result.stderr
    assert not out.exists() or not any(out.iterdir())


#: a spec field that reaches the job's metadata or its pod templates with a label or annotation the API server
#: refuses, and the compiled field AC712 names
LABEL_SYNTAX = [
    ("  labels: {team: my team}\n", "metadata.labels.team"),
    ("  annotations: {\"bad key\": x}\n", "metadata.annotations['bad key']"),
    ("  podTemplatePatch:\n    metadata: {labels: {app: a b}}\n",
     "spec.replicaSpecs.Master.template.metadata.labels.app"),
    ("  podTemplatePatch:\n    spec: {nodeSelector: {zone: a b}}\n",
     "spec.replicaSpecs.Worker.template.spec.nodeSelector.zone"),
    ("  jobPatch:\n    metadata: {labels: {x/y/z: a}}\n", "metadata.labels['x/y/z']"),
]


@pytest.mark.parametrize("extra,field", LABEL_SYNTAX, ids=["labels", "annotations", "template-labels",
                                                           "node-selector", "job-patch"])
def test_a_label_the_api_server_refuses_refuses_the_output(tmp_path, extra, field):
    out = tmp_path / "out"
    result = run_cli("compile", _write(tmp_path, extra), "-o", str(out))
    assert result.returncode == 1, result.stderr
    assert "[AC712]" in result.stderr and f"at: {field} " in result.stderr
    assert not out.exists() or not any(out.iterdir())


def test_valid_labels_and_annotations_compile(tmp_path):
    result = run_cli("compile", _write(tmp_path, "  labels: {team: my-team, example.com/owner: alice}\n"
                                                 "  annotations: {description: a run of my team}\n"))
    assert result.returncode == 0, result.stderr
    assert "AC712" not in result.stderr and "team: my-team" in result.stdout
