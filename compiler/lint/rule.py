"""What a lint rule is: a row of the rule table (:mod:`ascend_compile.catalogue`) and a unit module with ``check``.

Each rule's unit lives in its own module under :mod:`ascend_compile.lint.rules`
(the yamllint / ansible-lint layout), named after the rule (``npu-count`` is
``npu_count.py``).  The module's docstring is the rule's documentation
(``ascend-compile explain`` and ``docs/rules.md``; its first line is the
one-line summary) and it defines:

``check(obj, run)``
    a generator yielding :class:`Problem` objects for one object; ``obj`` is an
    :class:`~ascend_compile.lint.context.ObjectContext`, ``run`` the
    :class:`~ascend_compile.lint.context.RunContext` (the hardware profiles and
    the project config of the run).

A rule that looks at other objects of the run (a job and its ranktable ConfigMap)
defines, instead of ``check``, two functions, so that the objects can be read in
several processes and the rule still sees the whole run:

``facts(obj)``
    runs where the object is read; returns what the rule needs to know about it
    (small and picklable: plain data), or None when the rule has nothing to ask.
``judge(ref, fact, run)``
    runs once the whole run is indexed; ``ref`` is the object's
    :class:`~ascend_compile.lint.index.ObjectRef` (kind, name, namespace, source,
    labels), ``run`` answers ``find`` and ``exists_beside``; yields Problems.

It may also define:

``fix(finding, text, docs)``
    what ``lint --fix`` makes of one of its findings: a :class:`~.fixing.Fix` at one node of
    the file's text, or None when the fix is not certain.

and ``STACKS``, the device stacks (:data:`ascend_compile.releases.DEVICE_STACKS`) on which what it asserts holds, when
that is not every one: a rule that asserts what MindCluster's Volcano plugin or device plugin does says nothing on a
run judged for another stack (the engine does not run it there).

It holds ``CITATION``, what it mirrors upstream (:class:`~ascend_compile.catalogue.citations.Citation`).
ID, name, default severity, kinds, fix hint and the schema rules it replaces are its row in the rule
table (:mod:`ascend_compile.catalogue`; a cross-object rule replaces nothing): a rule lives in its row
and its module, nowhere else.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Tuple

from ..catalogue import Entry
from ..findings import ERROR, Path
from ..records import NamedTuple


class Problem(NamedTuple):
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
    #: the value ``lint --fix`` writes, when only the rule knows it (e.g. the hardware profile's label value)
    fix: Optional[str] = None


class Rule(NamedTuple):
    """A rule unit ready to run: its catalogue entry and its unit's ``check`` (or ``facts`` and ``judge``)."""

    entry: Entry
    check: Callable[[Any, Any], Iterable[Problem]]
    facts: Optional[Callable[[Any], Any]] = None
    judge: Optional[Callable[[Any, Any, Any], Iterable[Problem]]] = None
    #: the unit's ``fix`` (None when it fixes nothing): (finding, the file's text, its documents) -> Fix or None
    fix: Optional[Callable[[Any, str, Any], Any]] = None
    #: the unit's ``STACKS``: the device stacks it holds on (None: every one)
    stacks: Optional[Tuple[str, ...]] = None

    def holds_on(self, stack: str) -> bool:
        """Whether the rule judges a run for device stack ``stack``."""
        return self.stacks is None or stack in self.stacks

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

    @property
    def cross(self) -> bool:
        """Whether the rule looks at other objects of the run (it has ``facts`` and ``judge``)."""
        return self.judge is not None

    def crashed(self, exc: Exception) -> Problem:
        """The problem that says the rule raised: our bug (exit code 3), reported so the other findings still show."""
        return Problem((), f"internal error in rule {self.id} ({type(exc).__name__}: {exc}); "
                           "this is a bug in ascend-compile, please report it with the manifest",
                       hint="disable the rule with --disable until it is fixed", severity=ERROR)
