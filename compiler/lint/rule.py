"""What a lint rule is: a module with metadata and a ``check`` generator.

Each rule lives in its own module under :mod:`ascend_compile.lint.rules` (the
yamllint / ansible-lint layout) and defines:

``ID``        stable rule ID, e.g. ``"AC204"``
``NAME``      short kebab-case name, e.g. ``"success-policy"``
``SEVERITY``  default severity (``error``, ``warning`` or ``info``)
``KINDS``     object kinds it applies to (see :mod:`ascend_compile.lint.context`)
``HINT``      the default fix hint shown with each finding
``check(obj, run)``
              a generator yielding :class:`Problem` objects for one object;
              ``obj`` is an :class:`~ascend_compile.lint.context.ObjectContext`,
              ``run`` the :class:`~ascend_compile.lint.context.RunContext` that sees
              every object of the lint run (for cross-object rules)

The module docstring is the rule's documentation (``ascend-compile explain``
and ``docs/rules.md``); its first line is the one-line summary.
Optional: ``REPLACES`` (schema rule IDs whose finding at the same path this
rule's finding makes redundant).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable, Iterable, Optional, Tuple

from ..findings import Path


@dataclass(frozen=True)
class Problem:
    """One thing a rule found, before the engine locates it in the source."""

    path: Path
    message: str
    hint: Optional[str] = None
    #: point at the key of ``path`` (for misplaced or unknown keys) rather than its value
    key: bool = False
    #: overrides the rule's default severity for this one problem
    severity: Optional[str] = None
    #: report under another rule ID (rule units that share one computation)
    rule: Optional[str] = None


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    severity: str
    summary: str
    doc: str = ""
    hint: str = ""
    kinds: Tuple[str, ...] = ()
    check: Optional[Callable[..., Iterable[Problem]]] = None
    #: where the rule lives: "lint" (a rule unit), or "input", "schema", "spec", "config", "engine"
    origin: str = "lint"
    module: str = ""
    replaces: Tuple[str, ...] = field(default=())

    @property
    def checkable(self) -> bool:
        return self.check is not None


def _cleandoc(doc: str) -> str:
    """``inspect.cleandoc`` without importing inspect (slow to import)."""
    lines = doc.expandtabs().strip().split("\n")
    indents = [len(line) - len(line.lstrip()) for line in lines[1:] if line.strip()]
    margin = min(indents) if indents else 0
    return "\n".join([lines[0].strip()] + [line[margin:].rstrip() for line in lines[1:]])


def from_module(module: ModuleType) -> Rule:
    doc = _cleandoc(module.__doc__ or "")
    summary = doc.split("\n", 1)[0].strip()
    return Rule(
        id=module.ID,
        name=module.NAME,
        severity=module.SEVERITY,
        summary=summary,
        doc=doc,
        hint=getattr(module, "HINT", ""),
        kinds=tuple(module.KINDS),
        check=module.check,
        origin="lint",
        module=module.__name__,
        replaces=tuple(getattr(module, "REPLACES", ())),
    )
