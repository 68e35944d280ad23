"""A spec's cpu, memory or shm that is no Kubernetes quantity is the spec's error, located on its line: it was
accepted by the spec schema and then failed compile's own output check as "a bug in ascend-compile" (exit 3)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.checkout import ROOT, run_cli

SPEC = (ROOT / "examples" / "pytorch-module-910b-8.yaml").read_text(encoding="utf-8")


@pytest.mark.parametrize("field", ["cpu", "memory", "shm"])
def test_a_value_that_is_no_quantity_is_the_specs_error(tmp_path: Path, field: str) -> None:
    spec = tmp_path / "job.yaml"
    spec.write_text(SPEC.replace("  image:", f"  resources: {{{field}: \"16Gi-x\"}}\n  image:", 1), encoding="utf-8")
    line = next(n for n, text in enumerate(spec.read_text().splitlines(), 1) if "16Gi-x" in text)
    result = run_cli("compile", str(spec))
    assert result.returncode == 1, result.stderr
    assert "internal error" not in result.stderr and "bug" not in result.stderr
    assert f"job.yaml:{line}:" in result.stderr and "is not a valid quantity [AC105]" in result.stderr
    assert f"spec.resources.{field}" in result.stderr and result.stdout == ""


def test_a_quantity_still_compiles(tmp_path: Path) -> None:
    spec = tmp_path / "job.yaml"
    spec.write_text(SPEC.replace("  image:", "  resources: {cpu: 500m, memory: 256Gi, shm: 16Gi}\n  image:", 1),
                    encoding="utf-8")
    result = run_cli("compile", str(spec))
    assert result.returncode == 0, result.stderr
    assert "sizeLimit: 16Gi" in result.stdout
