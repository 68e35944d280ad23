"""Suppressing findings: comments in the YAML, and an annotation on the object; and applying them.

Comment directives (any YAML file):

``# ascend-compile: disable=AC301,AC305 optional reason``
    At the end of a line: suppresses those rules on that line.  On a line of
    its own: suppresses them on the next line that is not blank or a comment
    (so it may sit directly above the offending line).  A finding's line is the
    line ``lint`` prints for it.
``# ascend-compile: disable-file=AC301``
    Anywhere in the file: suppresses those rules in the whole file.

Rule names work as well as IDs (``disable=npu-count``); ``all`` matches every
rule.  Input errors (AC001-AC006) cannot be suppressed: the file was not read; a directive
naming one is reported (AC012).

Annotation (survives a round trip through the cluster, where comments are lost)::

    metadata:
      annotations:
        ascend-compile.io/ignore: "AC303: 4 NPUs per pod on purpose; AC305: old cluster"

suppresses those rules for findings about that object.  Every entry needs a
reason after the colon; an entry without one is not honoured and is itself
reported (AC012), as are unknown rule IDs in any suppression.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

from .. import catalogue
from ..catalogue import BAD_SUPPRESSION
from ..findings import Finding
from ..records import NamedTuple
from .locate import locate

if TYPE_CHECKING:
    from .context import ObjectContext

IGNORE_ANNOTATION = "ascend-compile.io/ignore"
ALL = "all"

#: patterns compiled on first use (by re's own cache): most files have no directive and no ignore annotation
_DIRECTIVE = r"#\s*ascend-compile:\s*(disable-file|disable)\s*=\s*([A-Za-z0-9\-]+(?:\s*,\s*[A-Za-z0-9\-]+)*)"
_ID_OR_NAME = r"^[A-Za-z][A-Za-z0-9\-]*$"


class BadDirective(NamedTuple):
    line: int
    column: int
    message: str
    hint: str = "list the rules with 'ascend-compile rules'"


class FileDirectives:
    """The directives of one file: rules suppressed on a line, in the whole file, and the bad directives."""

    __slots__ = ("lines", "whole_file", "problems")

    def __init__(self, lines: Optional[Dict[int, Set[str]]] = None, whole_file: Optional[Set[str]] = None,
                 problems: Optional[List[BadDirective]] = None):
        self.lines: Dict[int, Set[str]] = {} if lines is None else lines
        self.whole_file: Set[str] = set() if whole_file is None else whole_file
        self.problems: List[BadDirective] = [] if problems is None else problems

    def __getstate__(self) -> Tuple[Any, ...]:
        return self.lines, self.whole_file, self.problems

    def __setstate__(self, state: Tuple[Any, ...]) -> None:
        self.lines, self.whole_file, self.problems = state

    def suppresses(self, rule: str, line: int) -> bool:
        if rule in self.whole_file or ALL in self.whole_file:
            return True
        ids = self.lines.get(line)
        return ids is not None and (rule in ids or ALL in ids)


def _split_ids(text: str) -> List[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def file_directives(source: str, text: Optional[str], resolve: Callable[[str], Optional[str]]) -> FileDirectives:
    """The directives of a file: in ``text``, else in the file ``source`` names (none if it cannot be read)."""
    return parse_comments(_read_quietly(source) if text is None else text, resolve)


def _read_quietly(source: str) -> str:
    """The text of ``source`` as every read of a linted file gets it (a regular file once links are followed, at
    most the default input size); "" when there is none or it is refused."""
    from ..errors import InputError
    from ..yamlio.common import DEFAULT_MAX_BYTES, STDIN
    from ..yamlio.reading import read_text

    if not source or source.startswith("<") or source == STDIN:
        return ""
    try:
        return read_text(source, DEFAULT_MAX_BYTES)
    except InputError:
        return ""


def parse_comments(text: str, resolve: Callable[[str], Optional[str]]) -> FileDirectives:
    """Find the directives in ``text``; ``resolve`` maps an ID or name to a rule ID (None if unknown)."""
    out = FileDirectives()
    if "ascend-compile:" not in text:
        return out
    pending_ids: Set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        match = re.search(_DIRECTIVE, line) if "ascend-compile:" in line else None
        comment_only = stripped.startswith("#")
        if match is None:
            if stripped and not comment_only and pending_ids:
                out.lines.setdefault(number, set()).update(pending_ids)
                pending_ids = set()
            continue
        ids: Set[str] = set()
        for token in _split_ids(match.group(2)):
            if token.lower() == ALL:
                ids.add(ALL)
                continue
            rule = resolve(token) if re.match(_ID_OR_NAME, token) else None
            why = why_not_suppressible(rule) if rule is not None else ""
            if rule is None:
                out.problems.append(BadDirective(number, match.start() + 1,
                                                 f"unknown rule {token!r} in an ascend-compile directive"))
            elif why:
                out.problems.append(BadDirective(number, match.start() + 1,
                                                 f"{rule} cannot be suppressed ({why}), so this directive does "
                                                 "nothing for it", f"remove {token} from the directive"))
            else:
                ids.add(rule)
        if match.group(1) == "disable-file":
            out.whole_file.update(ids)
        elif comment_only:
            pending_ids.update(ids)
        else:
            out.lines.setdefault(number, set()).update(ids)
    return out


def why_not_suppressible(rule: str) -> str:
    """Why no comment or annotation silences ``rule`` ("" when one can)."""
    from ..catalogue import DISCOVERY, get

    entry = get(rule)
    if entry is None:
        return ""
    if entry.origin == DISCOVERY and entry.suppressible:
        return "a note on a file that is not linted: silence it with --disable or lint.disable"
    return entry.why_not_suppressible


class AnnotationEntry(NamedTuple):
    rule: Optional[str]
    token: str
    reason: str


def parse_annotation(value: str, resolve: Callable[[str], Optional[str]]) -> List[AnnotationEntry]:
    """``"AC301: reason; AC305: reason"`` into entries (rule None when unknown)."""
    entries: List[AnnotationEntry] = []
    for part in value.split(";"):
        part = part.strip()
        if not part:
            continue
        token, _, reason = part.partition(":")
        token = token.strip()
        entries.append(AnnotationEntry(resolve(token) if re.match(_ID_OR_NAME, token) else None, token,
                                       reason.strip()))
    return entries


def rules_in(entries: Iterable[AnnotationEntry]) -> Set[str]:
    return {e.rule for e in entries if e.rule and e.reason}


# ---------------------------------------------------------------------- applying them to a file's findings
def annotation_problems(obj: ObjectContext) -> List[Finding]:
    """The AC012 findings of ``obj``'s ignore annotation: not a string, an unknown rule, no reason, a rule that no
    annotation silences."""
    value = obj.annotations.get(IGNORE_ANNOTATION)
    if value is None:
        return []
    path = obj.prefix + ("metadata", "annotations", IGNORE_ANNOTATION)
    file, line, column = locate(obj.doc, path, False)
    out = []

    def bad(message: str, hint: str) -> None:
        out.append(Finding(BAD_SUPPRESSION, catalogue.severity(BAD_SUPPRESSION), message, path, hint,
                           file or obj.source, line, column, obj=obj.describe(), api_version=obj.api_version))

    if not isinstance(value, str):
        bad(f"the {IGNORE_ANNOTATION} annotation must be a string", 'e.g. "AC303: reason"')
        return out
    for entry in parse_annotation(value, catalogue.resolve):
        if entry.rule is None:
            bad(f"unknown rule {entry.token!r} in the {IGNORE_ANNOTATION} annotation",
                "list the rules with 'ascend-compile rules'")
        elif not entry.reason:
            bad(f"the {IGNORE_ANNOTATION} entry for {entry.rule} has no reason, so it is not honoured",
                f'write it as "{entry.rule}: why this is fine"')
        elif why_not_suppressible(entry.rule):
            bad(f"{entry.rule} cannot be suppressed ({why_not_suppressible(entry.rule)}), so the "
                f"{IGNORE_ANNOTATION} entry does nothing for it", "remove the entry")
    return out


def drop_suppressed(pairs: List[Tuple[Finding, Optional[ObjectContext]]], directives: Optional[FileDirectives],
                    source: str) -> List[Finding]:
    """The findings of one file (each with the object it is about, when there is one) less those its comment
    directives or their object's annotation suppress, with the directives' own problems (AC012) added."""
    if directives is not None:
        for problem in directives.problems:
            pairs.append((Finding(BAD_SUPPRESSION, catalogue.severity(BAD_SUPPRESSION), problem.message, (),
                                  problem.hint, source, problem.line, problem.column), None))
    annotated: Dict[int, FrozenSet[str]] = {}  # by object: most files have many findings about few objects
    out: List[Finding] = []
    for finding, obj in pairs:
        ignored: FrozenSet[str] = frozenset()
        if obj is not None and finding.rule != BAD_SUPPRESSION:
            key = id(obj)
            if key not in annotated:
                annotated[key] = ignored_by(obj)
            ignored = annotated[key]
        if not suppressed(finding, directives if finding.file == source else None, ignored):
            out.append(finding)
    return out


def ignored_by(obj: ObjectContext) -> FrozenSet[str]:
    """The rules ``obj``'s ignore annotation silences (the entries with a reason)."""
    value = obj.annotations.get(IGNORE_ANNOTATION)
    if not isinstance(value, str):
        return frozenset()
    return frozenset(rules_in(parse_annotation(value, catalogue.resolve)))


def suppressed(finding: Finding, directives: Optional[FileDirectives], ignored: FrozenSet[str]) -> bool:
    """Whether a comment directive of its file or its object's annotation (``ignored``) silences ``finding``."""
    if not catalogue.silenceable(finding):
        return False
    if directives is not None and directives.suppresses(finding.rule, finding.line):
        return True
    return finding.rule != BAD_SUPPRESSION and (finding.rule in ignored or ALL in ignored)
