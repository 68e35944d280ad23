"""Python values as the plain data a YAML file gives: what the Python API takes where a file would be read.

Mappings become dicts and lists or tuples become lists; a subclass of ``str``, ``int`` or ``float`` (an enum
member, a caller's own string type) becomes the plain value, since the YAML writer and the schema check know
only the exact types.  What no YAML file read can give is the caller's
:class:`~ascend_compile.errors.ArgumentError`, naming where it is: a set, bytes, an object, an integer longer
than the reader accepts, a key that is not a scalar, a mapping or list inside itself (a cycle) or nesting
deeper than the reader's limit (:data:`~.common.MAX_DEPTH`, so the checks that walk the data never run out of
stack).  A value shared by two places is copied into both, as a YAML alias is.
"""
from __future__ import annotations

from typing import Any, Dict, List, Mapping

from ..errors import ArgumentError
from .common import MAX_DEPTH, MAX_INT_CHARS

#: the smallest integer a YAML file cannot give (the reader refuses longer integer literals)
_INT_LIMIT = 10 ** MAX_INT_CHARS
#: the longest field path a message quotes whole
_SHOWN = 120


def plain(value: Any, where: str = "", depth: int = 1) -> Any:
    """``value`` as plain data; ``where`` is its field path so far and ``depth`` the nesting level of a
    collection there (1: the document itself), both for the messages."""
    return _Converter().convert(value, where, depth)


class _Converter:
    def __init__(self) -> None:
        #: the mappings and lists being converted (the ones ``value`` is inside), by id: where each is
        self.open: Dict[int, str] = {}

    def convert(self, value: Any, where: str, depth: int) -> Any:
        if isinstance(value, (Mapping, list, tuple)):
            return self._collection(value, where, depth)
        return _scalar(value, where)

    def _collection(self, value: Any, where: str, depth: int) -> Any:
        if depth > MAX_DEPTH:
            raise ArgumentError(f"{_shown(where)}: nests deeper than {MAX_DEPTH} levels, which no YAML file read "
                                "gives", f"keep the data within {MAX_DEPTH} levels of mappings and lists")
        key = id(value)
        if key in self.open:
            raise ArgumentError(f"{_shown(where)}: contains itself (it is the {type(value).__name__} at "
                                f"{_shown(self.open[key]) or 'the top'}), which no YAML file gives",
                                "give a tree: a value may appear in two places, but not inside itself")
        self.open[key] = where
        try:
            if isinstance(value, Mapping):
                out: Dict[Any, Any] = {}
                for name, item in value.items():
                    name = _key(name, where)
                    out[name] = self.convert(item, f"{where}.{name}" if where else str(name), depth + 1)
                return out
            items: List[Any] = [self.convert(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
            return items
        finally:
            del self.open[key]


def _scalar(value: Any, where: str) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, str):
        return value if type(value) is str else str.__str__(value)  # the text itself, not what __str__ says
    if isinstance(value, int):
        if abs(value) >= _INT_LIMIT:
            raise ArgumentError(f"{_shown(where) or 'a value'}: an integer of more than {MAX_INT_CHARS} digits, "
                                "which no YAML file read gives", "give a number Kubernetes can hold (a 64-bit integer)")
        return value if type(value) is int else int.__int__(value)
    if isinstance(value, float):
        return value if type(value) is float else float.__float__(value)
    raise ArgumentError(f"{_shown(where) or 'a value'}: a {type(value).__name__} is not a value a YAML file gives",
                        "give str, int, float, bool, None, a list (or tuple) or a dict"
                        + (" (a list for a set)" if isinstance(value, (set, frozenset)) else ""))


def _key(name: Any, where: str) -> Any:
    """A mapping key as a YAML file gives one: a scalar (a string, as Kubernetes writes them all, or a number,
    a boolean or null)."""
    if name is not None and not isinstance(name, (str, int, float)):
        raise ArgumentError(f"{_shown(where) or 'a mapping'}: a {type(name).__name__} is not a key a YAML file "
                            "gives", "give string keys")
    return _scalar(name, where)


def _shown(where: str) -> str:
    """A field path as a message quotes it: a very long one (deep nesting) by its two ends."""
    return where if len(where) <= _SHOWN else f"{where[:_SHOWN // 2]}...{where[-_SHOWN // 2:]}"
