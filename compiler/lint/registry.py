"""The rule units the lint engine runs: each lint entry of the catalogue with its unit's ``check``.

The catalogue (:mod:`ascend_compile.catalogue`) lists every rule ID; this
module only imports the unit modules of the lint rules (``lint/rules/<name>.py``),
once per process, when a lint run needs them.
"""
from __future__ import annotations

import importlib
from typing import Any, Callable, Dict, Iterable, List, Optional

from .. import catalogue
from .rule import Problem, Rule

_UNITS: Optional[Dict[str, Rule]] = None


def _load() -> Dict[str, Rule]:
    global _UNITS
    if _UNITS is None:
        units: Dict[str, Rule] = {}
        for entry in catalogue.entries(catalogue.LINT):
            module = importlib.import_module(f"{__package__}.rules.{entry.unit}")
            judge = getattr(module, "judge", None)
            if judge is None:
                units[entry.id] = Rule(entry, module.check)
            else:
                units[entry.id] = Rule(entry, _whole_run_check(module.facts, judge), module.facts, judge)
        _UNITS = units
    return _UNITS


def _whole_run_check(facts: Callable[[Any], Any], judge: Callable[[Any, Any, Any], Iterable[Problem]]) -> Callable[[Any, Any], Iterable[Problem]]:
    """``check(obj, run)`` of a cross-object rule, for a ``run`` that can ``find`` (its facts, then its judgement)."""

    def check(obj: Any, run: Any) -> Iterable[Problem]:
        from .index import ObjectRef

        fact = facts(obj)
        if fact is None:
            return ()
        ref = ObjectRef(obj.kind, obj.name, obj.namespace, obj.source, obj.labels, obj.describe(), obj.prefix,
                        0, None, 0, frozenset())
        return judge(ref, fact, run)

    return check


def lint_rules() -> List[Rule]:
    """The rule units the engine runs, sorted by ID."""
    return list(_load().values())


def get(key: str) -> Optional[Rule]:
    """A rule unit by ID (any case) or name; None for IDs that are not lint rules."""
    entry = catalogue.get(key)
    return _load().get(entry.id) if entry else None
