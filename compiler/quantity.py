"""Kubernetes resource quantities ("500m", "16Gi", "1e3", 8) as exact numbers, to compare them."""
from __future__ import annotations

import re
from fractions import Fraction
from typing import Any, Optional

_SUFFIX = {"": Fraction(1), "n": Fraction(1, 10 ** 9), "u": Fraction(1, 10 ** 6), "m": Fraction(1, 1000),
           "k": Fraction(10 ** 3), "M": Fraction(10 ** 6), "G": Fraction(10 ** 9), "T": Fraction(10 ** 12),
           "P": Fraction(10 ** 15), "E": Fraction(10 ** 18),
           "Ki": Fraction(2 ** 10), "Mi": Fraction(2 ** 20), "Gi": Fraction(2 ** 30), "Ti": Fraction(2 ** 40),
           "Pi": Fraction(2 ** 50), "Ei": Fraction(2 ** 60)}
#: the grammar of k8s.io/apimachinery's resource.ParseQuantity: a signed decimal, then a suffix or an exponent
_QUANTITY = re.compile(r"^([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:([eE][+-]?[0-9]+)|([a-zA-Z]*))$")


def parse(value: Any) -> Optional[Fraction]:
    """The quantity's value, or None when Kubernetes would not parse it (the schema check reports that)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(str(value))
    if not isinstance(value, str):
        return None
    found = _QUANTITY.match(value.strip())
    if not found:
        return None
    number, exponent, suffix = found.groups()
    if exponent:
        return Fraction(number) * Fraction(10) ** int(exponent[1:])
    scale = _SUFFIX.get(suffix or "")
    return None if scale is None else Fraction(number) * scale
