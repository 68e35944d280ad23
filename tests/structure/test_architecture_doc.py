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


def _doc_floors(text: str):
    """(floor, {unit}) of each row of the floor table under "## The floors", bottom first: a unit is a module or
    package the row names in backquotes (``records.py``, ``catalogue/``; the package's ``__init__.py`` is ""),
    outside the parentheses that say what it is (which may name the modules it reads)."""
    section = text.split("## The floors", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ")][1:]  # after the header
    out = []
    for row in rows:
        floor, what = [cell.strip() for cell in row.strip("|").split("|")]
        while re.search(r"\([^()]*\)", what):
            what = re.sub(r"\([^()]*\)", "", what)
        units = {"" if name == "__init__" else name
                 for name in re.findall(r"`(\w+)(?:\.py|/)`", what)}
        out.append((floor, units))
    return out


def test_the_floor_table_is_the_layer_tests():
    """The doc's floors, in order, with the modules on each, are those tests/structure/test_layout.py checks."""
    from tests.structure.floors import FLOORS

    assert _doc_floors(DOC) == [(floor, set(units)) for floor, units in FLOORS]


def test_a_floor_moved_in_the_doc_alone_is_caught():
    """The comparison reads the table: a module put on another floor in the text makes it differ."""
    from tests.structure.floors import FLOORS

    moved = DOC.replace("| findings | `findings.py` |", "| findings | `findings.py`, `errors.py` |")
    assert moved != DOC and _doc_floors(moved) != [(floor, set(units)) for floor, units in FLOORS]


def test_the_dependencies_document_names_only_files_that_exist():
    """Every file or folder docs/dependencies.md names in backquotes is in the checkout (under compiler/ or at the
    root): it named modules long gone (schema_validator.py, validation.py, spec.py)."""
    text = (ROOT / "docs" / "dependencies.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([\w./-]+(?:\.py|\.md|/))`", text))
    assert named, "the document names no files"
    missing = sorted(p for p in named if not (ROOT / p).exists() and not (ROOT / "compiler" / p).exists())
    assert missing == []
