"""Shared helpers for the lint tests."""
from __future__ import annotations

import os
import sys
from typing import List

import pytest


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
SAMPLES = os.path.join(SHARED, "upstream", "samples")
SARIF_SCHEMA = os.path.join(SHARED, "standards", "sarif-schema-2.1.0.json")

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def lint_text(text: str, name: str = "test.yaml", **kwargs) -> List:
    from ascend_compile.lint.engine import lint_documents
    from ascend_compile.yamlio import load_documents

    return lint_documents(load_documents(text, name), texts={name: text}, **kwargs)


def needs_shared(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} is not available (the shared research folder is not checked out here)")
