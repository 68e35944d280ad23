"""The fastest path of parsing: plain block-style YAML read line by line, without libyaml.

Manifests as tools write them (``kubectl``, Helm, kustomize, ``ascend-compile compile``) are block
mappings and sequences of one-line scalars: ``key: value``, ``- item``, ``- key: value``, ``key:``
followed by a more indented block (or by ``- item`` lines at the key's own indent), ``{}`` and ``[]``.
This module reads exactly that shape, one line at a time, and gives up (returns None, so
:mod:`.fastload` reads the stream instead) on anything else:

* a tab, a carriage return, a line break other than ``\\n``, a control character, a byte order mark;
* a directive (``%``), a document end (``...``), content after ``---``;
* a quoted key, a key that does not resolve to a string, a repeated key, a merge or value key, a key of more
  than 1000 characters (YAML allows an implicit key 1024 at most);
* a scalar that spans lines (a continuation line, a block scalar ``|``/``>``, an unclosed quote),
  a double-quoted scalar with an escape, a flow collection other than ``{}`` and ``[]``;
* an anchor, an alias or a tag (``&``, ``*``, ``!`` first), any other indicator a plain scalar
  cannot start with, ``: `` inside a plain scalar or ``:`` at its end;
* a line whose indentation matches no open collection, a scalar as a document's root;
* nesting deeper than :data:`~.common.MAX_DEPTH`.

In that shape every line is one entry, its indentation says which collection it belongs to, and a
one-line scalar's value is its text (quotes removed, ``''`` unescaped; plain ones resolved with the
loader's own implicit resolvers and constructors, see :mod:`.scalars`), so the data equals the
careful loader's: the tests compare them on every input the suite has, and on random YAML.
Documents are the text between ``---`` lines; each gives :data:`~.fastload.Built`, where it starts and
ends, so that :mod:`.locations` composes its nodes only when a finding needs a line and column.
"""
from __future__ import annotations

import gc
import re
from typing import Any, Dict, List, Optional, Tuple

from .common import MAX_DEPTH, Built, Unusual
from .scalars import resolve

#: what libyaml reads otherwise: tabs, carriage returns and the other line breaks of YAML 1.1 (NEL,
#: LS, PS), control characters, byte order marks, and what it refuses (surrogates, U+FFFE, U+FFFF);
#: the part beyond ASCII is compiled only for a text that has such characters (its compiling costs ~1 ms)
_ODD_ASCII = re.compile("[\x00-\x09\x0b-\x1f\x7f]")
_ODD_WIDE = "[\x80-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]"
#: indentation, a sequence entry's dash, a plain key and its colon, the rest of the line
_LINE = re.compile(r"( *)(-(?: +|$))?(?:([A-Za-z0-9_][A-Za-z0-9_.\-/]*):(?: +|$))?(.*)")
_SINGLE = re.compile(r"'((?:[^']|'')*)'(?: +#.*)? *")
_DOUBLE = re.compile(r'"([^"\\]*)"(?: +#.*)? *')
_EMPTY = re.compile(r"(\{\}|\[\])(?: +#.*)? *")
#: a one-line flow sequence of quoted scalars and of plain ones made of ordinary characters
#: (``["/bin/bash", "-c"]``, ``[a, 1]``): no comma at its end, nothing nested, no ``:`` or ``#`` in an item.
#: A plain item ends at a character that is not a space, so the spaces after it belong to the pattern's `` *``
#: alone: a line that does not match fails in linear time (an item that could end with spaces let each item's
#: spaces split two ways, and a ten-item line that fails at its end took minutes)
_ITEM = r"""(?:"[^"\\]*"|'(?:[^']|'')*'|(?:[A-Za-z0-9_/.$~=+]|-(?=[^ ,\]]))[^ ,\[\]{}#:'"]*(?: +[^ ,\[\]{}#:'"]+)*)"""
_FLOW = re.compile(rf"\[( *(?:{_ITEM} *(?:, *{_ITEM} *)*)?)\](?: +#.*)? *")
_ITEMS = re.compile(_ITEM)
#: characters a plain scalar cannot start with (``-``, ``?`` and ``:`` can, before a non-space)
_INDICATORS = frozenset(",[]{}#&*!|>'\"%@`")
#: a document marker or a directive at the start of a line
_MARKER = re.compile(r"^(?:---|\.\.\.)(?=[ \n]|\Z)|^%", re.M)
_NOTHING = object()
#: plain scalars up to this length are remembered with their value, across files (keys, names, "true")
_SHARE_LIMIT = 64
_SHAREABLE = (str, int, float, bool, type(None))
#: the longest key read here (YAML's implicit keys end within 1024 characters; a longer one is left to libyaml)
_LONGEST_KEY = 1000
#: most plain scalars remembered (a bound on memory over a long run)
_REMEMBER = 1 << 16
_PLAINS: Dict[str, Any] = {}


