"""Unified diffs of text, in time linear in the text (``lint --diff``, ``compile --check``, ``diff`` of a new object).

:func:`difflib.unified_diff` matches lines by searching the whole file for its longest matching block again
for every block it finds, so a file with many small changes costs changes x lines: ``lint --diff`` of a stream
of 5,000 small ConfigMaps, one fix each, took 37 s of CPU, and ``compile --check`` of a 20,000-line output
with 10,000 changed lines 18 s.  Here the lines that match are found without that search:

* :func:`of_edits` knows where the text was changed (the spans ``lint --fix`` replaced): every line no edit
  touched, and still a whole line after the edits, is matched with itself, in one pass; only the few lines
  between two such are compared, as below;
* :func:`of_texts` compares two whole files, and of_edits those few lines: the lines a stretch starts and
  ends with alike are matched; the rest of a small stretch (at most SMALL_STRETCH line pairs) by a longest
  common subsequence, so the diff is a smallest one; of a larger one, by the lines found once on each side,
  in order (patience: the longest run of them whose places ascend on both), and again inside each stretch
  between two of those.  The work is capped at WORK_PER_LINE per line of the two texts (a text made to
  defeat the search costs no more); a stretch left when it runs out, or a large one with no line found once
  on each side, is shown as replaced.

The text printed is what ``difflib.unified_diff`` prints for the same matching (headers ``---``/``+++``, 3
lines of context, hunks at most 6 equal lines apart merged, the same ``@@`` ranges, lines split as
:meth:`str.splitlines` splits them, a last line without its line end printed as it is, so it runs into the
next one, as difflib's does).  The matching is difflib's wherever only one matching is smallest and difflib
finds it (tests/unit/test_textdiff.py).  Intentional differences: where several matchings are smallest, the
two may pick different ones (of_edits shows a fix's change on the lines the fix changed, even where a smaller
diff would pair a line it left alone with another); where difflib's is not smallest (its longest-block-first
search, or lines it leaves unmatched as "popular", in over 1% of a long file), ours is.
"""
from __future__ import annotations

import bisect
from typing import Dict, Iterator, List, Sequence, Tuple

__all__ = ["of_edits", "of_texts"]

#: (tag, i1, i2, j1, j2) as difflib's opcodes: lines a[i1:i2] are equal to, replaced by, deleted from or
#: inserted as b[j1:j2]
Opcode = Tuple[str, int, int, int, int]
#: (start, end, length): ``before[start:end]`` was replaced by ``length`` characters
Span = Tuple[int, int, int]

CONTEXT = 3  # lines of context around a change, as diff -u and difflib
#: the work of matching lines, in lines visited and line pairs compared, per line of the two texts
WORK_PER_LINE = 16
#: a stretch of at most this many line pairs (lines before x lines after) is matched by the shortest edit script
SMALL_STRETCH = 4096


def of_edits(before: str, after: str, spans: Sequence[Span], fromfile: str, tofile: str) -> str:
    """The unified diff of ``before`` and ``after``, which is ``before`` with ``spans`` replaced (sorted by start,
    none overlapping another)."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    untouched = list(_untouched(a, b, spans))
    between = zip([(-1, -1)] + untouched, untouched + [(len(a), len(b))])
    stretches = [(i1 + 1, i2, j1 + 1, j2) for (i1, j1), (i2, j2) in between if i1 + 1 < i2 or j1 + 1 < j2]
    return _unified(a, b, _opcodes(a, b, sorted(untouched + _Matcher(a, b).pairs(stretches))), fromfile, tofile)


def of_texts(before: str, after: str, fromfile: str, tofile: str) -> str:
    """The unified diff of two texts ("" when they are equal)."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    return _unified(a, b, _opcodes(a, b, _Matcher(a, b).pairs([(0, len(a), 0, len(b))])), fromfile, tofile)


