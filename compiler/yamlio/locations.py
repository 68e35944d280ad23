"""A parsed document and where its fields are: any field path back to the line and column of its YAML node.

A document read by the fast path (:mod:`.fastload`) has no nodes; it remembers where it starts in its
stream (:class:`Origin`) and composes its nodes on the first question about a location, so files
without findings never pay for them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Tuple

from ..findings import PathElement
from ..records import NamedTuple

if TYPE_CHECKING:  # PyYAML is imported when a document is first located (see .common)
    import yaml


class Location(NamedTuple):
    file: str
    line: int  # 1-based
    column: int  # 1-based


class Origin(NamedTuple):
    """Where a document is in its stream: the text, the offsets of its first line and of its end, that line."""

    text: str
    offset: int
    end: int
    line: int  # 0-based

    def compose(self) -> Optional[yaml.Node]:
        """The document's node tree, with the marks it has in the whole stream.

        The fast path read this document, so it has no anchors, aliases or tags and nests at most
        MAX_DEPTH levels: composing it again is safe.  Only its own text is read: the slice starts at
        the beginning of a line (columns are as in the stream), and the lines before it are added by
        padding the slice with empty lines, or, far into a long stream where that costs more, by
        moving every mark.
        """
        from .common import BaseLoader

        text = self.text[self.offset:self.end]
        pad = self.line <= _PAD_LINES
        loader = BaseLoader("\n" * self.line + text if pad else text)
        try:
            node = loader.get_node() if loader.check_node() else None
        finally:
            loader.dispose()
        if node is not None and not pad:
            _move_marks(node, self.line)
        return node

    def find(self, path: Sequence[PathElement]) -> Tuple[Tuple[int, int], Optional[Tuple[int, int]], int]:
        """((line, column) of the deepest node on ``path``, that of its key or None, how many elements of
        ``path`` were found), 0-based, from the document's parse events: no node tree is built, and only the
        events up to that node are read (a finding about a 16 MB list's root composed 4 million nodes)."""
        from yaml.events import (AliasEvent, CollectionStartEvent, MappingEndEvent, MappingStartEvent,
                                 ScalarEvent, SequenceEndEvent, SequenceStartEvent)

        from .common import BaseLoader

        loader = BaseLoader(self.text[self.offset:self.end])
        shift = self.line

        def at(event: Any) -> Tuple[int, int]:
            return event.start_mark.line + shift, event.start_mark.column

        def skip(event: Any) -> None:  # the rest of the node ``event`` starts
            depth = 1 if isinstance(event, CollectionStartEvent) else 0
            while depth:
                following = loader.get_event()
                if isinstance(following, CollectionStartEvent):
                    depth += 1
                elif isinstance(following, (MappingEndEvent, SequenceEndEvent)):
                    depth -= 1

        try:
            event = loader.get_event()
            while not isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent)):
                event = loader.get_event()  # the stream's and the document's start
            found, key = at(event), None
            for depth, element in enumerate(path):
                child = key_at = None
                if isinstance(event, MappingStartEvent):
                    while child is None:
                        key_event = loader.get_event()
                        if isinstance(key_event, MappingEndEvent):
                            break
                        if isinstance(key_event, ScalarEvent) and _text_matches(key_event.value, element):
                            key_at, child = at(key_event), loader.get_event()
                        else:
                            skip(key_event)
                            skip(loader.get_event())
                elif isinstance(event, SequenceStartEvent) and isinstance(element, int) \
                        and not isinstance(element, bool) and element >= 0:
                    for number in range(element + 1):
                        item = loader.get_event()
                        if isinstance(item, SequenceEndEvent):
                            break
                        if number == element:
                            child = item
                        else:
                            skip(item)
                if child is None:
                    return found, None, depth
                event, found, key = child, at(child), key_at
            return found, key, len(path)
        finally:
            loader.dispose()


#: below this many lines, padding the slice is cheaper than moving the marks (about 0.3 ms a document)
_PAD_LINES = 50_000


def _move_marks(root: yaml.Node, lines: int) -> None:
    import yaml
    from yaml.error import Mark

    stack = [root]
    while stack:
        node = stack.pop()
        start, end = node.start_mark, node.end_mark
        node.start_mark = Mark(start.name, start.index, start.line + lines, start.column, None, None)  # type: ignore[arg-type]
        node.end_mark = Mark(end.name, end.index, end.line + lines, end.column, None, None)  # type: ignore[arg-type]
        if isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in node.value for item in pair)
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)


class Document:
    """One YAML document of a stream: its data and the nodes it was built from (composed when first asked for).

    ``data`` is None for a document rebuilt only to be located again (:func:`located_again`).
    """

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
        return self._node

    @property
    def origin(self) -> Optional[Origin]:
        """Where the document is in its stream (documents of the fast path; None for the others)."""
        return self._origin

    @property
    def located(self) -> bool:
        """Whether the document came from source text (its fields have lines and columns)."""
        return self._node is not None or self._origin is not None

    def locate(self, path: Sequence[PathElement], key: bool = False) -> Location:
        """Line and column of the node at ``path`` (of its key when ``key``).

        A path that runs past the document stops at the deepest node that
        exists, so a "missing field" finding points at the object lacking it.
        """
        if self._node is None and self._origin is not None:  # read by a fast path: its events say where
            found_at, key_at, _depth = self._origin.find(path)
            line, column = key_at if (key and key_at is not None) else found_at
            return Location(self.source, line + 1, column + 1)
        node = self.node
        if node is None:  # built from Python values: no source position
            return Location(self.source, 0, 0)
        found, key_node, _depth = _walk(node, path)
        target = key_node if (key and key_node is not None) else found
        mark = target.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)

    def existing(self, path: Sequence[PathElement]) -> int:
        """How many leading elements of ``path`` exist in the document (read from its nodes, or its events)."""
        if self._node is None and self._origin is not None:
            return self._origin.find(path)[2]
        node = self.node
        return 0 if node is None else _walk(node, path)[2]


def located_again(source: str, index: int, origin: Origin) -> Document:
    """A document of the fast path, rebuilt from where it is to locate its fields (its data is not read)."""
    return Document(source, index, None, None, origin)


def _walk(node: yaml.Node, path: Sequence[PathElement]) -> Tuple[yaml.Node, Optional[yaml.Node], int]:
    """(the deepest node on ``path``, its key node, how many elements of ``path`` were found)."""
    found, key_node = node, None
    for depth, element in enumerate(path):
        child, child_key = _child(found, element)
        if child is None:
            return found, None, depth
        found, key_node = child, child_key
    return found, key_node, len(path)


def _child(node: yaml.Node, element: PathElement) -> Tuple[Optional[yaml.Node], Optional[yaml.Node]]:
    import yaml

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
    return _text_matches(key_node.value, element)


def _text_matches(text: str, element: PathElement) -> bool:
    if isinstance(element, int) and not isinstance(element, bool):
        return bool(text == str(element))
    return bool(text == element)