def build(text: str) -> Optional[List[Built]]:
    """Every non-empty document of ``text`` with where it starts, or None when it is not plain block YAML."""
    if _ODD_ASCII.search(text) is not None or not text.isascii() and re.search(_ODD_WIDE, text) is not None:
        return None
    paused = gc.isenabled()
    if paused:  # only new, acyclic containers are made (see fastload)
        gc.disable()
    try:
        return _Reader().documents(text)
    except (Unusual, ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError):
        return None
    finally:
        if paused:
            gc.enable()


class _Reader:
    def __init__(self) -> None:
        self.plains = _PLAINS  # plain text -> its value
        self.quoted: Dict[str, str] = {}  # quoted strings, shared when repeated (memory)
        self.counted = (0, 0)  # (an offset, its line): lines are counted on from the last document's

    def _line_of(self, text: str, offset: int) -> int:
        at, line = self.counted
        line += text.count("\n", at, offset)
        self.counted = (offset, line)
        return line

    def documents(self, text: str) -> List[Built]:
        out: List[Built] = []
        index = -1  # documents seen
        start = 0  # where the current document's text starts (after its marker line)
        marker = -1  # where its marker starts (-1: an implicit document)
        for found in _MARKER.finditer(text):
            at = found.start()
            if text[at] != "-":
                raise Unusual  # a directive or a document end
            eol = text.find("\n", at)
            eol = len(text) if eol < 0 else eol
            tail = text[at + 3:eol].lstrip(" ")
            if tail and tail[0] != "#":
                raise Unusual  # content after the marker
            index = self._add(out, text, index, marker, start, at)
            start, marker = eol + 1, at
        self._add(out, text, index, marker, start, len(text))
        return out

    def _add(self, out: List[Built], text: str, index: int, marker: int, start: int, end: int) -> int:
        """Read the document between ``start`` and ``end`` (its marker at ``marker``); the documents seen now."""
        data, first = self._document(text[start:end].split("\n")) if start < end else (None, -1)
        if marker < 0 and first < 0:
            return index  # comments and blank lines before the first marker: no document
        index += 1
        if data is not None:
            offset = marker if marker >= 0 else _line_offset(text, start, first)
            out.append((index, self._line_of(text, offset), offset, end, data))
        return index

    def _document(self, lines: List[str]) -> Tuple[Any, int]:
        """(the data of one document's lines, the index of its first content line or -1) (the hot loop: flat)."""
        match, scalar = _LINE.match, self._scalar
        stack: List[Tuple[Any, int, bool]] = []  # enclosing (collection, indent, indentless)
        current: Any = None  # the open collection
        root: Any = None
        first = indent = -1  # the first content line; the indentation of the open collection's entries
        indentless = False  # a sequence at its parent key's own indentation
        pending: Any = _NOTHING  # a key (or the sequence itself) waiting for a block on the next lines
        for number, line in enumerate(lines):
            spaces, dash, key, rest = match(line).groups()  # type: ignore[union-attr]
            if dash is None and key is None and (not rest or rest[0] == "#"):
                continue  # a blank line or a comment
            if len(stack) >= MAX_DEPTH:  # the open collection is deeper than the limit (the root is at 1)
                raise Unusual
            here = len(spaces)
            if current is None:  # the document's first line: its root
                root = current = [] if dash else {}
                indent, first = here, number
            elif pending is not _NOTHING:
                if here > indent or (here == indent and dash and type(current) is dict):
                    child: Any = [] if dash else {}
                    _put(current, pending, child)
                    stack.append((current, indent, indentless))
                    current, indent, indentless = child, here, here == indent
                else:
                    _put(current, pending, None)
                pending = _NOTHING
            while here < indent or (indentless and here == indent and not dash):
                current, indent, indentless = stack.pop()
            if here != indent:
                raise Unusual  # a continuation line, or indentation that matches nothing
            if type(current) is list:
                if not dash:
                    raise Unusual
                if key is None:
                    if not rest or rest[0] == "#":
                        pending = current
                    else:
                        current.append(scalar(rest))
                    continue
                child = {}
                current.append(child)
                stack.append((current, indent, indentless))
                current, indent, indentless = child, here + len(dash), False
            elif dash or key is None:
                raise Unusual  # a scalar where a key belongs, or an entry of a sequence that is not open
            key = self._key(key)
            if key in current:
                raise Unusual  # a repeated key: the careful loader reports it
            if not rest or rest[0] == "#":
                pending = key
            else:
                current[key] = scalar(rest)
        if len(stack) >= MAX_DEPTH:
            raise Unusual
        if pending is not _NOTHING:
            _put(current, pending, None)
        return root, first

    def _key(self, text: str) -> str:
        if len(text) > _LONGEST_KEY:
            raise Unusual  # libyaml, PyYAML and go-yaml refuse an implicit key over 1024 characters: they say so
        known = self.plains.get(text, _NOTHING)
        if known is _NOTHING:
            known = self._plain(text)
        if type(known) is not str:
            raise Unusual  # a key that is not a string: the careful loader checks its spellings
        return known  # type: ignore[no-any-return]

    def _scalar(self, text: str) -> Any:
        first = text[0]
        if first == "'":
            m = _SINGLE.fullmatch(text)
            if m is None:
                raise Unusual
            return self._share(m.group(1).replace("''", "'"))
        if first == '"':
            m = _DOUBLE.fullmatch(text)
            if m is None:
                raise Unusual
            return self._share(m.group(1))
        if first in _INDICATORS:
            m = _EMPTY.fullmatch(text)
            if m is not None:
                return {} if m.group(1) == "{}" else []
            m = _FLOW.fullmatch(text) if first == "[" else None
            if m is None:
                raise Unusual
            return [self._item(item.group()) for item in _ITEMS.finditer(text, 1, m.end(1))]
        cut = text.find(" #")
        if cut >= 0:
            text = text[:cut]
        text = text.rstrip(" ")
        known = self.plains.get(text, _NOTHING)
        if known is not _NOTHING:
            return known
        if first in "-?:" and (len(text) == 1 or text[1] == " ") or ": " in text or text[-1] == ":":
            raise Unusual
        return self._plain(text)

    def _item(self, text: str) -> Any:
        """An item of a flow sequence (:data:`_ITEM`): quoted, or plain (which ends with no space)."""
        first = text[0]
        if first == '"':
            return self._share(text[1:-1])
        if first == "'":
            return self._share(text[1:-1].replace("''", "'"))
        known = self.plains.get(text, _NOTHING)
        return self._plain(text) if known is _NOTHING else known

    def _plain(self, text: str) -> Any:
        """A plain scalar as the loader constructs it (short ones remembered: files repeat keys and values)."""
        value = resolve(text)
        if len(text) <= _SHARE_LIMIT and type(value) in _SHAREABLE and len(self.plains) < _REMEMBER:
            self.plains[text] = value
        return value

    def _share(self, text: str) -> str:
        return self.quoted.setdefault(text, text) if len(text) <= _SHARE_LIMIT else text


def _put(current: Any, pending: Any, value: Any) -> None:
    """Give the key (or the dash) that waited for the next lines its value."""
    if type(current) is dict:
        current[pending] = value
    else:
        current.append(value)


def _line_offset(text: str, start: int, line: int) -> int:
    """The offset of the ``line``-th line after ``start``."""
    for _ in range(line):
        start = text.index("\n", start) + 1
    return start
