"""The defensive readers every reading of a manifest shares: a field of the wrong type reads as absent (the
schema check reports the type error), an amount reads as Kubernetes reads the quantity.

Answers asked for again and again are worked out once and kept (:class:`once`): a manifest being read never
changes.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, FrozenSet, Generic, Iterable, List, Optional, TypeVar

from .quantity import parse as parse_quantity
from ..vocabulary import HAMI_COMPANION_SUFFIXES, HAMI_RESOURCE_PREFIX

T = TypeVar("T")


def hami_companions(names: Iterable[str]) -> FrozenSet[str]:
    """The names among ``names`` (one container's ``huawei.com/*`` resources) that are HAMi vNPU companions
    of another of them: ``huawei.com/Ascend910B3-memory`` or ``-core`` beside ``huawei.com/Ascend910B3``."""
    present = set(names)
    return frozenset(n for n in present if n.startswith(HAMI_RESOURCE_PREFIX) and any(
        n.endswith(suffix) and n[:-len(suffix)] in present for suffix in HAMI_COMPANION_SUFFIXES))


class once(Generic[T]):
    """A property computed on first use and then kept in the instance (rules ask the same things many times).

    Like :func:`functools.cached_property` without its lock (taken on every first use before Python 3.12:
    a few percent of a bulk lint).  An object of the run is read by one thread.
    """

    def __init__(self, compute: Callable[[Any], T]):
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: Any, name: str) -> None:
        self._name = name

    def __get__(self, instance: Any, owner: Any = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self._name] = self._compute(instance)
        return value


def as_dict(value: Any) -> Dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> List[Any]:
    return value if isinstance(value, list) else []


def as_str(value: Any) -> Optional[str]:
    """A string, else None (a mapping or list where a name belongs is no name: and no key of a set)."""
    return value if isinstance(value, str) else None


def as_int(value: Any) -> Optional[int]:
    """An int from an int or an integer string ("8"), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return None


def npu_count(value: Any) -> int:
    """An NPU amount as Kubernetes reads the quantity: 8, "8", 8.0 and "8000m" are all 8 NPUs (the API server
    and the Volcano plugin see 8).  A fraction ("500m", :func:`refused_amount`), which the API server refuses for
    an extended resource, or a value that is no quantity reads as 0."""
    found = as_int(value)
    if found is not None:
        return found
    milli = _milli(value)
    return 0 if milli is None or milli % 1000 else milli // 1000


def refused_amount(value: Any) -> Optional[str]:
    """Why Kubernetes refuses this amount of an extended resource (``huawei.com/*``), or None: "negative", or
    "not a whole number" when its value in thousandths, rounded up (``Quantity.MilliValue``), is no multiple of
    1000 ("500m", 1.5, "1001m").  A value that is no quantity is the schema check's."""
    found = as_int(value)
    if found is not None:
        return "negative" if found < 0 else None
    milli = _milli(value)
    if milli is None:
        return None
    return "negative" if milli < 0 else "not a whole number" if milli % 1000 else None


def _milli(value: Any) -> Optional[int]:
    exact = parse_quantity(value)
    return None if exact is None else -((-exact * 1000) // 1)  # rounded up, as MilliValue does