def _untouched(a: Sequence[str], b: Sequence[str], spans: Sequence[Span]) -> Iterator[Tuple[int, int]]:
    """(i, j): line a[i] is line b[j], no edit having touched it (the line is where the text before it, as
    edited, ends; and ends where it did)."""
    b_at: Dict[int, int] = {}
    offset = 0
    for j, line in enumerate(b):
        b_at[offset] = j
        offset += len(line)
    start, k, moved = 0, 0, 0  # a[i] starts at ``start``; spans[:k] end by then and move it by ``moved``
    for i, line in enumerate(a):
        end = start + len(line)
        while k < len(spans) and spans[k][1] <= start:
            moved += spans[k][2] - (spans[k][1] - spans[k][0])
            k += 1
        if k == len(spans) or spans[k][0] >= end:  # no edit inside the line
            same = b_at.get(start + moved)
            if same is not None and len(b[same]) == len(line):
                yield i, same
        start = end


def _opcodes(a: Sequence[str], b: Sequence[str], pairs: Sequence[Tuple[int, int]]) -> List[Opcode]:
    """difflib's opcodes for matched lines ``pairs`` (ascending in both)."""
    out: List[Opcode] = []
    i = j = 0
    for pi, pj in [*pairs, (len(a), len(b))]:
        if i < pi or j < pj:
            out.append(("replace" if i < pi and j < pj else "delete" if i < pi else "insert", i, pi, j, pj))
        if pi < len(a) and out and out[-1][0] == "equal":  # the line after an equal one
            out[-1] = ("equal", out[-1][1], pi + 1, out[-1][3], pj + 1)
        elif pi < len(a):
            out.append(("equal", pi, pi + 1, pj, pj + 1))
        i, j = pi + 1, pj + 1
    return out


class _Matcher:
    """Lines of ``a`` matched with lines of ``b`` (see the module's docstring), within a budget of work."""

    def __init__(self, a: Sequence[str], b: Sequence[str]):
        self.a, self.b = a, b
        self.budget = WORK_PER_LINE * (len(a) + len(b)) + SMALL_STRETCH

    def pairs(self, stretches: Sequence[Tuple[int, int, int, int]]) -> List[Tuple[int, int]]:
        """(i, j) for each line a[i] matched with b[j] in the stretches a[alo:ahi], b[blo:bhi] given."""
        out: List[Tuple[int, int]] = []
        todo = list(stretches)
        while todo:
            todo += self._split(*todo.pop(), out)
        return sorted(out)

    def _split(self, alo: int, ahi: int, blo: int, bhi: int,
               out: List[Tuple[int, int]]) -> List[Tuple[int, int, int, int]]:
        """The pairs matched in a stretch added to ``out``; the smaller stretches left between them."""
        a, b = self.a, self.b
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            out.append((alo, blo))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi, bhi = ahi - 1, bhi - 1
            out.append((ahi, bhi))
        if alo == ahi or blo == bhi:
            return []
        if (ahi - alo) * (bhi - blo) <= min(SMALL_STRETCH, self.budget):
            out += self._shortest(alo, ahi, blo, bhi)
            return []
        if self.budget <= 0:
            return []
        self.budget -= (ahi - alo) + (bhi - blo)
        anchors = _unique_in_order(a, b, alo, ahi, blo, bhi)
        out += anchors
        starts = [(alo, blo)] + [(i + 1, j + 1) for i, j in anchors]
        ends = anchors + [(ahi, bhi)]
        return [(i1, i2, j1, j2) for (i1, j1), (i2, j2) in zip(starts, ends)] if anchors else []

    def _shortest(self, alo: int, ahi: int, blo: int, bhi: int) -> List[Tuple[int, int]]:
        """The pairs of a longest common subsequence of a small stretch: the shortest edit script."""
        rows, cols = ahi - alo, bhi - blo
        self.budget -= rows * cols
        a, b = self.a, self.b
        longest = [[0] * (cols + 1) for _ in range(rows + 1)]  # longest[r][c]: of a[alo+r:ahi], b[blo+c:bhi]
        for r in range(rows - 1, -1, -1):
            for c in range(cols - 1, -1, -1):
                longest[r][c] = (longest[r + 1][c + 1] + 1 if a[alo + r] == b[blo + c]
                                 else max(longest[r + 1][c], longest[r][c + 1]))
        out, r, c = [], 0, 0
        while r < rows and c < cols:
            if a[alo + r] == b[blo + c]:
                out.append((alo + r, blo + c))
                r, c = r + 1, c + 1
            elif longest[r + 1][c] >= longest[r][c + 1]:
                r += 1
            else:
                c += 1
        return out


