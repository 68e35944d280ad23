"""A mistake in what the spec passes through as is (``jobPatch``) is the user's: a finding located at the
spec line that wrote it, exit 1, not "internal error ... This is a bug in ascend-compile" (exit 3)."""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from ascend_compile import api
from ascend_compile.errors import CompileError
from tests.checkout import run_cli
from tests.specs_passed_through import ENV_PATCH, JOB, worker_patch

VOLCANO_PATCH = JOB.replace("  npus: 16\n", "  target: VolcanoJob\n  npus: 16\n") + """\
  jobPatch:
    metadata:
      labels: {team: 7}
    spec:
      tasks:
        - name: worker
          template:
            spec:
              containers:
                - name: ascend
                  ports: [{containerPort: "8080", name: http}]
"""


def _compile(tmp_path: Path, text: str):
    path = tmp_path / "job.yaml"
    path.write_text(text, encoding="utf-8")
    return path, run_cli("compile", str(path))


def test_an_integer_env_value_in_job_patch_is_located_on_the_spec(tmp_path: Path) -> None:
    path, proc = _compile(tmp_path, ENV_PATCH)
    assert proc.returncode == 1, proc.stderr
    assert "internal error" not in proc.stderr and "bug" not in proc.stderr
    assert proc.stdout == ""
    line = next(n for n, text in enumerate(ENV_PATCH.splitlines(), 1) if "value: 32" in text)
    column = ENV_PATCH.splitlines()[line - 1].index("32") + 1
    assert proc.stderr.startswith(f"{path}:{line}:{column}: error: the compiled AscendJob is invalid at "
                                  "spec.replicaSpecs.Worker.template.spec.containers[0].env[2].value: expected a "
                                  "string, got an integer (32) [AC020]\n")
    assert "at: spec.jobPatch.spec.replicaSpecs.Worker.template.spec.containers[0].env[0].value" in proc.stderr
    assert 'hint: jobPatch is merged into the compiled job as is; fix it there (quote it: "32"' in proc.stderr


def test_every_mistake_in_a_volcano_job_patch_is_located(tmp_path: Path) -> None:
    path, proc = _compile(tmp_path, VOLCANO_PATCH)
    assert proc.returncode == 1, proc.stderr
    lines = VOLCANO_PATCH.splitlines()
    labels = lines.index("      labels: {team: 7}") + 1
    ports = next(n for n, text in enumerate(lines, 1) if "containerPort" in text)
    assert f"{path}:{labels}:" in proc.stderr and "at: spec.jobPatch.metadata.labels.team " in proc.stderr
    assert f"{path}:{ports}:" in proc.stderr
    assert "at: spec.jobPatch.spec.tasks[0].template.spec.containers[0].ports[0].containerPort " in proc.stderr
    assert proc.stderr.count("[AC020]") == 2


@pytest.mark.parametrize("text", [ENV_PATCH, VOLCANO_PATCH], ids=["env", "volcano"])
def test_the_api_raises_a_compile_error_not_an_internal_one(text: str) -> None:
    with pytest.raises(CompileError) as raised:
        api.compile_job(yaml.safe_load(text))
    assert all(f.path[:2] == ("spec", "jobPatch") for f in raised.value.findings)


def test_a_field_missing_from_what_the_patch_wrote_is_located_on_the_patch(tmp_path: Path) -> None:
    text = worker_patch("affinity:", "  podAffinity:", "    requiredDuringSchedulingIgnoredDuringExecution:",
                        "      - {$patch: replace}", "      - topologyKey: kubernetes.io/hostname",
                        "        labelSelector: {matchExpressions: [{operator: In, values: [x]}]}")
    path, proc = _compile(tmp_path, text)
    assert proc.returncode == 1, proc.stderr
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "matchExpressions" in row)
    assert proc.stderr.startswith(f"{path}:{line}:")
    assert 'matchExpressions[0].key: missing required field "key" [AC020]' in proc.stderr
