"""The examples in docs/api.md run: every ```python block, in order, in one namespace.

A block right after a ``<!-- api-docs: skip ... -->`` comment is not run (it needs a cluster;
tests/integration/test_client_api.py covers those calls against a real API server).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import List, Tuple

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "api.md"
_BLOCK = re.compile(r"(?P<skip><!-- api-docs: skip[^>]*-->\n)?```python\n(?P<code>.*?)^```$", re.S | re.M)


def blocks() -> List[Tuple[int, str, bool]]:
    text = DOC.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start("code")) + 1, m.group("code"), bool(m.group("skip")))
            for m in _BLOCK.finditer(text)]


def test_docs_have_examples():
    found = blocks()
    assert len([b for b in found if not b[2]]) >= 5
    assert any(skip for _, _, skip in found)


def test_api_docs_examples_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    monkeypatch.chdir(ROOT)
    namespace: dict = {"__name__": "api_docs"}
    for line, code, skip in blocks():
        if skip:
            compile(code, f"{DOC}:{line}", "exec")  # still has to be valid Python
            continue
        try:
            exec(compile("\n" * (line - 1) + code, str(DOC), "exec"), namespace)  # noqa: S102
        except Exception as exc:  # noqa: BLE001
            pytest.fail(f"the example at docs/api.md line {line} failed: {type(exc).__name__}: {exc}")
    out = capsys.readouterr().out
    assert "Master 1 8" in out and "2 8 Ascend910B" in out
    assert "AC304 spec.npus 12 NPUs cannot be placed on module-910b-8" in out
