"""docs/dependencies.md names every dependency pyproject.toml declares, with the lower bound it claims."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
DOC = (ROOT / "docs" / "dependencies.md").read_text(encoding="utf-8")


def declared():
    """(name, lowest version or None) of [project] dependencies and every optional-dependencies list."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    project = text.split("[project]", 1)[1].split("\n[project.scripts]", 1)[0]
    out = []
    for requirement in re.findall(r'^\s*"([A-Za-z0-9_.\-]+(?:>=[^"]+)?)",?\s*$', project, re.M):
        name, _, lowest = requirement.partition(">=")
        out.append((name, lowest or None))
    return out


def table_rows():
    return [line for line in DOC.splitlines() if line.startswith("| ")]


def test_pyproject_declares_the_runtime_dependencies():
    names = [name for name, _ in declared()]
    assert "PyYAML" in names and "click" in names and "jsonschema" in names


def test_every_declared_dependency_has_a_row_with_its_lower_bound():
    rows = table_rows()
    for name, lowest in declared():
        row = [r for r in rows if f"| {name} |" in r]
        assert row, f"{name} has no row in docs/dependencies.md"
        if lowest:
            claimed = lowest[:-2] if lowest.endswith(".0") and lowest.count(".") == 1 else lowest
            assert f"| {claimed} |" in row[0] or f"| {lowest} |" in row[0], (name, lowest, row[0])


def test_the_validator_decision_is_recorded_with_numbers():
    section = DOC.split("## The validator", 1)[1]
    assert "Decision: keep ours" in section
    assert "whole `validate`, 2,000 files" in section and "whole `validate`, 1 file" in section
    assert "bench/validators.py" in section
