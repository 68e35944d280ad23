"""docs/architecture.md stays true: what it names exists, and every package and module is named in it."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def test_every_path_it_names_exists():
    named = set(re.findall(r"`((?:compiler|profiles|schemas|tests|scripts|golden)/[^`\s]*)`", DOC))
    assert named, "the document names no paths"
    missing = sorted(p for p in named if "<" not in p and not (ROOT / p).exists())
    assert missing == []


def test_every_package_and_module_is_described():
    package = ROOT / "compiler"
    packages = [p.parent.relative_to(ROOT).as_posix() + "/" for p in package.glob("*/__init__.py")]
    modules = [p.name for p in package.glob("*.py") if not p.name.startswith("_")]
    undescribed = [name for name in packages + modules if name not in DOC]
    assert undescribed == [], "describe these in docs/architecture.md"


def test_it_points_at_the_dependencies_document():
    assert "Dependencies and the validator decision: see docs/dependencies.md" in DOC
    assert (ROOT / "docs" / "dependencies.md").is_file()
