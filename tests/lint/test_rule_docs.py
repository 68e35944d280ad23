"""Rule units are documented, and docs/rules.md is generated from them."""
from __future__ import annotations

import importlib.util
import os
import re

from .conftest import ROOT


def _gen():
    path = os.path.join(ROOT, "scripts", "gen_rule_docs.py")
    spec = importlib.util.spec_from_file_location("gen_rule_docs", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rules_md_is_up_to_date():
    module = _gen()
    with open(module.OUTPUT, encoding="utf-8") as handle:
        current = handle.read()
    assert current == module.render(), "docs/rules.md is stale: run python scripts/gen_rule_docs.py"


def test_every_rule_unit_is_documented():
    from ascend_compile.catalogue import LINT, entries
    from ascend_compile.lint.registry import documentation

    names = set()
    for rule in entries(LINT):
        assert re.fullmatch(r"AC[2-9]\d\d", rule.id), rule.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", rule.name), rule.name
        assert rule.severity in ("error", "warning", "info")
        assert rule.kinds and rule.hint, rule.id
        for part in ("**What.**", "**Why.**", "**How to fix.**", "Failing::", "Passing::"):
            assert part in documentation(rule), (rule.id, part)
        assert rule.name not in names
        names.add(rule.name)
    ids = [r.id for r in entries()]
    assert len(ids) == len(set(ids))
