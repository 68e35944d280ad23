"""The compiler's own output is lint-clean: no error or warning for any example spec (examples/**)."""
from __future__ import annotations

import glob
import os

import pytest

from .conftest import ROOT

#: every spec under examples/ (top level, matrix/, samples/, ...)
EXAMPLES = sorted(glob.glob(os.path.join(ROOT, "examples", "**", "*.yaml"), recursive=True))

#: examples that reproduce an upstream sample faithfully, warnings and all: file -> the rules it must warn about
KNOWN_WARNINGS: dict = {}  # example file name -> rule IDs it is expected to warn about (none today)


@pytest.mark.parametrize("path", EXAMPLES or [None], ids=lambda p: os.path.basename(p) if p else "none")
def test_compiled_example_is_lint_clean(path):
    if path is None:
        pytest.skip("no examples/*.yaml yet")
    from compiler.lint.engine import lint_objects
    from compiler.pipeline import compile_specs
    from compiler.yamlio import load_file

    from compiler.spec import is_spec

    docs = [doc for doc in load_file(path) if is_spec(doc.data)]
    if not docs:
        pytest.skip("not a job spec")
    jobs = compile_specs(docs)
    objects = [obj for job in jobs for obj in job.objects]
    findings = [f for f in lint_objects(objects, source=path) if f.severity in ("error", "warning")]
    allowed = KNOWN_WARNINGS.get(os.path.basename(path), set())
    assert all(f.severity == "warning" for f in findings if f.rule in allowed)
    assert {f.rule for f in findings} == allowed, "\n".join(
        f"{f.rule} {f.field_path}: {f.message}" for f in findings)
