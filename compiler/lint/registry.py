"""Every rule ID ``ascend-compile`` can report, with its metadata.

Two sources:

* **rule units**: the modules listed in :data:`ascend_compile.lint.rules.RULE_MODULES`
  (an explicit list, as yamllint does: adding a rule is adding a module and a
  line there);
* **metadata-only entries** for findings produced outside the lint rules:
  input errors (``yamlio.INPUT_RULES``), schema checks
  (``schemas.SCHEMA_RULES``), profile and config loading (AC010, AC011), the
  suppression checks of the engine (AC012), the spec rules of ``compile``
  (``spec.SPEC_RULES``, AC023, AC304).

So ``rules``, ``explain`` and SARIF know every ID that can appear.
"""
from __future__ import annotations

import importlib
from typing import Dict, List, Optional

from ..findings import ERROR, WARNING
from .rule import Rule, from_module

BAD_SUPPRESSION = "AC012"

_RULES: Optional[Dict[str, Rule]] = None

_BAD_SUPPRESSION_DOC = """\
A suppression comment or annotation is malformed: an unknown rule, or no reason.

**What.** ``# ascend-compile: disable=...`` comments and the
``ascend-compile.io/ignore`` annotation name rules that do not exist, or an
annotation entry has no reason after its colon.

**Why.** A suppression that names a wrong ID silently suppresses nothing; an
annotation suppression outlives the review that allowed it, so it must say why.
An entry without a reason is not honoured.

**How to fix.** Use the IDs ``ascend-compile rules`` lists, and write the
annotation as ``"AC303: reason; AC305: reason"``.

Failing::

    metadata:
      annotations:
        ascend-compile.io/ignore: "AC303"

Passing::

    metadata:
      annotations:
        ascend-compile.io/ignore: "AC303: 4 NPUs per pod on purpose for this benchmark"
"""


def _meta(rule_id: str, name: str, summary: str, origin: str, severity: str = ERROR,
          kinds: tuple = (), doc: str = "") -> Rule:
    return Rule(id=rule_id, name=name, severity=severity, summary=summary,
                doc=doc or f"{summary}\n\nReported by {_ORIGIN_TEXT[origin]}; see the project README.",
                kinds=kinds, check=None, origin=origin)


_ORIGIN_TEXT = {
    "input": "the YAML reader (an input error: exit code 2)",
    "schema": "the schema check (the same as ``ascend-compile validate``)",
    "spec": "``ascend-compile compile`` when it reads a job spec",
    "config": "the loader of project configuration and hardware profiles (exit code 2)",
    "engine": "the lint engine",
}


def _meta_rules() -> List[Rule]:
    from .. import config, hardware, pipeline, profiles, schemas, spec, yamlio

    out: List[Rule] = []
    for rule_id, name, summary in yamlio.INPUT_RULES:
        out.append(_meta(rule_id, name, summary, "input"))
    out.append(_meta(profiles.PROFILE_INVALID, "profile-invalid",
                     "A hardware profile file is invalid or a profile directory does not exist.", "config"))
    out.append(_meta(config.CONFIG_INVALID, "config-invalid",
                     "The project config file (.ascend-compile.yaml) is invalid.", "config"))
    out.append(_meta(BAD_SUPPRESSION, "bad-suppression",
                     "A suppression comment or annotation is malformed: an unknown rule, or no reason.",
                     "engine", WARNING, ("*",), _BAD_SUPPRESSION_DOC))
    for rule_id, name, summary in spec.SPEC_RULES:
        out.append(_meta(rule_id, name, summary, "spec", kinds=("TrainingJob",)))
    out.append(_meta(pipeline.NOT_A_SPEC, "not-a-spec",
                     "compile was given a document that is not a TrainingJob spec.", "spec",
                     kinds=("TrainingJob",)))
    out.append(_meta(hardware.NPU_TOTAL, "npu-total",
                     "A spec's total NPU count cannot be split into pods the hardware profile allows.", "spec",
                     kinds=("TrainingJob",)))
    for rule_id, name, summary in schemas.SCHEMA_RULES:
        out.append(_meta(rule_id, name, summary, "schema",
                         WARNING if rule_id == schemas.UNKNOWN_KIND else ERROR, ("*",)))
    return out


def _load() -> Dict[str, Rule]:
    global _RULES
    if _RULES is None:
        from .rules import RULE_MODULES

        rules: Dict[str, Rule] = {}
        for rule in _meta_rules():
            rules[rule.id] = rule
        for name in RULE_MODULES:
            rule = from_module(importlib.import_module(f"{__package__}.rules.{name}"))
            if rule.id in rules:
                raise RuntimeError(f"rule ID {rule.id} is defined twice ({rule.module})")
            rules[rule.id] = rule
        _RULES = dict(sorted(rules.items()))
    return _RULES


def all_rules() -> List[Rule]:
    """Every rule, sorted by ID."""
    return list(_load().values())


def lint_rules() -> List[Rule]:
    """The rule units the engine runs."""
    return [r for r in _load().values() if r.checkable]


def get(key: str) -> Optional[Rule]:
    """A rule by ID (case-insensitive) or name."""
    rules = _load()
    found = rules.get(key.upper())
    if found:
        return found
    for rule in rules.values():
        if rule.name == key.lower():
            return rule
    return None


def resolve(key: str) -> Optional[str]:
    rule = get(key)
    return rule.id if rule else None


def rule_infos() -> Dict[str, "object"]:
    """Rule metadata in the shape the reporters take (``report.RuleInfo``)."""
    from ..report import RuleInfo

    out: Dict[str, object] = {}
    for rule in _load().values():
        out[rule.id] = RuleInfo(id=rule.id, name=rule.name, severity=rule.severity, summary=rule.summary,
                                rationale=rule.doc, hint=rule.hint, help_uri=help_uri(rule))
    return out


DOCS_URI = "https://github.com/ascend-compile/ascend-compile/blob/main/docs/rules.md"


def help_uri(rule: Rule) -> str:
    return f"{DOCS_URI}#{rule.id.lower()}-{rule.name}"
