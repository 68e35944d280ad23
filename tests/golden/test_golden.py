"""Golden files: every example spec compiles to exactly the reviewed output in golden/.

Run ``python -m pytest tests/golden --update-golden`` to rewrite them after an
intended change, then read the diff: a changed golden file is a claim that the
new output is right.
"""
from __future__ import annotations

from pathlib import Path
from typing import List

import pytest
import yaml
from deepdiff import DeepDiff

from ascend_compile.api import compile_files
from ascend_compile.config import ProjectConfig
from ascend_compile.compiling.writer import render_jobs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
GOLDEN = ROOT / "golden"
#: example folders whose specs have golden outputs (kustomize/ and project/ are tested elsewhere)
GOLDEN_SETS = ("", "matrix", "samples", "showcase")


def example_specs() -> List[Path]:
    specs: List[Path] = []
    for folder in GOLDEN_SETS:
        specs.extend(sorted((EXAMPLES / folder).glob("*.yaml")))
    return specs


def golden_path(spec: Path) -> Path:
    return GOLDEN / spec.relative_to(EXAMPLES)


@pytest.mark.parametrize("spec", example_specs(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_example_matches_golden(spec: Path, update_golden: bool) -> None:
    text = render_jobs(compile_files([str(spec.relative_to(ROOT))], config=ProjectConfig()))
    golden = golden_path(spec)
    if update_golden:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert golden.exists(), f"no golden file for {spec}; run pytest --update-golden and review it"
    expected = golden.read_text(encoding="utf-8")
    if text != expected:  # what differs: the content, else only the bytes (the same text is the same content)
        semantic = DeepDiff(list(yaml.safe_load_all(expected)), list(yaml.safe_load_all(text)), verbose_level=2)
        assert not semantic, f"{spec.name} compiles to something else than {golden}:\n{semantic.pretty()}"
        raise AssertionError(f"{golden} has the same content but different bytes (formatting changed)")


def test_every_golden_file_has_an_example() -> None:
    expected = {golden_path(spec) for spec in example_specs()}
    present = {p for folder in GOLDEN_SETS for p in (GOLDEN / folder).glob("*.yaml")}
    orphans = sorted(str(p.relative_to(ROOT)) for p in present - expected)
    assert not orphans, f"golden files without an example spec (delete them): {orphans}"


def test_matrix_covers_every_supported_combination() -> None:
    from ascend_compile.hardware.profiles import ProfileRegistry

    names = {p.stem for p in (EXAMPLES / "matrix").glob("*.yaml")}
    slug = {"AscendJob": "acjob", "VolcanoJob": "vcjob"}
    missing = [f"{fw}-{p.name}-{slug[t]}" for p in ProfileRegistry().all() for t in p.targets for fw in p.frameworks
               if f"{fw}-{p.name}-{slug[t]}" not in names]
    assert not missing, f"run scripts/gen_matrix_examples.py: no matrix example for {missing}"