def _unique_in_order(a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int,
                     bhi: int) -> List[Tuple[int, int]]:
    """The lines found once in a[alo:ahi] and once in b[blo:bhi], as (i, j): the longest run of them whose j
    ascend with i (patience sorting)."""
    count: Dict[str, int] = {}
    for line in a[alo:ahi]:
        count[line] = count.get(line, 0) + 1
    in_b: Dict[str, int] = {}
    for j in range(blo, bhi):
        if count.get(b[j]) == 1:
            in_b[b[j]] = -1 if b[j] in in_b else j
    found = [(i, in_b[a[i]]) for i in range(alo, ahi) if in_b.get(a[i], -1) >= 0]
    tops: List[int] = []  # tops[k]: the least j ending a run of k + 1
    ends: List[int] = []  # index into found of that run's last pair
    back: List[int] = []  # for each pair of found, the index of the pair before it in its run
    for index, (_i, j) in enumerate(found):
        k = bisect.bisect_left(tops, j)
        back.append(ends[k - 1] if k else -1)
        if k == len(tops):
            tops.append(j)
            ends.append(index)
        else:
            tops[k], ends[k] = j, index
    run, at = [], ends[-1] if ends else -1
    while at >= 0:
        run.append(found[at])
        at = back[at]
    return run[::-1]


def _unified(a: Sequence[str], b: Sequence[str], opcodes: Sequence[Opcode], fromfile: str, tofile: str) -> str:
    """The unified diff of the opcodes ("" when all are equal)."""
    hunks = list(_hunks(opcodes))
    if not hunks:
        return ""
    out = [f"--- {fromfile}\n", f"+++ {tofile}\n"]
    for hunk in hunks:
        (_, i1, _, j1, _), (_, _, i2, _, j2) = hunk[0], hunk[-1]
        out.append(f"@@ -{_range(i1, i2)} +{_range(j1, j2)} @@\n")
        for tag, k1, k2, l1, l2 in hunk:
            if tag == "equal":
                out += [" " + line for line in a[k1:k2]]
                continue
            out += ["-" + line for line in a[k1:k2]]
            out += ["+" + line for line in b[l1:l2]]
    return "".join(out)


def _hunks(opcodes: Sequence[Opcode]) -> Iterator[List[Opcode]]:
    """The opcodes in hunks: each change with up to CONTEXT equal lines around it, two changes at most
    2 x CONTEXT equal lines apart in one hunk."""
    hunk: List[Opcode] = []  # the hunk being made (or the context before its first change)
    for number, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        if tag != "equal":
            hunk.append((tag, i1, i2, j1, j2))
            continue
        last = number == len(opcodes) - 1
        before_next = (tag, max(i1, i2 - CONTEXT), i2, max(j1, j2 - CONTEXT), j2)
        if number == 0:
            hunk = [before_next]
        elif last or i2 - i1 > 2 * CONTEXT:  # the hunk ends in this stretch
            hunk.append((tag, i1, min(i2, i1 + CONTEXT), j1, min(j2, j1 + CONTEXT)))
            yield hunk
            hunk = [] if last else [before_next]
        else:
            hunk.append((tag, i1, i2, j1, j2))
    if any(tag != "equal" for tag, *_ in hunk):
        yield hunk


def _range(start: int, stop: int) -> str:
    """A hunk's line range as ``@@`` shows it: the first line (1-based) and the count, the count left out
    when it is 1; an empty range is named by the line before it."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start if not length else start + 1},{length}"
