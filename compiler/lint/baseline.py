"""``lint --write-baseline FILE`` / ``lint --baseline FILE``: accept the findings a legacy repository has today,
report only new ones.

A finding is known by its identity, not its place: the rule, the file (relative to the working directory),
the object (kind, namespace, name) and the field path.  Lines are not part of it, so an edit elsewhere in
the file (a comment, another object, reformatting) keeps every entry matched; renaming the object or
moving the field makes the finding new, as it should.  A finding without a field path (a whole-document
problem) is also known by its message.  Input errors (unreadable files) are never baselined.

The baseline file is JSON, sorted and readable in review: one entry per identity, with a ``count`` when
the same identity occurs more than once (matched as a multiset) and the message for the reader.  An
entry that matches nothing any more is *stale*: the finding was fixed, or its object renamed; it is
counted, and ``--write-baseline`` again drops it.
"""
from __future__ import annotations

import json
import os
from typing import Any, Dict, List, Sequence, Tuple

from ..findings import Finding

VERSION = 1
Key = Tuple[str, str, str, str]


class BaselineError(ValueError):
    """The baseline file cannot be read or is not a baseline: the message says which and how to fix it."""


def _file(path: str) -> str:
    """The file relative to the working directory when it is below it (``./a.yaml``, ``/abs/a.yaml`` -> ``a.yaml``)."""
    if path.startswith("<"):  # <stdin>
        return path
    if os.path.isabs(path):
        relative = os.path.relpath(path)
        if not relative.startswith(".."):
            path = relative
    return os.path.normpath(path).replace(os.sep, "/")


def key(finding: Finding) -> Key:
    """What a finding is, for the baseline: rule, file, object, field path (or message, without one)."""
    return (finding.rule, _file(finding.file), finding.obj, finding.field_path or "message: " + finding.message)


def entries(findings: Sequence[Finding]) -> List[Dict[str, Any]]:
    counts: Dict[Key, int] = {}
    messages: Dict[Key, str] = {}
    for finding in findings:
        if finding.input_error:
            continue
        k = key(finding)
        counts[k] = counts.get(k, 0) + 1
        messages.setdefault(k, finding.message)
    out = []
    for k in sorted(counts):
        entry: Dict[str, Any] = {"rule": k[0], "file": k[1], "object": k[2], "path": k[3]}
        if counts[k] > 1:
            entry["count"] = counts[k]
        entry["message"] = messages[k]
        out.append(entry)
    return out


def dumps(findings: Sequence[Finding]) -> str:
    listed = entries(findings)
    return json.dumps({"ascendCompileBaseline": VERSION, "findings": listed}, indent=2, ensure_ascii=False) + "\n"


def write(path: str, findings: Sequence[Finding]) -> int:
    """Write the baseline of ``findings`` to ``path`` (atomically, never through a link); return the number
    of findings in it.  Raises :class:`~ascend_compile.errors.InputError` (AC013) when it cannot be written."""
    from ..safewrite import write_file

    write_file(path, dumps(findings))
    return sum(1 for f in findings if not f.input_error)


def load(path: str, max_bytes: int = 0) -> Dict[Key, int]:
    """The identities a baseline file accepts, with how many of each.  The file is read as any named
    file is: a regular file (a link to ``/dev/zero`` or a FIFO is refused), at most ``max_bytes`` (0: the
    default input limit)."""
    from ..errors import InputError
    from ..yamlio import DEFAULT_MAX_BYTES, read_text

    if not os.path.lexists(path):
        raise BaselineError(f"baseline {path} does not exist; create it with --write-baseline {path}")
    try:
        data = json.loads(read_text(path, max_bytes or DEFAULT_MAX_BYTES, regular_only=True))
    except InputError as exc:
        problem = exc.findings[0]
        raise BaselineError(f"cannot read the baseline {path}: it {problem.message}"
                            + (f" ({problem.hint})" if problem.hint else "")) from None
    except ValueError as exc:
        raise BaselineError(f"baseline {path} is not JSON ({exc}); write it again with --write-baseline") from None
    if not isinstance(data, dict) or data.get("ascendCompileBaseline") != VERSION \
            or not isinstance(data.get("findings"), list):
        raise BaselineError(f"{path} is not an ascend-compile baseline (version {VERSION}); "
                            f"write it with --write-baseline {path}")
    accepted: Dict[Key, int] = {}
    for index, entry in enumerate(data["findings"]):
        fields = [entry.get(name) if isinstance(entry, dict) else None for name in ("rule", "file", "object", "path")]
        count = entry.get("count", 1) if isinstance(entry, dict) else None
        if not all(isinstance(v, str) for v in fields) or not isinstance(count, int) or count < 1:
            raise BaselineError(f"baseline {path}: findings[{index}] needs rule, file, object and path (strings) "
                                "and a count of at least 1; write it again with --write-baseline")
        k = (str(fields[0]), str(fields[1]), str(fields[2]), str(fields[3]))
        accepted[k] = accepted.get(k, 0) + count
    return accepted


class Split:
    """Findings split by a baseline: the new ones, the baselined ones, and how many entries are stale."""

    def __init__(self, new: List[Finding], baselined: List[Finding], stale: int):
        self.new, self.baselined, self.stale = new, baselined, stale


def split(findings: Sequence[Finding], accepted: Dict[Key, int]) -> Split:
    left = dict(accepted)
    new: List[Finding] = []
    baselined: List[Finding] = []
    for finding in sorted(findings, key=Finding.sort_key):
        k = key(finding)
        if not finding.input_error and left.get(k, 0) > 0:
            left[k] -= 1
            baselined.append(finding)
        else:
            new.append(finding)
    return Split(new, baselined, sum(left.values()))
