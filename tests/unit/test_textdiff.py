"""``ascend_compile.textdiff``: the unified diff that ``lint --diff`` builds from its fixes' spans and ``compile
--check`` from two files is difflib's, wherever the smallest diff is one.

Compared with ``difflib.unified_diff`` on random small texts and random edits of them (lines repeated or not,
every kind of line end :meth:`str.splitlines` knows, a last line without one, empty texts):

* every diff read back against the old text gives the new one;
* ``of_texts`` is always a smallest diff, and ``of_edits`` the smallest of those that leave each line no edit
  touched as it was (it shows a fix's change where the fix made it);
* where only one matching of lines is smallest, and difflib's diff and ours are that size, the two are the same
  bytes (headers, ``@@`` ranges, 3 lines of context, hunks merged across at most 6 equal lines).  Where several
  are smallest, or difflib's is not one of them (its longest-block-first search, or its "popular" lines), the
  two may differ; each is a correct diff.
"""
from __future__ import annotations

import difflib
from typing import List, Sequence, Tuple

import pytest

from ascend_compile.textdiff import of_edits, of_texts

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

Edit = Tuple[int, int, str]
LINES = ["a\n", "b\n", "c\n", "---\n", "  key: 1\n", "\n", "\r\n", "x\r", "y\x85", "z\u2028", "w"]
PIECES = ["a", "b", "\n", "\r", "\r\n", "  key: 1", "-", "x\r"]


@st.composite
def edited(draw: st.DrawFn, unique: bool) -> Tuple[str, List[Edit]]:
    """A text of up to 40 lines (each line unique, or drawn from a few) and up to 6 edits of it, apart (an
    insertion may be at the text's end)."""
    if unique:
        lines = [f"line{n} {draw(st.sampled_from('abc'))}\n" for n in range(draw(st.integers(0, 40)))]
    else:
        lines = draw(st.lists(st.sampled_from(LINES), max_size=40))
    before = "".join(lines)
    cuts = sorted(draw(st.lists(st.integers(0, len(before)), max_size=12, unique=True)))
    edits = []
    for start, end in zip(cuts[::2], cuts[1::2]):
        text = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=4)))
        at = draw(st.sampled_from([None, start, end]))  # a replacement, or an insertion at either cut
        edits.append((start, end, text) if at is None else (at, at, text))
    return before, edits


def _apply(before: str, edits: Sequence[Edit]) -> str:
    out, at = [], 0
    for start, end, text in edits:
        out += [before[at:start], text]
        at = end
    return "".join(out + [before[at:]])


def _range(text: str) -> Tuple[int, int]:
    """An ``@@`` range (``-3,4``, ``+5``, ``-0,0``) as the 0-based index of its first line and its length."""
    first, _, length = text[1:].partition(",")
    count = int(length) if length else 1
    return (int(first) if count == 0 else int(first) - 1), count


def _read_back(diff: str, a: Sequence[str], b: Sequence[str]) -> int:
    """The number of lines ``diff`` shows removed or added, after checking that it turns a into b: each hunk's
    lines are a's and b's in order (read by their own lengths: a line without a line end runs into the next),
    as many as its ``@@`` line says, from where it says."""
    if not diff:
        assert list(a) == list(b)
        return 0
    head = "--- x\n+++ y\n"
    assert diff.startswith(head)
    at, i, changed, out = len(head), 0, 0, []  # type: int, int, int, List[str]  # out: b as the diff builds it
    while at < len(diff):
        end = diff.index(" @@\n", at) + 4
        (start, length), (new_start, new_length) = (_range(part) for part in diff[at:end].split()[1:3])
        assert start >= i and new_start == len(out) + start - i
        out += a[i:start]
        i, at, hunk_a, hunk_b = start, end, 0, 0
        while at < len(diff) and not diff.startswith("@@ ", at):
            mark = diff[at]
            line = b[len(out)] if mark == "+" else a[i]
            assert mark in " -+" and diff.startswith(line, at + 1), (mark, line, diff[at:at + 40])
            at += 1 + len(line)
            if mark in " -":
                i, hunk_a = i + 1, hunk_a + 1
            if mark in " +":
                out.append(line)
                hunk_b += 1
            changed += mark != " "
        assert (hunk_a, hunk_b) == (length, new_length)
    assert out + list(a[i:]) == list(b)
    return changed


