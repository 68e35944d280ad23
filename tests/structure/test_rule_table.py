"""A rule lives in two places, as ruff keeps its rules: its row in the rule table and its module.

The row (``compiler/catalogue/__init__.py``: ID, name, severity, kinds, hint, the schema rules it replaces)
and, for a lint rule, its unit ``compiler/lint/rules/<name with _>.py`` (the check, the docstring that is its
documentation, ``CITATION``, and ``fix`` when ``lint --fix`` fixes it).  A rule without a unit (the reader's,
the loaders', the schema check's) has its row and its text in ``compiler/catalogue/docs.py``.  Nothing else in
the package or the scripts is keyed by a rule ID: adding a rule touches its row, its module and its tests.
"""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Dict, List, Set

from tests.checkout import ROOT

TABLE = ROOT / "compiler" / "catalogue" / "__init__.py"
DOCS = ROOT / "compiler" / "catalogue" / "docs.py"
RULES = ROOT / "compiler" / "lint" / "rules"
_ID = re.compile(r"AC\d{3}")


def _units() -> Set[str]:
    """The rule modules: every module of lint/rules/ but the helpers several units share (``_name.py``)."""
    return {path.stem for path in RULES.glob("*.py") if not path.name.startswith("_")}


def _rows() -> Dict[str, str]:
    """The lint rows of the table: unit name -> ID."""
    from ascend_compile import catalogue

    return {entry.unit: entry.id for entry in catalogue.entries(catalogue.LINT)}


def test_every_rule_module_has_its_row_and_every_row_its_module() -> None:
    rows = _rows()
    assert sorted(_units() - set(rows)) == [], "a module under lint/rules/ without a row in the rule table"
    assert sorted(set(rows) - _units()) == [], "a lint row in the rule table without its module under lint/rules/"


def test_every_rule_module_holds_its_check_documentation_and_citation() -> None:
    from ascend_compile.catalogue.citations import Citation

    wrong: List[str] = []
    for unit in sorted(_units()):
        module = importlib.import_module(f"ascend_compile.lint.rules.{unit}")
        judges = callable(getattr(module, "facts", None)) and callable(getattr(module, "judge", None))
        if not callable(getattr(module, "check", None)) and not judges:
            wrong.append(f"{unit}: no check(obj, run), nor facts(obj) and judge(ref, fact, run)")
        if not (module.__doc__ or "").strip():
            wrong.append(f"{unit}: no docstring (the rule's documentation)")
        if not isinstance(getattr(module, "CITATION", None), Citation):
            wrong.append(f"{unit}: no CITATION (what it mirrors upstream)")
        if hasattr(module, "fix") and not callable(module.fix):
            wrong.append(f"{unit}: fix is not a function")
    assert wrong == []


def _id_constants() -> Set[str]:
    """The names of the table's ID constants (``WRONG_TYPE = "AC102"``), with which code reports a rule by name."""
    tree = ast.parse(TABLE.read_text(encoding="utf-8"))
    return {target.id for node in tree.body if isinstance(node, ast.Assign)
            for target in node.targets if isinstance(target, ast.Name)
            and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
            and _ID.fullmatch(node.value.value)}


def _keyed_by_id(path: Path, constants: Set[str]) -> List[str]:
    """Where ``path`` spells a rule ID itself, or keys a mapping by a rule ID's constant."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and _ID.fullmatch(node.value):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: the ID {node.value!r}")
        keys = node.keys if isinstance(node, ast.Dict) else [node.key] if isinstance(node, ast.DictComp) else []
        found += [f"{path.relative_to(ROOT)}:{node.lineno}: a mapping keyed by {key.id}" for key in keys
                  if isinstance(key, ast.Name) and key.id in constants]
    return found


def test_nothing_but_the_table_and_the_texts_of_the_rules_without_a_unit_is_keyed_by_a_rule_id() -> None:
    """An ID spelt out, or a dict keyed by an ID's constant, anywhere in the package or the scripts outside the
    table is a third place a rule lives (a citation, a fixer, a group): it goes into the rule's row or its module.
    Code that reports a rule names it by the table's constant; lint units report under their own row's ID."""
    constants = _id_constants()
    files = sorted(p for folder in ("compiler", "scripts") for p in (ROOT / folder).rglob("*.py"))
    found = [hit for path in files if path not in (TABLE, DOCS) for hit in _keyed_by_id(path, constants)]
    assert found == [], "\n".join(found)


def test_the_texts_of_the_rules_without_a_unit_are_only_theirs() -> None:
    """``catalogue/docs.py`` documents rows that have no unit (a lint rule's documentation is its docstring)."""
    from ascend_compile import catalogue
    from ascend_compile.catalogue.docs import DOCS as TEXTS, REPORTED_BY

    without_unit = {entry.id for entry in catalogue.entries() if not entry.unit}
    assert sorted(set(TEXTS) - without_unit) == [] and sorted(set(REPORTED_BY) - without_unit) == []
    documented = {entry.id for entry in catalogue.entries() if not entry.unit and "\n" not in entry.text}
    assert sorted(documented - set(TEXTS)) == [], "a row without a unit and without its text in docs.py"
