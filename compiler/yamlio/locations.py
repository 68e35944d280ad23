"""A parsed document and where its fields are: any field path back to the line and column of its YAML node."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence, Tuple

import yaml

from ..findings import PathElement


@dataclass(frozen=True)
class Location:
    file: str
    line: int  # 1-based
    column: int  # 1-based


@dataclass
class Document:
    """One YAML document of a stream: its data and the nodes it was built from."""

    source: str
    index: int
    data: Any
    node: Optional[yaml.Node]

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
