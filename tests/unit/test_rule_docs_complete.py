"""Every rule ID has full documentation: what, why and how to fix, never a pointer elsewhere."""
from __future__ import annotations

import pytest

from ascend_compile.catalogue import entries
from ascend_compile.lint.registry import documentation, summary
from tests.checkout import run_cli

IDS = [entry.id for entry in entries()]


@pytest.mark.parametrize("rule_id", IDS)
def test_documentation_says_what_why_and_how_to_fix(rule_id: str) -> None:
    [entry] = [e for e in entries() if e.id == rule_id]
    doc = documentation(entry)
    assert "see the project README" not in doc
    for part in ("**What.**", "**Why.**", "**How to fix.**"):
        assert part in doc, f"{rule_id}: no {part}"
    assert doc.split("\n", 1)[0].strip() == summary(entry) and len(summary(entry)) > 20


def test_explain_prints_it_for_an_id_reported_outside_lint() -> None:
    result = run_cli("explain", "AC304")
    assert result.returncode == 0, result.stderr
    assert "\nHow to fix. " in result.stdout and "npus: 13" in result.stdout and "README" not in result.stdout
