"""The rule units the lint engine runs: each lint entry of the catalogue with its unit's ``check``.

The catalogue (:mod:`ascend_compile.catalogue`) lists every rule ID; this
module only imports the unit modules of the lint rules (``lint/rules/<name>.py``),
once per process, when a lint run needs them, or their documentation is asked for
(a lint rule's documentation is its unit's docstring: :func:`documentation`).
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Tuple

from .. import catalogue
from ..catalogue import Entry
from .rule import Problem, Rule

if TYPE_CHECKING:
    from ..catalogue.citations import Citation

_UNITS: Dict[str, Rule] = {}  # rule units imported so far, by ID


def _unit(entry: Any) -> Rule:
    rule = _UNITS.get(entry.id)
    if rule is None:
        module = importlib.import_module(f"{__package__}.rules.{entry.unit}")
        judge, fix = getattr(module, "judge", None), getattr(module, "fix", None)
        stacks = getattr(module, "STACKS", None)
        if judge is None:
            rule = Rule(entry, module.check, fix=fix, stacks=stacks)
        else:
            rule = Rule(entry, _whole_run_check(module.facts, judge), module.facts, judge, fix, stacks)
        _UNITS[entry.id] = rule
    return rule


def entries() -> List[Any]:
    """The catalogue's lint entries, sorted by ID (nothing imported)."""
    return catalogue.entries(catalogue.LINT)


def _whole_run_check(facts: Callable[[Any], Any], judge: Callable[[Any, Any, Any], Iterable[Problem]]) -> Callable[[Any, Any], Iterable[Problem]]:
    """``check(obj, run)`` of a cross-object rule, for a ``run`` that can ``find`` (its facts, then its judgement)."""

    def check(obj: Any, run: Any) -> Iterable[Problem]:
        from .index import ObjectRef

        fact = facts(obj)
        if fact is None:
            return ()
        ref = ObjectRef(obj.kind, obj.name, obj.namespace, obj.source, obj.labels, obj.describe(), obj.prefix,
                        0, None, 0, frozenset(), obj.api_version)
        return judge(ref, fact, run)

    return check


def lint_rules(cluster: bool = True) -> List[Rule]:
    """Every rule unit, sorted by ID; without ``cluster`` (a run without an inventory), none of the cluster-aware
    ones (:attr:`~ascend_compile.catalogue.Entry.cluster_aware`: they would say nothing), nor are they imported."""
    return [_unit(entry) for entry in entries() if cluster or not entry.cluster_aware]


def rules_for(kind: str, cluster: bool = True) -> List[Rule]:
    """The rule units that look at objects of ``kind``, sorted by ID (only theirs are imported); ``cluster`` as for
    :func:`lint_rules`."""
    return [_unit(entry) for entry in entries()
            if ("*" in entry.kinds or kind in entry.kinds) and (cluster or not entry.cluster_aware)]


#: written in a rule's documentation where it says its own severity: replaced by the catalogue's, so that the
#: text and ``explain``'s header (and docs/rules.md's "Severity:") give one answer
SEVERITY_MARK = "|severity|"
_SAID = {"error": "an error", "warning": "a warning", "info": "a note (info)"}


def citation(entry: Entry) -> Optional[Citation]:
    """What a lint rule mirrors upstream: its unit's ``CITATION`` (None for a rule without a unit)."""
    if not entry.unit:
        return None
    cited: Citation = importlib.import_module(f"{__package__}.rules.{entry.unit}").CITATION
    return cited


def documentation(entry: Entry) -> str:
    """Any rule's documentation: a lint rule's is its unit's docstring (cleaned as ``inspect.cleandoc`` would,
    without importing inspect: slow to import), then what it mirrors upstream (:func:`citation`); another rule's
    is the catalogue's.  :data:`SEVERITY_MARK` in it reads as the rule's severity in the catalogue ("a warning")."""
    if not entry.unit:
        return entry.doc.replace(SEVERITY_MARK, _SAID[entry.severity])
    module = importlib.import_module(f"{__package__}.rules.{entry.unit}")
    doc = (module.__doc__ or "").rstrip() + _stacks_said(getattr(module, "STACKS", None))
    lines = doc.expandtabs().strip().split("\n")
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents) if indents else 0
    cited = citation(entry)
    text = "\n".join([lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]]) + \
        (f"\n\n{cited.render()}" if cited else "")
    return text.replace(SEVERITY_MARK, _SAID[entry.severity])


def _stacks_said(stacks: Optional[Tuple[str, ...]]) -> str:
    """What a rule's documentation says of the device stacks it holds on ("" when it holds on every one)."""
    if stacks is None:
        return ""
    from ..releases import DEVICE_STACKS

    named = "; ".join(f"``{stack}`` ({DEVICE_STACKS[stack]})" for stack in stacks)
    return (f"\n\n**Device stacks.** Judged only on {named}: a run judged for another device stack "
            "(``cluster.deviceStack``, ``--device-stack``, a cluster's) does not run it.")


def summary(entry: Entry) -> str:
    """Any rule's one-line summary: the first line of its documentation (a lint rule's unit is imported for it)."""
    return documentation(entry).split("\n", 1)[0].strip() if entry.unit else entry.summary


def get(key: str) -> Optional[Rule]:
    """A rule unit by ID (any case) or name; None for IDs that are not lint rules."""
    entry = catalogue.get(key)
    return _unit(entry) if entry is not None and entry.origin == catalogue.LINT else None
