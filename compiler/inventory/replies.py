"""The objects a cluster's API server returns, read field by field with each value's type checked.

A reply is outside input: a broken or hostile server (or a proxy in front of it) may send any JSON.  Every field the
inventory and the cluster commands read from an object goes through :class:`Reply`, so a value of the wrong type, or
a count that is no whole number the API server could hold ("1e999", NaN, -1), is a :class:`ClusterDataError` that
names the object, the field and what is wrong (exit code 4 on the command line), never a crash and never a made-up
value.  An absent field reads as its default, as Kubernetes leaves out what is empty.
"""
from __future__ import annotations

import json
import math
from typing import Any, Dict, List, Optional, Sequence, Union

from ..catalogue import CLUSTER_ERROR
from ..errors import AscendCompileError
from ..findings import ERROR, Finding

#: the largest count the API server holds (a signed 64-bit integer), and the smallest an exit code may be
MAX_COUNT, MIN_INT32 = 2 ** 63 - 1, -2 ** 31
#: the longest object name Kubernetes allows (a DNS-1123 subdomain)
MAX_NAME = 253
HINT = ("the API server (or a proxy in front of it) sent a value Kubernetes never writes there: check which server "
        "the kubeconfig and context point at")

Step = Union[str, int]


class ClusterDataError(AscendCompileError):
    """An object the cluster returned holds a value of the wrong type or out of range.  ``message`` names the object
    (kind, namespace/name), the field and what is wrong; a command exits 4 (a cluster error) with it."""

    def __init__(self, what: str, path: Sequence[Step], problem: str):
        self.message = f"{what}: {field_text(path)}: {problem}" if path else f"{what}: {problem}"
        super().__init__([Finding(CLUSTER_ERROR, ERROR, f"malformed reply from the cluster: {self.message}", hint=HINT,
                                  file="<cluster>")])


def field_text(path: Sequence[Step]) -> str:
    """``status.allocatable["huawei.com/Ascend910"]``, ``spec.taints[2].effect``."""
    out = ""
    for step in path:
        if isinstance(step, int):
            out += f"[{step}]"
        elif step.replace("_", "").replace("-", "").isalnum():
            out += f".{step}" if out else step
        else:
            out += f"[{json.dumps(step)}]"
    return out


def shown(value: Any) -> str:
    """A value as a message shows it: its JSON text, cut at 40 characters; or what kind of value it is."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    try:
        text = json.dumps(value)
    except ValueError:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def whole(value: Any, low: int = 0, high: int = MAX_COUNT) -> Optional[int]:
    """A whole number from ``low`` to ``high`` from an int, an integral float or a quantity string ("8", "1e1"); None
    for anything else (a fraction, NaN, infinity, out of range, a bool, text that is no quantity)."""
    from ..manifest.quantity import parse

    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        value = int(value) if math.isfinite(value) and value.is_integer() else None
    elif isinstance(value, str):
        exact = parse(value)
        value = exact.numerator if exact is not None and exact.denominator == 1 else None
    return value if isinstance(value, int) and low <= value <= high else None


class Reply:
    """One object of a reply: ``kind`` and name for messages, its fields read with :meth:`text`, :meth:`count` and
    the rest.  The object itself, its ``metadata`` and ``metadata.name`` (a non-empty string of at most 253
    characters; or absent, when not ``named``) are checked on creation."""

    __slots__ = ("data", "what", "name", "namespace")

    def __init__(self, data: Any, kind: str, named: bool = True):
        self.what = f"{kind} (unnamed)"
        if not isinstance(data, dict):
            raise ClusterDataError(self.what, (), f"is {shown(data)}, not an object")
        self.data: Dict[str, Any] = data
        self.namespace = self.text("metadata", "namespace")
        name = self._at(("metadata", "name"))
        if name is None and not named:
            name = ""
        elif not isinstance(name, str) or not name or len(name) > MAX_NAME:
            raise ClusterDataError(self.what + (f" in namespace {self.namespace}" if self.namespace else ""),
                                   ("metadata", "name"), f"{shown(name)} is not a name (1 to {MAX_NAME} characters)")
        self.name = name
        self.what = f"{kind} {self.namespace}/{name}" if self.namespace else f"{kind} {name or '(unnamed)'}"

    def fail(self, path: Sequence[Step], problem: str) -> ClusterDataError:
        return ClusterDataError(self.what, path, problem)

    def _at(self, path: Sequence[Step]) -> Any:
        node: Any = self.data
        for i, step in enumerate(path):
            if node is None:
                return None
            if not isinstance(node, dict):
                raise self.fail(path[:i], f"is {shown(node)}, not an object")
            node = node.get(step)
        return node

    def mapping(self, *path: Step) -> Dict[str, Any]:
        """An object field ({} when absent)."""
        found = self._at(path)
        if found is None:
            return {}
        if not isinstance(found, dict):
            raise self.fail(path, f"is {shown(found)}, not an object")
        return found

    def texts(self, *path: Step) -> Dict[str, str]:
        """An object of strings (labels, annotations, a queue's capability; {} when absent)."""
        found = self.mapping(*path)
        for key, value in found.items():
            if not isinstance(value, str):
                raise self.fail(tuple(path) + (key,), f"is {shown(value)}, not a string")
        return found

    def text(self, *path: Step, default: str = "") -> str:
        """A string field (``default`` when absent or null)."""
        found: str = self._typed(path, str, "a string", default)
        return found

    def flag(self, *path: Step) -> bool:
        """A true-or-false field (false when absent or null)."""
        found: bool = self._typed(path, bool, "true or false", False)
        return found

    def _typed(self, path: Sequence[Step], kind: type, noun: str, default: Any) -> Any:
        found = self._at(path)
        if found is None:
            return default
        if not isinstance(found, kind):
            raise self.fail(path, f"is {shown(found)}, not {noun}")
        return found

    def objects(self, *path: Step) -> List["Item"]:
        """A list of objects ([] when absent), each read as an :class:`Item` of this reply."""
        found = self._at(path)
        if found is None:
            return []
        if not isinstance(found, list):
            raise self.fail(path, f"is {shown(found)}, not a list")
        out = []
        for i, item in enumerate(found):
            if not isinstance(item, dict):
                raise self.fail(tuple(path) + (i,), f"is {shown(item)}, not an object")
            out.append(Item(self, tuple(path) + (i,), item))
        return out

    def count(self, *path: Step, default: Optional[int] = 0, low: int = 0, high: int = MAX_COUNT) -> Optional[int]:
        """A whole number (:func:`whole`) from ``low`` to ``high`` (``default`` when absent or null)."""
        found = self._at(path)
        if found is None:
            return default
        number = whole(found, low, high)
        if number is None:
            raise self.fail(path, f"{shown(found)} is not a whole number from {low} to {high}")
        return number


class Item(Reply):
    """An object inside a :class:`Reply` (a taint, a condition, a container status): its fields read the same way,
    named from the reply's object."""

    __slots__ = ("prefix",)

    def __init__(self, parent: Reply, prefix: Sequence[Step], data: Dict[str, Any]):  # noqa: D107 - no name to check
        self.data, self.what, self.name, self.namespace = data, parent.what, parent.name, parent.namespace
        self.prefix = tuple(prefix)

    def fail(self, path: Sequence[Step], problem: str) -> ClusterDataError:
        return ClusterDataError(self.what, self.prefix + tuple(path), problem)
