"""The leaf keywords of the validator: each builds one check closure from one schema node.

Strings (``pattern``, ``minLength``/``maxLength``, ``format`` ``date-time`` and
``byte``), numbers (``minimum``/``maximum`` and exclusive forms, ``multipleOf``,
``format`` ``int32``/``int64`` ranges), array sizes and ``uniqueItems``,
``enum`` and ``const``, and the fast checks for leaves that only have a type.
``schema_validator`` composes them; a builder returns ``None`` when its
keywords are absent, so nothing runs for them.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from ..catalogue import BAD_FORMAT, NOT_ALLOWED_VALUE
from .messages import Check, Err, SchemaError, eq_key, kind_of, short, suggest, wrong_type

FORMAT_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}
#: format patterns, compiled (by :func:`regex`) only when a schema node uses the format
DATE_TIME = r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$"
BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
_QUANTITY_MARK = "[KMGTPE]i"

_REGEX_CACHE: Dict[str, "re.Pattern[str]"] = {}


def regex(pattern: str) -> "re.Pattern[str]":
    compiled = _REGEX_CACHE.get(pattern)
    if compiled is None:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise SchemaError(f"bad pattern {pattern!r}: {exc}") from None
        _REGEX_CACHE[pattern] = compiled
    return compiled


# --------------------------------------------------------------------------- leaves with a type only


def accept(value: Any, path: Any, errs: List[Err]) -> None:
    return None


def only_string(value: Any, path: Any, errs: List[Err]) -> None:
    if type(value) is not str and kind_of(value) != "string":
        errs.append(wrong_type(("string",), value, kind_of(value), path))


def only_boolean(value: Any, path: Any, errs: List[Err]) -> None:
    if type(value) is not bool:
        errs.append(wrong_type(("boolean",), value, kind_of(value), path))


def only_integer(value: Any, path: Any, errs: List[Err]) -> None:
    if type(value) is not int and not (type(value) is float and value.is_integer()):
        errs.append(wrong_type(("integer",), value, kind_of(value), path))


TYPE_ONLY = {frozenset({"string"}): only_string, frozenset({"boolean"}): only_boolean,
             frozenset({"integer"}): only_integer}


# --------------------------------------------------------------------------- strings


def string_check(schema: Dict[str, Any]) -> Optional[Check]:
    pattern = schema.get("pattern")
    min_len = schema.get("minLength")
    max_len = schema.get("maxLength")
    fmt = schema.get("format")
    fmt_pattern = {"date-time": DATE_TIME, "byte": BASE64}.get(fmt or "")
    fmt_re = regex(fmt_pattern) if fmt_pattern else None
    if pattern is None and min_len is None and max_len is None and fmt_re is None:
        return None
    compiled = regex(pattern) if pattern is not None else None
    quantity = bool(pattern and _QUANTITY_MARK in pattern)

    def check_string(value: str, path: Any, errs: List[Err]) -> None:
        if compiled is not None and compiled.search(value) is None:
            if quantity:
                errs.append((BAD_FORMAT, path, f"{short(value)} is not a valid quantity",
                             "use a number with an optional suffix, e.g. 8, 500m, 32Gi, 1.5", False))
            else:
                errs.append((BAD_FORMAT, path, f"{short(value)} does not match the pattern {pattern}",
                             "", False))
        if min_len is not None and len(value) < min_len:
            errs.append((BAD_FORMAT, path,
                         f"{short(value)} is shorter than {min_len} character{'s' if min_len != 1 else ''}",
                         "", False))
        if max_len is not None and len(value) > max_len:
            errs.append((BAD_FORMAT, path, f"is {len(value)} characters long, more than the maximum {max_len}",
                         "", False))
        if fmt_re is not None and fmt_re.match(value) is None:
            example = "2024-05-01T12:00:00Z" if fmt == "date-time" else "base64 text"
            errs.append((BAD_FORMAT, path, f"{short(value)} is not a valid {fmt} value",
                         f"expected {example}", False))

    return check_string


# --------------------------------------------------------------------------- numbers


def number_check(schema: Dict[str, Any]) -> Optional[Check]:
    minimum = schema.get("minimum")
    maximum = schema.get("maximum")
    ex_min = schema.get("exclusiveMinimum")
    ex_max = schema.get("exclusiveMaximum")
    multiple = schema.get("multipleOf")
    fmt = schema.get("format")
    fmt_range = FORMAT_RANGES.get(fmt or "")
    # OpenAPI v3.0 boolean exclusive flags modify minimum/maximum.
    if ex_min is True:
        ex_min, minimum = minimum, None
    elif ex_min is False:
        ex_min = None
    if ex_max is True:
        ex_max, maximum = maximum, None
    elif ex_max is False:
        ex_max = None
    if minimum is None and maximum is None and ex_min is None and ex_max is None and multiple is None \
            and fmt_range is None:
        return None

    def check_number(value: Any, path: Any, errs: List[Err]) -> None:
        if minimum is not None and value < minimum:
            errs.append((BAD_FORMAT, path, f"{short(value)} is less than the minimum {minimum}", "", False))
        if maximum is not None and value > maximum:
            errs.append((BAD_FORMAT, path, f"{short(value)} is more than the maximum {maximum}", "", False))
        if ex_min is not None and value <= ex_min:
            errs.append((BAD_FORMAT, path, f"{short(value)} must be more than {ex_min}", "", False))
        if ex_max is not None and value >= ex_max:
            errs.append((BAD_FORMAT, path, f"{short(value)} must be less than {ex_max}", "", False))
        if multiple is not None and value % multiple:
            errs.append((BAD_FORMAT, path, f"{short(value)} is not a multiple of {multiple}", "", False))
        if fmt_range is not None and (isinstance(value, int) or float(value).is_integer()):
            if not fmt_range[0] <= value <= fmt_range[1]:
                errs.append((BAD_FORMAT, path, f"{short(value)} is out of range for {fmt}",
                             f"use a value from {fmt_range[0]} to {fmt_range[1]}", False))

    return check_number


# --------------------------------------------------------------------------- array sizes


def array_size_check(schema: Dict[str, Any]) -> Optional[Check]:
    """``minItems``, ``maxItems`` and ``uniqueItems`` (``items`` is the validator's: it recurses)."""
    min_items = schema.get("minItems")
    max_items = schema.get("maxItems")
    unique = schema.get("uniqueItems") is True
    if min_items is None and max_items is None and not unique:
        return None

    def check_size(value: List[Any], path: Any, errs: List[Err]) -> None:
        if min_items is not None and len(value) < min_items:
            errs.append((BAD_FORMAT, path,
                         f"has {len(value)} item{'s' if len(value) != 1 else ''}, "
                         f"fewer than the minimum {min_items}", "", False))
        if max_items is not None and len(value) > max_items:
            errs.append((BAD_FORMAT, path, f"has {len(value)} items, more than the maximum {max_items}",
                         "", False))
        if unique:
            import json

            seen: List[str] = []
            for item in value:
                marker = json.dumps(item, sort_keys=True, default=str)
                if marker in seen:
                    errs.append((BAD_FORMAT, path, f"repeats the item {short(item)}",
                                 "list items must be unique", False))
                    break
                seen.append(marker)

    return check_size


# --------------------------------------------------------------------------- enum and const


def enum_check(choices: List[Any]) -> Check:
    keys = {eq_key(c) for c in choices}
    listed = ", ".join(short(c, 30) for c in choices[:20]) + (", ..." if len(choices) > 20 else "")

    def check_enum(value: Any, path: Any, errs: List[Err]) -> None:
        if eq_key(value) not in keys:
            guess = None
            if isinstance(value, str):
                guess = suggest(value, [c for c in choices if isinstance(c, str)])
            hint = f"allowed values: {listed}"
            if guess:
                hint = f'did you mean "{guess}"? ' + hint
            errs.append((NOT_ALLOWED_VALUE, path, f"{short(value)} is not an allowed value", hint, False))

    return check_enum


def const_check(const: Any) -> Check:
    const_key = eq_key(const)

    def check_const(value: Any, path: Any, errs: List[Err]) -> None:
        if eq_key(value) != const_key:
            errs.append((NOT_ALLOWED_VALUE, path, f"{short(value)} is not allowed here",
                         f"the only allowed value is {short(const)}", False))

    return check_const
