"""What linting one file gives: everything that depends on that file alone, ready to be merged into the run.

A :class:`FileResult` is made where the file is read (in this process or a worker), travels to the
process that finishes the run, and is what the result cache stores.  Its findings are final (located,
suppressed, configured); cross-object rules add theirs once every file's result is in, from the
``facts`` and ``refs`` here and the comment ``directives`` that may suppress them.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..findings import Finding
from .index import ObjectRef

#: (rule id, the index of its object in ``refs``, what the rule's ``facts`` said)
Fact = Tuple[str, int, Any]
#: What checks the job specs among one file's documents (None for a bare object) as ``compile`` does (lint has
#: no compiler: the caller gives it): the findings about each spec, by its position; a spec gets no schema check
#: of lint's own (compile's checks include it)
SpecCheck = Callable[[Sequence[Any]], Dict[int, List[Finding]]]


class FileResult:
    """One file's findings, the refs of its objects, and what cross-object rules need to judge them."""

    __slots__ = ("source", "findings", "refs", "facts", "directives", "digest")

    def __init__(self, source: str, findings: List[Finding], refs: List[ObjectRef], facts: List[Fact],
                 directives: Any = None, digest: str = ""):
        self.source = source
        self.findings = findings
        self.refs = refs
        self.facts = facts
        self.directives = directives  # suppress.FileDirectives when facts may lead to findings, else None
        self.digest = digest  # of the text the result was made from ("" when not known)

    def __reduce__(self) -> Tuple[Any, ...]:  # a worker sends one per file: rebuilt by one call
        return FileResult, (self.source, self.findings, self.refs, self.facts, self.directives, self.digest)


def input_errors(source: str, findings: List[Finding], partial: Optional[FileResult] = None) -> FileResult:
    """A file that could not be read (to the end): its input errors, after what was read before them."""
    if partial is None:
        return FileResult(source, list(findings), [], [])
    partial.findings = partial.findings + list(findings)
    return partial
