"""Every TrainingJob spec in docs/from-manifest-to-spec.md compiles, and its output is lint-clean."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from ascend_compile import compile_spec, lint_manifests

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "from-manifest-to-spec.md"
BLOCKS = [yaml.safe_load(block) for block in re.findall(r"```yaml\n(.*?)```", GUIDE.read_text(), re.S)]
SPECS = [b for b in BLOCKS if isinstance(b, dict) and b.get("kind") == "TrainingJob"]


def test_the_guide_has_its_specs():
    assert len(SPECS) >= 8


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s["metadata"]["name"])
def test_guide_spec_compiles_lint_clean(spec):
    objects = compile_spec(spec)
    findings = [f for f in lint_manifests(objects) if f.severity in ("error", "warning")]
    assert not findings, [(f.rule, f.message) for f in findings]
