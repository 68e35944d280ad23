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
#: a quantity with more digits, or a larger exponent, reads as None: no resource is that large, and 10 ** 9999999
#: takes seconds to compute (Python refuses to convert more than 4300 digits anyway)
MAX_EXPONENT = 1000


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
    if not found or len(found.group(1)) > MAX_EXPONENT:
        return None
    number, exponent, suffix = found.groups()
    if exponent:
        power = int(exponent[1:]) if len(exponent) < 8 else MAX_EXPONENT + 1
        return None if abs(power) > MAX_EXPONENT else Fraction(number) * Fraction(10) ** power
    scale = _SUFFIX.get(suffix or "")
    return None if scale is None else Fraction(number) * scale


_BINARY = ("", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei")
_DECIMAL = {-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
_POWER = {suffix: power for power, suffix in _DECIMAL.items()}


def canonical(value: Any) -> Optional[str]:
    """What Kubernetes' ``resource.Quantity.String()`` gives for the value, or None when it does not parse.

    A value already written the canonical way keeps its text (``ParseQuantity``'s test: "1e0", "1Ki");
    any other is rewritten with the smallest integer mantissa and an exponent that is a multiple of 3,
    in the suffix family it came with ("1000m" -> "1", "1000" -> "1k", "1024Ki" -> "1Mi", "1e1" -> "10").
    """
    amount = parse(value)
    if amount is None or (isinstance(value, int) and abs(value) >= 10 ** MAX_EXPONENT):
        return None
    text = str(value).strip()
    if amount == 0:
        return "0"
    number, exponent, suffix = _QUANTITY.match(text).groups()  # type: ignore[union-attr]
    whole, _, fraction = number.lstrip("+-").partition(".")
    whole = whole.lstrip("0") or "0"
    if suffix in _BINARY[1:]:
        if not fraction and _kept_binary(whole, 10 * _BINARY.index(suffix)):
            return text
        if amount.denominator == 1 and abs(amount) >= 1024:
            mantissa, power = amount.numerator, 0
            while mantissa % 1024 == 0 and power < len(_BINARY) - 1:
                mantissa, power = mantissa // 1024, power + 1
            return f"{mantissa}{_BINARY[power]}"
    elif _kept_decimal(whole, fraction, int(exponent[1:]) if exponent else _POWER[suffix]):
        return text
    return _decimal(amount, exponent[0] if exponent else None)


def _kept_binary(whole: str, power: int) -> bool:
    return 15 - len(whole) - int(power * 3 / 10) - 1 >= 0 and int(whole) & 7 != 0


def _kept_decimal(whole: str, fraction: str, power: int) -> bool:
    scale, shifted = power - len(fraction), whole + fraction
    return (18 - len(whole) - len(fraction) >= 0 and scale >= -9 and scale % 3 == 0
            and not shifted.endswith("000") and shifted[0] != "0")


def _decimal(amount: Fraction, letter: Optional[str]) -> str:
    """``amount`` as an integer times a power of 1000, with an SI suffix (or an exponent after ``letter``)."""
    amount = Fraction(-((-amount * 10 ** 9) // 1), 10 ** 9)  # Kubernetes keeps nine decimals, rounding up
    exponent = 0
    while amount.denominator != 1:
        amount, exponent = amount * 10, exponent - 1
    number = int(amount)
    while number % 10 == 0:
        number, exponent = number // 10, exponent + 1
    while exponent % 3:
        number, exponent = number * 10, exponent - 1
    suffix = _DECIMAL.get(exponent) if letter is None else ("" if exponent == 0 else None)
    return f"{number}{suffix if suffix is not None else (letter or 'e') + str(exponent)}"
