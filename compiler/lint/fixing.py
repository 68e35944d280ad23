"""What a ``lint --fix`` fix is, where it applies, and the one fix of a finding that has no rule unit.

A rule unit that can fix its findings defines ``fix(finding, text, docs)`` (``lint/rules/<name>.py``; see
:mod:`.rule`): it returns a :class:`Fix`, an edit at one node of the finding's object, and the
:class:`Change` that edit makes to the data, or None when the fix is not certain.  The schema check's
wrong-type finding (AC102) has no unit, so its fix is here: :func:`quote_as_string`.
"""
from __future__ import annotations

import bisect
import json
from typing import Any, Callable, List, Optional, Sequence, Tuple

from . import yamledit
from ..catalogue import WRONG_TYPE
from ..findings import FIX_VALUE, Finding, Path
from ..records import NamedTuple
from ..yamlio.locations import child


class Change(NamedTuple):
    """What a fix does to the data: in document ``doc``, the field at ``path`` becomes ``value`` (a missing
    mapping on the way is created; a list index one past the end appends)."""

    doc: int
    path: Path
    value: Any


class Fix:
    """Replace ``text[start:end]`` by ``text`` (an insertion when start == end), for ``finding``."""

    def __init__(self, finding: Finding, start: int, end: int, text: str, description: str, change: Change):
        self.finding, self.start, self.end, self.text = finding, start, end, text
        self.description, self.change = description, change


_SCALAR_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool",
                "tag:yaml.org,2002:null")
_WANTS_STRING = "expected a string"


def locate(finding: Finding, docs: Sequence[Any]) -> Optional[Tuple[int, Any]]:
    """The document and the node of the finding: the one at the finding's line and column (value or key)."""
    where = (finding.line, finding.column)
    for index in _around(docs, finding.line - 1):
        if finding.path:
            node, key = child(yamledit.walk(docs[index], finding.path[:-1]), finding.path[-1])
        else:
            node, key = docs[index], None
        if any(n is not None and (n.start_mark.line + 1, n.start_mark.column + 1) == where for n in (node, key)):
            return index, node
    return None


def _around(docs: Sequence[Any], line: int) -> List[int]:
    """The indices of the documents whose text spans ``line`` (0-based), in order: found by halving, as a
    stream of thousands of documents with a finding each cost documents x findings."""
    last = bisect.bisect_right(docs, line, key=lambda doc: int(doc.start_mark.line)) - 1
    first = last
    while first > 0 and docs[first - 1].end_mark.line >= line:  # documents end in order, as they start
        first -= 1
    return list(range(first, last + 1)) if last >= 0 else []


def value(finding: Finding) -> Optional[str]:
    return dict(finding.extra).get(FIX_VALUE)


def quote_as_string(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    """A plain scalar where the schema wants a string (``value: 600``, a label ``version: 1.10``): the text as
    written, double-quoted, so the string is exactly what the user typed (``"1.10"``, not the float's ``1.1``)."""
    found = locate(finding, docs) if _WANTS_STRING in finding.message and finding.path else None
    if found is None:
        return None
    doc, node = found
    as_written = yamledit.written(text, node)
    if as_written is None or node.style not in (None, "") or node.tag not in _SCALAR_TAGS:
        return None
    quoted = json.dumps(as_written)
    return Fix(finding, node.start_mark.index, node.end_mark.index, quoted,
               f"quote the value as a string: {quoted}", Change(doc, finding.path, as_written))


#: a fix: (finding, the file's text, its composed documents) -> the fix, or None when it is not certain
Fixer = Callable[[Finding, str, Sequence[Any]], Optional[Fix]]


def fixer(rule_id: str) -> Optional[Fixer]:
    """The fix of ``rule_id``'s findings: its rule unit's ``fix`` (the unit is imported), :func:`quote_as_string`
    for the schema check's wrong type; None for a rule that has none."""
    if rule_id == WRONG_TYPE:
        return quote_as_string
    from . import registry

    rule = registry.get(rule_id)
    return rule.fix if rule is not None else None

