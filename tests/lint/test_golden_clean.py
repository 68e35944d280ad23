"""The compiler's own output is lint-clean: no error or warning for any example spec (examples/**)."""
from __future__ import annotations

import glob
import os

import pytest

from .conftest import ROOT

from ascend_compile.jobspec.model import is_spec
from ascend_compile.yamlio.parsing import load_file


def _specs_under_examples():
    """Every YAML file under examples/ that holds a job spec (kustomization files and the like hold none)."""
    paths = sorted(glob.glob(os.path.join(ROOT, "examples", "**", "*.yaml"), recursive=True))
    return [p for p in paths if any(is_spec(doc.data) for doc in load_file(p))]


EXAMPLES = _specs_under_examples()


def test_there_are_examples_to_check():
    assert len(EXAMPLES) > 100, EXAMPLES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: os.path.relpath(p, os.path.join(ROOT, "examples")))
def test_compiled_example_is_lint_clean(path):
    from ascend_compile.lint.oneshot import lint_objects
    from ascend_compile.compiling.pipeline import compile_specs

    jobs = compile_specs([doc for doc in load_file(path) if is_spec(doc.data)])
    objects = [obj for job in jobs for obj in job.objects]
    findings = [f for f in lint_objects(objects, source=path) if f.severity in ("error", "warning")]
    assert not findings, "\n".join(f"{f.rule} {f.field_path}: {f.message}" for f in findings)
