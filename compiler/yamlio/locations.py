"""A parsed document and where its fields are: any field path back to the line and column of its YAML node.

A document read by the fast path (:mod:`.fastload`) has no nodes; it remembers where it starts in its
stream (:class:`Origin`) and composes its nodes on the first question about a location, so files
without findings never pay for them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple
from weakref import WeakKeyDictionary

from ..findings import PathElement
from ..records import NamedTuple
from .eventwalk import Placed, key_text

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

    def find_all(self, paths: Sequence[Sequence[PathElement]]) -> List[Placed]:
        """Where each of ``paths`` leads (see :data:`~.eventwalk.Placed`), from the document's parse events in
        one pass: no node tree is built, and only the events up to the last node asked for are read (a finding
        about a 16 MB list's root composed 4 million nodes; a finding per key read the events once each)."""
        from .common import BaseLoader
        from .eventwalk import EventWalk

        loader = BaseLoader(self.text[self.offset:self.end])
        try:
            return EventWalk(loader, self.line, paths).run()
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
        return self.find_all((path,))[0].where(key)

    def existing(self, path: Sequence[PathElement]) -> int:
        """How many leading elements of ``path`` exist in the document (read from its nodes, or its events)."""
        return self.find_all((path,))[0].depth

    def find_all(self, paths: Sequence[Sequence[PathElement]]) -> List[Found]:
        """Where each of ``paths`` leads, in order: a document of the fast path reads its events once for all of
        them, any other walks its nodes (each mapping looked up through its index), so placing every finding
        of a document costs about one reading of it, however many there are."""
        if not paths:
            return []  # nothing to place: PyYAML is not even imported
        if self._node is None and self._origin is not None:  # read by a fast path: its events say where
            return [Found(Location(self.source, line + 1, column + 1),
                          None if key_at is None else Location(self.source, key_at[0] + 1, key_at[1] + 1), depth, text)
                    for (line, column), key_at, depth, text in self._origin.find_all(paths)]
        node = self.node
        if node is None:  # built from Python values: no source position
            return [Found(Location(self.source, 0, 0), None, 0, None) for _path in paths]
        out = []
        for path in paths:
            found, key_node, depth = _walk(node, path)
            text = found.value if depth == len(path) and isinstance(found.value, str) else None
            out.append(Found(self._at(found), None if key_node is None else self._at(key_node), depth, text))
        return out

    def _at(self, node: yaml.Node) -> Location:
        return Location(self.source, node.start_mark.line + 1, node.start_mark.column + 1)


class Found(NamedTuple):
    """Where a field path leads in a document."""

    node: Location  # the deepest node on the path that exists
    key: Optional[Location]  # that node's key (None for the root, a list item, or when the path ran past)
    depth: int  # how many elements of the path exist
    text: Optional[str]  # the node's source text when the whole path exists and ends at a scalar (``yes``)

    def where(self, key: bool = False) -> Location:
        """The node's location, or its key's when ``key`` and it has one."""
        return self.key if key and self.key is not None else self.node


def located_again(source: str, index: int, origin: Origin) -> Document:
    """A document of the fast path, rebuilt from where it is to locate its fields (its data is not read)."""
    return Document(source, index, None, None, origin)


def _walk(node: yaml.Node, path: Sequence[PathElement]) -> Tuple[yaml.Node, Optional[yaml.Node], int]:
    """(the deepest node on ``path``, its key node, how many elements of ``path`` were found)."""
    found, key_node = node, None
    for depth, element in enumerate(path):
        value, key = child(found, element)
        if value is None:
            return found, None, depth
        found, key_node = value, key
    return found, key_node, len(path)


def child(node: Optional[yaml.Node], element: PathElement) -> Tuple[Any, Any]:
    """(the value node, the key node) of ``element`` in a mapping node (the last key whose text is the
    element's, as loading keeps it: an integer matches its decimal text), or (the item, None) of a sequence
    node; (None, None) when there is none (or ``node`` is None)."""
    import yaml

    if isinstance(node, yaml.MappingNode):
        text = key_text(element)
        if text is None:
            return None, None
        if len(node.value) < _INDEXED_FROM:
            for key_node, value_node in reversed(node.value):  # last one wins, as when loading
                if isinstance(key_node, yaml.ScalarNode) and key_node.value == text:
                    return value_node, key_node
            return None, None
        key_node, value_node = _index(node).get(text, (None, None))
        return value_node, key_node
    if isinstance(node, yaml.SequenceNode) and isinstance(element, int):
        if 0 <= element < len(node.value):
            return node.value[element], None
    return None, None


#: a mapping of at least this many entries is looked up through an index, made on its first lookup (a scan
#: per lookup made a finding per key cost findings x keys; a small mapping is scanned, as cheaply)
_INDEXED_FROM = 16
_INDEXES: WeakKeyDictionary[yaml.MappingNode, Tuple[int, Dict[str, Tuple[Any, Any]]]] = WeakKeyDictionary()


def _index(node: yaml.MappingNode) -> Dict[str, Tuple[Any, Any]]:
    """Key text -> (key node, value node) of a mapping node's scalar keys, the last of each text (made again
    if the mapping's entries were added to or taken from since)."""
    import yaml

    made = _INDEXES.get(node)
    if made is not None and made[0] == len(node.value):
        return made[1]
    index: Dict[str, Tuple[Any, Any]] = {key_node.value: (key_node, value_node) for key_node, value_node in node.value
                                         if isinstance(key_node, yaml.ScalarNode)}
    _INDEXES[node] = (len(node.value), index)
    return index
