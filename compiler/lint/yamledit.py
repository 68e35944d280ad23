"""Edits of YAML text at one node, leaving every other character as written (for ``lint --fix``).

The nodes are PyYAML's, composed from the whole text by the pure-Python loader, so a mark's ``index`` is a
character offset into that text.  Each helper returns an :class:`Edit` (replace ``text[start:end]``) or
None when it cannot make the edit with certainty (a block scalar at the end of a mapping, a sequence
whose items start on the line after their dash, ...): the caller then leaves the finding unfixed.

What is inserted mirrors what is there: a flow collection gets ``, key: value`` before its closing
bracket; a block collection gets a new line (the file's line end) at the column of its first entry,
nested entries indented by the step the file uses nearby.
"""
from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple, Union

import yaml

from ..records import NamedTuple
from ..yamlio.locations import child

#: an entry to insert: a scalar as YAML text, or a mapping as (key text, scalar text) pairs
Value = Union[str, Sequence[Tuple[str, str]]]


class Edit(NamedTuple):
    start: int
    end: int
    text: str


def compose(text: str) -> List[Any]:
    """Every document's node tree (marks index ``text`` by character)."""
    return list(yaml.compose_all(text, Loader=yaml.SafeLoader))


def walk(node: Any, path: Sequence[Any]) -> Any:
    """The node at ``path`` (None if absent), found as a finding's location is (:func:`~ascend_compile.yamlio.locations.child`)."""
    for part in path:
        node = child(node, part)[0]
        if node is None:
            return None
    return node


def written(text: str, node: Any) -> Optional[str]:
    """A one-line scalar exactly as written (None for block scalars, multi-line text and collections)."""
    if not isinstance(node, yaml.ScalarNode) or node.style in ("|", ">"):
        return None
    out = text[node.start_mark.index:node.end_mark.index]
    return out if out and "\n" not in out and "\r" not in out else None


def _line_end(text: str, index: int) -> int:
    end = text.find("\n", index)
    end = len(text) if end < 0 else end
    return end - 1 if end > 0 and text[end - 1] == "\r" else end


def _newline(text: str) -> str:
    first = text.find("\n")
    return "\r\n" if first > 0 and text[first - 1] == "\r" else "\n"


def _last_leaf_end(node: Any) -> Optional[int]:
    """Where the text of a block collection's last entry ends (None when that is not certain)."""
    before = None  # the key of an empty value: its text is where the entry ends
    while isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        if not node.value:
            return None
        before, node = node.value[-1] if isinstance(node, yaml.MappingNode) else (None, node.value[-1])
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        return None
    if node.start_mark.index == node.end_mark.index:  # an empty value (``key:``) is marked where the next token is
        return None if before is None else int(before.end_mark.index) + 1  # past the ':'
    return int(node.end_mark.index)


def _flow(value: Value) -> str:
    return value if isinstance(value, str) else "{" + ", ".join(f"{k}: {v}" for k, v in value) + "}"


def _flow_insert(text: str, node: Any, entry: str) -> Optional[Edit]:
    """``entry`` added as the last entry of a flow collection."""
    close = int(node.end_mark.index) - 1
    if close < 0 or text[close] not in "}]":
        return None
    at = close
    while text[at - 1] in " \t\r\n":
        at -= 1
    before = text[at - 1]
    separator = "" if before in "{[" else " " if before == "," else ", "
    return Edit(at, at, separator + entry)


def _step(node: Any, column: int) -> int:
    """The indentation step the file uses under this mapping (a block mapping value's offset; else 2)."""
    for _, value in node.value:
        if isinstance(value, yaml.MappingNode) and not value.flow_style and value.value:
            step = value.value[0][0].start_mark.column - column
            if step > 0:
                return int(step)
    return 2


def insert_entry(text: str, mapping: Any, key: str, value: Value, flow_value: bool = False) -> Optional[Edit]:
    """``key: value`` added as the last entry of ``mapping`` (a nested mapping in block style unless
    ``flow_value`` or the mapping itself is flow)."""
    if not isinstance(mapping, yaml.MappingNode):
        return None
    if mapping.flow_style or not mapping.value:
        return _flow_insert(text, mapping, f"{key}: {_flow(value)}") if mapping.flow_style else None
    end = _last_leaf_end(mapping)
    if end is None:
        return None
    column = int(mapping.value[0][0].start_mark.column)
    newline, at = _newline(text), _line_end(text, end)
    if isinstance(value, str) or flow_value:
        return Edit(at, at, f"{newline}{' ' * column}{key}: {_flow(value)}")
    inner = " " * (column + _step(mapping, column))
    lines = "".join(f"{newline}{inner}{k}: {v}" for k, v in value)
    return Edit(at, at, f"{newline}{' ' * column}{key}:{lines}")


def _dash_column(text: str, item: Any) -> Optional[int]:
    """The column of the ``-`` that starts a block sequence item on the item's own line (else None)."""
    at = int(item.start_mark.index) - 1
    while at >= 0 and text[at] == " ":
        at -= 1
    if at < 0 or text[at] != "-":
        return None
    return int(item.start_mark.column) - (int(item.start_mark.index) - at)


def append_item(text: str, sequence: Any, pairs: Sequence[Tuple[str, str]]) -> Optional[Edit]:
    """A mapping of ``pairs`` added as the last item of ``sequence`` (flow if its items are flow)."""
    if not isinstance(sequence, yaml.SequenceNode) or not sequence.value:
        return None
    if sequence.flow_style:
        return _flow_insert(text, sequence, _flow(pairs))
    first, end = sequence.value[0], _last_leaf_end(sequence)
    dash = _dash_column(text, first)
    if dash is None or end is None:
        return None
    column, newline, at = int(first.start_mark.column), _newline(text), _line_end(text, end)
    head = f"{newline}{' ' * dash}-{' ' * (column - dash - 1)}"
    if isinstance(first, yaml.MappingNode) and not first.flow_style:
        return Edit(at, at, head + f"{newline}{' ' * column}".join(f"{k}: {v}" for k, v in pairs))
    return Edit(at, at, head + _flow(pairs))