def _smallest(a: Sequence[str], b: Sequence[str]) -> Tuple[int, bool]:
    """The fewest lines a diff of a and b removes or adds, and whether one matching of lines alone makes it."""
    rows, cols = len(a), len(b)
    longest = [[0] * (cols + 1) for _ in range(rows + 1)]
    ways = [[1] * (cols + 1) for _ in range(rows + 1)]  # how many longest matchings (counted up to 2)
    for r in range(rows - 1, -1, -1):
        for c in range(cols - 1, -1, -1):
            here = longest[r + 1][c + 1] + 1 if a[r] == b[c] else max(longest[r + 1][c], longest[r][c + 1])
            longest[r][c] = here
            count = ways[r + 1][c + 1] if a[r] == b[c] and longest[r + 1][c + 1] + 1 == here else 0
            count += ways[r + 1][c] if longest[r + 1][c] == here else 0
            count += ways[r][c + 1] if longest[r][c + 1] == here else 0
            count -= ways[r + 1][c + 1] if longest[r + 1][c + 1] == here else 0
            ways[r][c] = min(count, 2)
    return rows + cols - 2 * longest[0][0], ways[0][0] == 1


def _untouched(before: str, edits: Sequence[Edit], b: Sequence[str]) -> List[Tuple[int, int]]:
    """(i, j): line i of before is line j of after, no edit having removed or put a character inside it."""
    shift, moved = [0] * (len(before) + 1), 0  # where each character of before went; -1: removed
    inside = [False] * (len(before) + 1)  # an edit puts text just before this character
    at = 0
    for start, end, text in edits:
        for p in range(at, start):
            shift[p] = p + moved
        for p in range(start, end):
            shift[p] = -1
        inside[start] = True
        moved += len(text) - (end - start)
        at = end
    for p in range(at, len(before) + 1):
        shift[p] = p + moved
    b_starts, offset = {}, 0
    for j, line in enumerate(b):
        b_starts[offset] = j
        offset += len(line)
    out, start = [], 0
    for i, line in enumerate(before.splitlines(keepends=True)):
        span = range(start, start + len(line))
        j = b_starts.get(shift[start])
        if all(shift[p] >= 0 for p in span) and not any(inside[p] for p in span[1:]) and j is not None \
                and len(b[j]) == len(line):
            out.append((i, j))
        start += len(line)
    return out


def _smallest_keeping(a: Sequence[str], b: Sequence[str], kept: Sequence[Tuple[int, int]]) -> int:
    """The fewest lines removed or added by a diff that keeps the pairs ``kept``."""
    total, i, j = 0, 0, 0
    for ki, kj in [*kept, (len(a), len(b))]:
        total += _smallest(a[i:ki], b[j:kj])[0]
        i, j = ki + 1, kj + 1
    return total


def _difflib(a: Sequence[str], b: Sequence[str]) -> str:
    return "".join(difflib.unified_diff(a, b, fromfile="x", tofile="y"))


def _lines(before: str, edits: Sequence[Edit]) -> Tuple[str, List[str], List[str]]:
    """The text after the edits, and the lines of before and after."""
    after = _apply(before, edits)
    return after, before.splitlines(keepends=True), after.splitlines(keepends=True)


