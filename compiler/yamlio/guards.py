"""Hostile-input guards: nesting depth and alias expansion are bounded before anything walks a document."""
from __future__ import annotations

import re
from typing import Iterable, List, Tuple

import yaml

from ..catalogue import YAML_ALIAS_BOMB, YAML_TOO_DEEP
from ..errors import InputError
from .common import (MAX_DEPTH, MAX_EXPANDED_BYTES, MAX_EXPANDED_NODES, AliasBudget, BaseLoader,
                     input_error as _input_error)


_DOC_SPLIT = re.compile(r"^(?:---|\.\.\.)", re.M)
# The run of blanks and block indicators that starts each line (libyaml also breaks lines on a lone CR,
# NEL, LS and PS, so those count as line starts too).
_LINE_PREFIX = re.compile(r"(?:^|[\r\n\x85\u2028\u2029])([ \t?:-]*)")


def _might_nest_deeply(text: str, limit: int) -> bool:
    """Cheap upper bound on nesting depth per document chunk.

    A block collection starts at a column no further right than the blanks and
    ``- ``/``? ``/``: `` indicators that open its line, and along a chain of
    nested block collections the column grows with every level except for a
    sequence written at the same indentation as its parent key: so block depth
    is at most ``2 * (widest line prefix + 1)``.  Flow depth is at most the
    number of ``[`` and ``{`` in the chunk.  If their sum stays below
    ``limit`` the document cannot nest deeper, and the exact check is skipped.
    (Brackets in strings or indented block scalars only make the bound larger,
    never smaller.)
    """
    for chunk in _DOC_SPLIT.split(text):
        if len(chunk) < limit:
            continue
        flow = chunk.count("[") + chunk.count("{")
        if flow >= limit:
            return True
        widest = max(map(len, _LINE_PREFIX.findall(chunk)), default=0)
        if 2 * (widest + 1) + flow + 2 >= limit:
            return True
    return False


def _check_event_depth(text: str, source: str, limit: int) -> None:
    """Exact nesting check on the event stream (libyaml's composer is recursive C)."""
    loader = BaseLoader(text)
    depth = 0
    try:
        while True:
            event = loader.get_event()
            if event is None:
                break
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limit:
                    mark = event.start_mark
                    raise _input_error(source, f"nests deeper than {limit} levels",
                                       "flatten the document; Kubernetes objects are far shallower",
                                       line=mark.line + 1, column=mark.column + 1,  # type: ignore[union-attr]
                                       rule=YAML_TOO_DEEP)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        if _is_parser_nesting_limit(exc):
            raise _too_deep_error(source, exc, limit) from None
        return  # the real parse reports syntax errors with their location
    finally:
        loader.dispose()


def _is_parser_nesting_limit(exc: yaml.YAMLError) -> bool:
    """The parser's own depth limit (libyaml >= 0.2.6 stops at 1000 levels, often before our count does,
    since its scanner reads ahead); it is the same problem as our limit, not a syntax error."""
    problem = str(getattr(exc, "problem", "") or "")
    return "nesting depth" in problem or "max depth" in problem


def _too_deep_error(source: str, exc: yaml.YAMLError, limit: int) -> InputError:
    mark = getattr(exc, "problem_mark", None)
    return _input_error(source, f"nests deeper than {limit} levels",
                        "flatten the document; Kubernetes objects are far shallower",
                        line=(mark.line + 1) if mark else 0, column=(mark.column + 1) if mark else 0,
                        rule=YAML_TOO_DEEP)


def _check_node_graph(root: yaml.Node, source: str, budget: AliasBudget) -> None:
    """Refuse alias cycles, alias bombs (in nodes or in bytes of text, in this document or, with what the
    run's earlier documents used of ``budget``, in all) and deep nesting before constructing."""
    # Iterative post-order walk with memoised expanded sizes (nodes, and characters of scalar text);
    # aliases make the node graph a DAG (or, with a recursive anchor, a cycle).
    sizes: dict[int, Tuple[int, int]] = {}
    written_chars = 0  # of the distinct nodes: what the text itself holds
    on_stack: set[int] = set()
    stack: List[Tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        ident = id(node)
        if done:
            on_stack.discard(ident)
            sizes[ident] = _expanded(node, sizes, source)
            if isinstance(node, yaml.ScalarNode):
                written_chars += len(node.value)
            continue
        if ident in sizes:
            continue
        if ident in on_stack:
            _refuse(source, node, "contains an alias that refers to itself (a recursive anchor)",
                    "replace the recursive alias with the data it should hold", YAML_ALIAS_BOMB)
        if depth > MAX_DEPTH:
            _refuse(source, node, f"nests deeper than {MAX_DEPTH} levels",
                    "flatten the document; Kubernetes objects are far shallower", YAML_TOO_DEEP)
        on_stack.add(ident)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) in on_stack:
                _refuse(source, child, "contains an alias that refers to itself (a recursive anchor)",
                        "replace the recursive alias with the data it should hold", YAML_ALIAS_BOMB)
            if id(child) not in sizes:
                stack.append((child, depth + 1, False))
    nodes, chars = sizes[id(root)]
    budget.nodes -= nodes - len(sizes)  # what aliases add to what is written out
    budget.chars -= chars - written_chars
    if budget.nodes < 0:
        _refuse(source, root, f"aliases in the documents read so far expand to more than {MAX_EXPANDED_NODES} "
                "nodes in all (this document brings them over)",
                "remove the repeated aliases, or read these files in separate runs", YAML_ALIAS_BOMB)
    if budget.chars < 0:
        _refuse(source, root, f"aliases in the documents read so far expand to more than {MAX_EXPANDED_BYTES} "
                "bytes of text in all (this document brings them over)",
                "write the repeated values out where they are needed, or repeat them fewer times", YAML_ALIAS_BOMB)


def _expanded(node: yaml.Node, sizes: dict[int, Tuple[int, int]], source: str) -> Tuple[int, int]:
    """(nodes, characters of scalar text) of ``node`` with every alias expanded; over budget is refused."""
    if isinstance(node, yaml.ScalarNode):
        return 1, len(node.value)
    nodes, chars = 1, 0
    for child in _children(node):
        child_nodes, child_chars = sizes[id(child)]
        nodes += child_nodes
        chars += child_chars
    if nodes > MAX_EXPANDED_NODES:
        _refuse(source, node, f"expands to more than {MAX_EXPANDED_NODES} nodes through aliases",
                "remove the repeated aliases (this looks like a 'billion laughs' alias bomb)", YAML_ALIAS_BOMB)
    if chars > MAX_EXPANDED_BYTES:
        _refuse(source, node, f"expands to more than {MAX_EXPANDED_BYTES} bytes of text through aliases",
                "write the repeated value out where it is needed, or repeat it fewer times", YAML_ALIAS_BOMB)
    return nodes, chars


def _children(node: yaml.Node) -> Iterable[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            yield key_node
            yield value_node
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _refuse(source: str, node: yaml.Node, message: str, hint: str, rule: str) -> None:
    mark = node.start_mark
    raise _input_error(source, message, hint, line=mark.line + 1, column=mark.column + 1, rule=rule)
