"""A parsed document and where its fields are: any field path back to the line and column of its YAML node.

A document read by the fast path (:mod:`.fastload`) has no nodes; it remembers where it starts in its
stream (:class:`Origin`) and composes its nodes on the first question about a location, so files
without findings never pay for them.
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence, Tuple

import yaml

from ..findings import PathElement


class Location(NamedTuple):
    file: str
    line: int  # 1-based
    column: int  # 1-based


class Origin(NamedTuple):
    """Where a document starts in its stream: the text, the offset of its first line, that line (0-based)."""

    text: str
    offset: int
    line: int

    def compose(self) -> Optional[yaml.Node]:
        """The document's node tree, with the marks it has in the whole stream."""
        from .common import BaseLoader

        # Padding with the lines before it keeps every mark's line as in the whole stream (columns are
        # unchanged: the slice starts at the beginning of a line).  The fast path read this document,
        # so it has no anchors, aliases or tags and nests at most MAX_DEPTH levels: composing is safe.
        loader = BaseLoader("\n" * self.line + self.text[self.offset:])
        try:
            return loader.get_node() if loader.check_node() else None
        finally:
            loader.dispose()


class Document:
    """One YAML document of a stream: its data and the nodes it was built from (composed when first asked for)."""

    __slots__ = ("source", "index", "data", "_node", "_origin")

    def __init__(self, source: str, index: int, data: Any, node: Optional[yaml.Node] = None,
                 origin: Optional[Origin] = None):
        self.source = source
        self.index = index
        self.data = data
        self._node = node
        self._origin = origin

    def __repr__(self) -> str:
        return f"Document(source={self.source!r}, index={self.index})"

    @property
    def node(self) -> Optional[yaml.Node]:
        if self._node is None and self._origin is not None:
            self._node = self._origin.compose()
            self._origin = None
        return self._node

    @property
    def located(self) -> bool:
        """Whether the document came from source text (its fields have lines and columns)."""
        return self._node is not None or self._origin is not None

    def locate(self, path: Sequence[PathElement], key: bool = False) -> Location:
        """Line and column of the node at ``path`` (of its key when ``key``).

        A path that runs past the document stops at the deepest node that
        exists, so a "missing field" finding points at the object lacking it.
        """
        node = self.node
        if node is None:  # built from Python values: no source position
            return Location(self.source, 0, 0)
        found = node
        key_node = None
        for element in path:
            child, child_key = _child(found, element)
            if child is None:
                key_node = None
                break
            found, key_node = child, child_key
        target = key_node if (key and key_node is not None) else found
        mark = target.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)


def _child(node: yaml.Node, element: PathElement) -> Tuple[Optional[yaml.Node], Optional[yaml.Node]]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in reversed(node.value):  # last one wins, as when loading
            if isinstance(key_node, yaml.ScalarNode) and _scalar_matches(key_node, element):
                return value_node, key_node
        return None, None
    if isinstance(node, yaml.SequenceNode) and isinstance(element, int):
        if 0 <= element < len(node.value):
            return node.value[element], None
    return None, None


def _scalar_matches(key_node: yaml.ScalarNode, element: PathElement) -> bool:
    if isinstance(element, int) and not isinstance(element, bool):
        return bool(key_node.value == str(element))
    return bool(key_node.value == element)