@settings(max_examples=400)
@given(st.one_of(edited(unique=False), edited(unique=True)))
def test_of_edits_is_difflibs_diff_where_the_smallest_is_one(case: Tuple[str, List[Edit]]) -> None:
    before, edits = case
    after, a, b = _lines(before, edits)
    ours = of_edits(before, after, [(start, end, len(text)) for start, end, text in edits], "x", "y")
    changed = _read_back(ours, a, b)
    assert changed == _smallest_keeping(a, b, _untouched(before, edits, b))
    smallest, one = _smallest(a, b)
    theirs = _difflib(a, b)
    if one and changed == smallest and _read_back(theirs, a, b) == smallest:
        assert ours == theirs


@settings(max_examples=400)
@given(st.one_of(edited(unique=False), edited(unique=True)))
def test_of_texts_is_difflibs_diff_where_the_smallest_is_one(case: Tuple[str, List[Edit]]) -> None:
    before, edits = case
    after, a, b = _lines(before, edits)
    ours = of_texts(before, after, "x", "y")
    smallest, one = _smallest(a, b)
    assert _read_back(ours, a, b) == smallest
    theirs = _difflib(a, b)
    if one and _read_back(theirs, a, b) == smallest:
        assert ours == theirs


@settings(max_examples=30)
@given(st.integers(200, 1500), st.lists(st.tuples(st.integers(0, 1499), st.sampled_from(["", "changed\n", "x\ny\n"])),
                                      max_size=40))
def test_a_long_text_of_unique_lines_is_diffed_as_difflib_does(length: int, changes: List[Tuple[int, str]]) -> None:
    """Past the stretch matched by the shortest edit script: matched by its lines found once in each."""
    lines = [f"line {n}\n" for n in range(length)]
    after = list(lines)
    for at, text in sorted(set(changes), reverse=True):
        if at < len(after):
            after[at:at + 1] = [f"{text.rstrip()} {at}\n"] if text else []
    text = "".join(after)
    assert of_texts("".join(lines), text, "x", "y") == _difflib(lines, text.splitlines(keepends=True))


@pytest.mark.parametrize("apart", range(4, 10))
def test_hunks_merge_across_at_most_6_equal_lines(apart: int) -> None:
    before = "".join(f"{n}\n" for n in range(30))
    edits = [(before.index("10\n"), before.index("10\n") + 2, "ten"),
             (before.index(f"{10 + apart}\n"), before.index(f"{10 + apart}\n"), "new\n")]
    after = _apply(before, edits)
    ours = of_edits(before, after, [(start, end, len(text)) for start, end, text in edits], "x", "y")
    assert ours == _difflib(before.splitlines(keepends=True), after.splitlines(keepends=True))
    assert ours.count("@@ -") == (1 if apart <= 7 else 2)


@pytest.mark.parametrize("before, after", [("", ""), ("a\n", "a\n"), ("", "a\nb\n"), ("a\nb\n", ""), ("a", "b"),
                                           ("a\nb", "a\nc"), ("a\r\nb\r\n", "a\nb\r\n"), ("x\ry\n", "x\ny\n")])
def test_edge_texts_are_diffed_as_difflib_does(before: str, after: str) -> None:
    assert of_texts(before, after, "x", "y") == _difflib(before.splitlines(keepends=True),
                                                         after.splitlines(keepends=True))


@pytest.mark.parametrize("before, edit", [("a\nw", (3, 3, "x\n")), ("a\nx\r", (4, 4, "\ny\n")),
                                         ("a\r\nb\n", (1, 2, "")), ("a\nb\n", (0, 0, "")), ("a\n", (0, 2, "a\n")),
                                         ("a\nb\nc\n", (1, 3, "\nb\nd")), ("a\r\n", (2, 2, "b"))])
def test_edits_at_line_ends_are_diffed_as_difflib_does(before: str, edit: Edit) -> None:
    """An edit next to a line keeps it only if the line is still a line after it, to its end."""
    after = _apply(before, [edit])
    ours = of_edits(before, after, [(edit[0], edit[1], len(edit[2]))], "x", "y")
    assert ours == _difflib(before.splitlines(keepends=True), after.splitlines(keepends=True))
