"""What a lint rule is: a catalogue entry (:mod:`ascend_compile.catalogue`) and a unit module with ``check``.

Each rule's unit lives in its own module under :mod:`ascend_compile.lint.rules`
(the yamllint / ansible-lint layout), named after the rule (``npu-count`` is
``npu_count.py``).  The module's docstring is the rule's documentation
(``ascend-compile explain`` and ``docs/rules.md``; its first line is the
one-line summary) and it defines:

``check(obj, run)``
    a generator yielding :class:`Problem` objects for one object; ``obj`` is an
    :class:`~ascend_compile.lint.context.ObjectContext`, ``run`` the
    :class:`~ascend_compile.lint.context.RunContext` that sees every object of
    the lint run (for cross-object rules).

ID, name, default severity, kinds, fix hint and the schema rules it replaces
are the entry's, in the catalogue.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Tuple

from ..catalogue import Entry
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
    """A rule unit ready to run: its catalogue entry and its unit's ``check``."""

    entry: Entry
    check: Callable[[Any, Any], Iterable[Problem]]

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def severity(self) -> str:
        return self.entry.severity

    @property
    def hint(self) -> str:
        return self.entry.hint

    @property
    def kinds(self) -> Tuple[str, ...]:
        return self.entry.kinds

    @property
    def replaces(self) -> Tuple[str, ...]:
        return self.entry.replaces
