"""What rules work out once and share gives the same findings as working it out for each object alone.

The engine keeps answers that several rules, or many objects, ask for: per object (its pod sets' NPU
layout, its signals, the checks npu-count and not-full-node share) and per run (the profiles' facts,
answers that depend only on an object's signals).  A cache keyed too coarsely would give one object
another's answer.  So every file's own findings must be the same whether it is linted after every
other file (in either order) or by a linter of its own.
"""
from __future__ import annotations

import os
from typing import Dict, List, Sequence, Tuple

from tests.lint.conftest import CASES, SAMPLES
from ascend_compile.lint.engine import Linter
from ascend_compile.hardware.profiles import ProfileRegistry
from ascend_compile.yamlio.parsing import load_documents

#: (name, text) of each input
Inputs = List[Tuple[str, str]]


def _inputs() -> Inputs:
    folders = [CASES] + ([SAMPLES] if os.path.isdir(SAMPLES) else [])
    out = []
    for folder in folders:
        for name in sorted(os.listdir(folder)):
            if name.endswith((".yaml", ".yml")):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    out.append((os.path.join(folder, name), handle.read()))
    return out


def _findings(linter: Linter, inputs: Sequence[Tuple[str, str]]) -> Dict[str, List[str]]:
    """Each input's own findings (schema and single-object rules, and the facts cross-object rules keep)."""
    out = {}
    for name, text in inputs:
        docs = load_documents(text, name)
        result = linter.lint_file(name, [(doc.data, doc, (0, i)) for i, doc in enumerate(docs)], text)
        out[name] = [repr(f) for f in result.findings] + [repr(fact) for fact in result.facts]
    return out


def test_every_file_has_the_same_findings_after_others_and_alone():
    inputs = _inputs()
    profiles = ProfileRegistry()
    forward = _findings(Linter(profiles), inputs)
    backward = _findings(Linter(profiles), inputs[::-1])
    alone = {name: _findings(Linter(profiles), [(name, text)])[name] for name, text in inputs}
    assert sum(len(found) for found in alone.values()) > 100, "the cases should give findings to compare"
    assert forward == alone
    assert backward == alone
