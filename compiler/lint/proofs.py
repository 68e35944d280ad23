"""On which MindCluster releases each rule is proven, and what it rests on there.

A rule's finding is proven on a release when

- **shown**: a job shape or a claim naming the rule was judged on that release's simulated cluster and lint, with
  the release as its target, agreed (:data:`ascend_compile.catalogue.proven.SHOWN`, generated from the tests that
  show them); or a fact the shape or claim shows has the same value over a span whose first and last releases were
  both shown (the span between is shown by the ends);
- **judged**: the release's fidelity run shows it, by the criterion of :mod:`ascend_compile.catalogue.proven`
  (:data:`ascend_compile.catalogue.proven.JUDGED`: jobs refused where it is the only error and none run where it
  errs, or jobs run where it warns);
- **cited**: the rule's per-release claim rests on a fact whose value the simulated cluster cannot show
  (the rule unit's ``CITED_FACTS`` says why), and the fact's entry in :data:`ascend_compile.releases.FACTS` cites the file of each
  release (``shown``).

``docs/rules.md`` and ``explain`` say it per rule; tests/lint/test_rule_proofs.py fails when a rule claims a
release (names it, or names a fact whose value differs there) that nothing here backs.
"""
from __future__ import annotations

import importlib
from typing import Any, Dict, List, Tuple

from .. import releases
from ..catalogue import get
from ..catalogue.proven import JUDGED, NAMED_FACTS, SHOWN
from ..records import NamedTuple


class Proof(NamedTuple):
    """What backs a rule on each release."""

    #: release -> the shape and claim ids that show it there (directly, or as the ends of a fact's span)
    shown: Dict[str, Tuple[str, ...]]
    #: release -> the facts whose cited files back it there
    cited: Dict[str, Tuple[str, ...]]
    #: release -> the severities at which that release's fidelity run shows it (error, warning, info)
    judged: Dict[str, Tuple[str, ...]]
    #: every fact the rule rests on (shown, cited, or named by its unit), in FACTS order
    facts: Tuple[str, ...]
    #: fact -> why it rests on its cited files (the cited ones)
    why_cited: Dict[str, str]

    def releases(self) -> Tuple[str, ...]:
        """The releases something backs, oldest first."""
        return tuple(r for r in releases.RELEASES if r in self.shown or r in self.cited or r in self.judged)


def _spans_between(fact: str, seen: Tuple[str, ...]) -> List[str]:
    """The releases of each span of ``fact`` whose first and last releases are both in ``seen``."""
    order = releases.RELEASES
    found: List[str] = []
    for first, last, _ in releases.fact(fact).spans:
        if first in seen and last in seen:
            found += order[order.index(first):order.index(last) + 1]
    return found


def _cited_facts(rule_id: str) -> Tuple[Tuple[str, str], ...]:
    """The unit's ``CITED_FACTS``: the facts its claim rests on by citation, and why (none for a rule without a unit)."""
    entry = get(rule_id)
    if entry is None or not entry.unit:
        return ()
    found: Tuple[Tuple[str, str], ...] = getattr(
        importlib.import_module(f"{__package__}.rules.{entry.unit}"), "CITED_FACTS", ())
    return found


def proof(rule_id: str) -> Proof:
    shown: Dict[str, List[str]] = {}
    for evidence_id, _kind, seen, facts in SHOWN.get(rule_id, ()):
        between = {r for fact in facts for r in _spans_between(fact, seen)}
        for release in set(seen) | between:
            shown.setdefault(release, []).append(evidence_id)
    cited: Dict[str, List[str]] = {}
    why = dict(_cited_facts(rule_id))
    for fact in why:
        for release in releases.RELEASES:
            cited.setdefault(release, []).append(fact)
    named = {f for item in SHOWN.get(rule_id, ()) for f in item[3]} | set(why) | set(NAMED_FACTS.get(rule_id, ()))
    judged: Dict[str, List[str]] = {}
    for release, severity, _jobs in JUDGED.get(rule_id, ()):
        judged.setdefault(release, []).append(severity)
    return Proof({r: tuple(sorted(ids)) for r, ids in shown.items()}, {r: tuple(f) for r, f in cited.items()},
                 {r: tuple(found) for r, found in judged.items()},
                 tuple(name for name in releases.FACTS if name in named), why)


def proven_text(rule_id: str) -> str:
    """One paragraph for a rule's documentation: the releases it is proven on, and how."""
    found = proof(rule_id)
    if not found.releases():
        return ("Proven on: no release yet (no job shape, claim or citation of the release clusters names this "
                "rule, and no release's fidelity run shows it).")
    parts: List[str] = []
    if found.shown:
        ids = sorted({i for ids in found.shown.values() for i in ids})
        parts.append(f"shown on the simulated cluster of {releases.span_text(found.shown)} ({', '.join(ids)})")
    for severity, what in (("error", "jobs where it is the only error rejected, refused or never scheduled there, "
                                     "none where it errs run"),
                           ("warning", "jobs where it warns and nothing errs run there"),
                           ("info", "jobs where it informs and nothing errs run there")):
        on = [r for r, severities in found.judged.items() if severity in severities]
        if on:
            parts.append(f"judged by the fidelity runs of {releases.span_text(on)} ({what}: docs/fidelity.md)")
    for fact, why in found.why_cited.items():
        parts.append(f"resting on the files compiler/releases.py cites for fact `{fact}` on "
                     f"{releases.span_text(releases.RELEASES)} ({why})")
    return f"Proven on: MindCluster {releases.span_text(found.releases())}: " + "; ".join(parts) + "."


def value_text(value: object) -> str:
    """A fact's value in words: yes/no, a list, a mapping, ``any`` for None."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) if value else "none"
    if isinstance(value, dict):
        return "; ".join(f"{key} → {', '.join(found)}" for key, found in value.items()) if value else "none"
    return "any" if value is None else str(value)


def facts_of(rule_id: str) -> List[Dict[str, Any]]:
    """The facts a rule rests on, each with its value per release, where each value was shown (the shapes and claims
    of the rule that show the fact, with their releases) and the files it cites, for ``explain``."""
    found = proof(rule_id)
    out: List[Dict[str, Any]] = []
    for name in found.facts:
        fact = releases.fact(name)
        by = sorted({item[0] for item in SHOWN.get(rule_id, ()) if name in item[3]})
        out.append({"name": name, "about": fact.about,
                    "values": {release: releases.value(name, release) for release in releases.RELEASES},
                    "spans": [{"releases": releases.span_text(releases.RELEASES[releases.RELEASES.index(first):
                                                                                 releases.RELEASES.index(last) + 1]),
                               "value": value} for first, last, value in fact.spans],
                    "shownBy": by, "cited": fact.shown, "whyCited": found.why_cited.get(name, "")})
    return out
