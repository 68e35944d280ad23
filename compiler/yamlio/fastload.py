"""The fast path of parsing: libyaml's events straight into Python data, no node tree.

PyYAML's C loader composes a node (with two marks) for every scalar and collection, then
constructs the data from the nodes in Python.  For the documents manifests are made of (plain
mappings, sequences and scalars) this module builds the same data directly from the event stream,
about twice as fast, and keeps no nodes: a document is located later, only when it has a finding
(:mod:`.locations` composes that one document again).

It takes only the ordinary path.  Anything else, and any error, makes :func:`build` give up and
return None, so the careful loader of :mod:`.parsing` (with its guards and its located errors)
reads the whole stream instead, exactly as it did before this path existed:

* an anchor, an alias or an explicit tag anywhere;
* a key that is not a string (a collection, a number, a boolean: ``1`` and ``"1"`` are one key to
  Kubernetes, and the careful loader checks such spellings), or a key seen twice in a mapping;
* a merge key (``<<``) or a value key (``=``);
* nesting deeper than :data:`~.common.MAX_DEPTH`;
* a syntax error, or a scalar its constructor refuses.

Plain scalars resolve with the loader's own implicit resolvers and constructors, so the data is
identical to the careful loader's (the tests compare them on every input the suite has).
"""
from __future__ import annotations

import gc
from typing import Any, Dict, FrozenSet, List, Optional, Tuple

import yaml
from yaml.events import (DocumentEndEvent, MappingEndEvent, MappingStartEvent, ScalarEvent,
                         SequenceEndEvent, SequenceStartEvent, StreamEndEvent)

from .common import MAX_DEPTH, Built, Unusual

#: tags the fast path constructs (with the loader's own constructors); any other tag is unusual
_SCALAR_TAGS = frozenset("tag:yaml.org,2002:" + name for name in ("null", "bool", "int", "float", "timestamp"))
#: constructed values that may be shared between documents (remembered by their text)
_IMMUTABLE = (int, float, bool, type(None))
_MEMO_LIMIT = 4096
#: strings up to this length are shared when repeated (keys, "true"-like values, names): memory
_SHARE_LIMIT = 64
_NOTHING = object()



def build(text: str, loader_class: Any) -> Optional[List[Built]]:
    """Every non-empty document of ``text`` with where it starts, or None for the careful path."""
    loader = loader_class(text)
    paused = gc.isenabled()
    if paused:  # only new, acyclic containers are made: a collection pass would find nothing to free
        gc.disable()
    try:
        return _documents(loader)
    except (Unusual, yaml.YAMLError, ValueError, TypeError, KeyError, IndexError, AttributeError,
            OverflowError, RecursionError):
        return None
    finally:
        if paused:
            gc.enable()
        loader.dispose()


def _documents(loader: Any) -> List[Built]:
    get_event = loader.get_event
    get_event()  # the stream start
    out: List[Built] = []
    shared: Dict[str, str] = {}
    memo: Dict[str, Any] = {}
    index = -1
    while True:
        event = get_event()
        if type(event) is StreamEndEvent:
            return out
        index += 1
        mark = event.start_mark  # the document start
        data, end = _document(loader, get_event, shared, memo)
        if data is not None:
            out.append((index, mark.line, mark.index - mark.column, end, data))


def _document(loader: Any, get_event: Any, shared: Dict[str, str], memo: Dict[str, Any]) -> Tuple[Any, int]:
    """The data of one document and the offset of its end, its start event already read (the hot loop: flat)."""
    root: Any = None
    current: Any = None  # the open collection
    key: Any = _NOTHING  # in a mapping, the key read and not yet given a value
    stack: List[Any] = []
    while True:
        event = get_event()
        kind = type(event)
        if kind is ScalarEvent:
            if event.anchor is not None or event.tag is not None:
                raise Unusual
            value = event.value
            if event.style == "" and (not value or value[0] in _FIRST):
                known = memo.get(value, _NOTHING)
                if known is _NOTHING:
                    known = plain(loader, value, event.start_mark, event.end_mark)
                    if type(known) in _IMMUTABLE and len(memo) < _MEMO_LIMIT:
                        memo[value] = known
                value = known
            elif len(value) <= _SHARE_LIMIT:
                value = shared.setdefault(value, value)
        elif kind is MappingStartEvent or kind is SequenceStartEvent:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise Unusual
            value = {} if kind is MappingStartEvent else []
            if current is None:
                root = value
            elif type(current) is list:
                current.append(value)
            elif key is _NOTHING or key in current:
                raise Unusual  # a collection as a key, or a repeated key
            else:
                current[key] = value
                key = _NOTHING
            stack.append(current)
            current = value
            continue
        elif kind is MappingEndEvent or kind is SequenceEndEvent:
            current = stack.pop()
            continue
        elif kind is DocumentEndEvent:
            return root, event.end_mark.index
        else:
            raise Unusual  # an alias
        if current is None:
            root = value
        elif type(current) is list:
            current.append(value)
        elif key is _NOTHING:
            if type(value) is not str:
                raise Unusual  # a key that is not a string: the careful loader checks its spellings
            key = value
        elif key in current:
            raise Unusual
        else:
            current[key] = value
            key = _NOTHING


def plain(loader: Any, value: str, start: Any, end: Any) -> Any:
    """What ``loader`` constructs for the plain scalar ``value`` (its marks ``start`` and ``end``, for errors)."""
    for tag, regexp in _RESOLVERS.get(value[:1], ()):
        if regexp.match(value):
            break
    else:
        return value
    if tag not in _SCALAR_TAGS:
        raise Unusual  # merge and value keys, and the resolvers without constructors
    return loader.yaml_constructors[tag](loader, yaml.ScalarNode(tag, value, start, end))


def _resolvers(loader_class: Any) -> Dict[str, Any]:
    table = dict(loader_class.yaml_implicit_resolvers)
    if None in table:  # a resolver for every first character: no character is safe to skip
        raise RuntimeError("fastload expects no wildcard implicit resolvers")
    return table


_RESOLVERS: Dict[str, Any] = {}
_FIRST: FrozenSet[str] = frozenset()


def first_characters() -> FrozenSet[str]:
    """The first characters of plain scalars that an implicit resolver may claim (the others are strings)."""
    return _FIRST


def use_resolvers(loader_class: Any) -> None:
    """Resolve plain scalars with ``loader_class``'s implicit resolvers (called once by :mod:`.parsing`)."""
    global _RESOLVERS, _FIRST
    _RESOLVERS = _resolvers(loader_class)
    _FIRST = frozenset(_RESOLVERS)
