"""Many field paths of one document placed in one pass over its parse events (no node tree is built).

A document of the fast path keeps no nodes (:class:`~.locations.Origin`): a 16 MB list would compose
4 million of them.  Reading its events once per path made a file with a finding per key cost findings
x keys; here every path asked for is placed in the same pass, which descends only into the entries
some path names and stops once each one is placed.

Each path is answered as it would be by walking the node tree: in a mapping the first key whose text
is the element's (an integer element matches its decimal text), in a sequence the item at a
non-negative integer element; a path that runs past the document stops at its deepest node.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..findings import PathElement

#: (line, column) of the deepest node, of its key (None for the root, a list item or a path that ran past),
#: how many elements were found, the node's text when the whole path was found and leads to a scalar; 0-based
Placed = Tuple[Tuple[int, int], Optional[Tuple[int, int]], int, Optional[str]]


def key_text(element: PathElement) -> Optional[str]:
    """The text of a mapping key that ``element`` names (None: it names none; a bool is not an integer)."""
    if isinstance(element, bool):
        return None
    if isinstance(element, int):
        return str(element)
    return element if isinstance(element, str) else None


def item_number(element: PathElement) -> Optional[int]:
    """The sequence item ``element`` names (None: it names none)."""
    return element if isinstance(element, int) and not isinstance(element, bool) and element >= 0 else None


class _Branch:
    """The paths asked for that go through one node: those that end there, and the next step of the others."""

    __slots__ = ("ends", "children", "depth")

    def __init__(self, depth: int):
        self.ends: List[int] = []  # indices of the paths that end here
        self.children: Dict[Tuple[Optional[str], Optional[int]], _Branch] = {}
        self.depth = depth

    def requests(self) -> List[int]:
        """Every path of this branch, its own and its children's."""
        out, stack = [], [self]
        while stack:
            branch = stack.pop()
            out.extend(branch.ends)
            stack.extend(branch.children.values())
        return out


def _tree(paths: Sequence[Sequence[PathElement]]) -> _Branch:
    root = _Branch(0)
    for number, path in enumerate(paths):
        branch = root
        for element in path:  # elements that match alike share a branch (5 and "5" do not: a list takes only 5)
            step = (key_text(element), item_number(element))
            child = branch.children.get(step)
            if child is None:
                child = branch.children[step] = _Branch(branch.depth + 1)
            branch = child
        branch.ends.append(number)
    return root


#: the next element of some paths (its key text, its item number) and the branch they take there
Step = Tuple[Tuple[Optional[str], Optional[int]], _Branch]


def _by_step(steps: List[Step], part: int) -> Tuple[Dict[Any, List[_Branch]], List[_Branch]]:
    """The branches of ``steps`` by key text (``part`` 0) or item number (1), and those that have none."""
    wanted: Dict[Any, List[_Branch]] = {}
    missing = []
    for step, child in steps:
        if step[part] is None:
            missing.append(child)
        else:
            wanted.setdefault(step[part], []).append(child)
    return wanted, missing


class EventWalk:
    """One pass over a document's events (``loader`` yields them; ``shift`` lines are added to every mark)."""

    def __init__(self, loader: Any, shift: int, paths: Sequence[Sequence[PathElement]]):
        self._loader, self._shift = loader, shift
        self._out: List[Optional[Placed]] = [None] * len(paths)
        self._left = len(paths)
        self._root = _tree(paths)

    def run(self) -> List[Placed]:
        from yaml.events import AliasEvent, CollectionStartEvent, ScalarEvent

        if self._left:
            event = self._loader.get_event()
            while not isinstance(event, (ScalarEvent, AliasEvent, CollectionStartEvent)):
                event = self._loader.get_event()  # the stream's and the document's start
            self._visit(event, None, [self._root])
        return [placed for placed in self._out if placed is not None]

    def _at(self, event: Any) -> Tuple[int, int]:
        return event.start_mark.line + self._shift, event.start_mark.column

    def _place(self, numbers: List[int], placed: Placed) -> None:
        for number in numbers:
            self._out[number] = placed
        self._left -= len(numbers)

    def _visit(self, event: Any, key_at: Optional[Tuple[int, int]], branches: List[_Branch]) -> None:
        """Place the paths of ``branches`` (all at the node ``event`` starts), reading the events of that node
        only as far as they need (every event of it, unless every path asked for is placed)."""
        from yaml.events import MappingStartEvent, ScalarEvent, SequenceStartEvent

        at, depth = self._at(event), branches[0].depth
        text = event.value if isinstance(event, ScalarEvent) else None
        for branch in branches:
            self._place(branch.ends, (at, key_at, depth, text))
        steps = [(step, child) for branch in branches for step, child in branch.children.items()]
        if not steps:
            if self._left:
                self._skip(event)  # the paths still to place are after this node
            return
        if isinstance(event, MappingStartEvent):
            left = self._mapping(steps)
        elif isinstance(event, SequenceStartEvent):
            left = self._sequence(steps)
        else:
            left = [child for _step, child in steps]
        for child in left:  # not in this node: the paths stop at it
            self._place(child.requests(), (at, None, depth, None))

    def _mapping(self, steps: List[Step]) -> List[_Branch]:
        """Visit the entries of a mapping that ``steps`` name; the branches not found in it."""
        from yaml.events import MappingEndEvent, ScalarEvent

        wanted, missing = _by_step(steps, 0)
        while self._left:
            key = self._loader.get_event()
            if isinstance(key, MappingEndEvent):
                return missing + [child for children in wanted.values() for child in children]
            found = wanted.pop(key.value, None) if isinstance(key, ScalarEvent) else None  # the first key wins
            if found is None:
                self._skip(key)
                self._skip(self._loader.get_event())
            else:
                self._visit(self._loader.get_event(), self._at(key), found)
        return []  # every path is placed: the rest is not read

    def _sequence(self, steps: List[Step]) -> List[_Branch]:
        """Visit the items of a sequence that ``steps`` name; the branches not found in it."""
        from yaml.events import SequenceEndEvent

        wanted, missing = _by_step(steps, 1)
        number = 0
        while self._left:
            item = self._loader.get_event()
            if isinstance(item, SequenceEndEvent):
                return missing + [child for children in wanted.values() for child in children]
            found = wanted.pop(number, None)
            if found is None:
                self._skip(item)
            else:
                self._visit(item, None, found)
            number += 1
        return []

    def _skip(self, event: Any) -> None:
        """Read the rest of the node ``event`` starts."""
        from yaml.events import CollectionStartEvent, MappingEndEvent, SequenceEndEvent

        depth = 1 if isinstance(event, CollectionStartEvent) else 0
        while depth:
            following = self._loader.get_event()
            if isinstance(following, CollectionStartEvent):
                depth += 1
            elif isinstance(following, (MappingEndEvent, SequenceEndEvent)):
                depth -= 1
