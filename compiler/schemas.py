"""Built-in JSON Schemas: the registry, and a fast validator compiled from them.

Registry
    ``schemas/index.json`` maps ``apiVersion/kind`` to a schema file, or (for
    Volcano kinds) to one file per Volcano release plus a default release.
    The index and each schema are read on first use (compact JSON) and every
    validator is built once per process.

Validator
    The schemas are Kubernetes *structural* schemas (converted from CRDs by
    ``scripts/gen_schemas.py``) plus our own hand-written ones, so only a small
    subset of JSON Schema is needed: ``type`` (also a list), ``properties``,
    ``additionalProperties`` (bool or schema), ``required``, ``items``,
    ``enum``, ``const``, ``pattern``, ``minimum``/``maximum`` (and exclusive
    forms), ``minLength``/``maxLength``, ``minItems``/``maxItems``,
    ``uniqueItems``, ``nullable``, ``format`` (``int32``/``int64`` ranges,
    ``date-time``, ``byte``), ``x-kubernetes-preserve-unknown-fields``,
    ``anyOf``/``oneOf``/``allOf``/``not``, ``dependentRequired`` and local
    ``$ref``.  Each schema node is compiled once, lazily, into a Python
    closure, so validating a document is a walk over the data with no
    keyword interpretation.  ``python-jsonschema`` stays the reference: the
    test suite runs both over the samples and a negative corpus and checks
    that they agree; it is never imported here.

Findings
    Every problem becomes a :class:`~ascend_compile.findings.Finding` with one of
    the rule IDs in :data:`SCHEMA_RULES`.  :func:`validate_document` locates
    each one at its YAML node; :func:`validate_object` (used on the
    compiler's own output) leaves locations empty.
"""
from __future__ import annotations

import datetime as _dt
import difflib
import json
import os
import re
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .findings import ERROR, WARNING, Finding, Path, format_path

# --------------------------------------------------------------------------- rule IDs

UNKNOWN_FIELD = "AC101"
WRONG_TYPE = "AC102"
MISSING_REQUIRED = "AC103"
NOT_ALLOWED_VALUE = "AC104"
BAD_FORMAT = "AC105"
UNKNOWN_KIND = "AC106"
NOT_AN_OBJECT = "AC107"

#: (ID, short name, summary) of the schema rules, like ``yamlio.INPUT_RULES``.
SCHEMA_RULES = (
    (UNKNOWN_FIELD, "unknown-field",
     "A field that the schema of this kind does not define (often a typo); the API server rejects or drops it."),
    (WRONG_TYPE, "wrong-type",
     "A value has the wrong type, e.g. a number where the API wants a string."),
    (MISSING_REQUIRED, "missing-required",
     "A required field is missing."),
    (NOT_ALLOWED_VALUE, "not-allowed-value",
     "A value is not one of the values the schema allows."),
    (BAD_FORMAT, "bad-format",
     "A value does not match the required pattern, range or format (e.g. a resource quantity)."),
    (UNKNOWN_KIND, "unknown-kind",
     "No built-in schema for this apiVersion and kind, so the object was not checked."),
    (NOT_AN_OBJECT, "not-an-object",
     "A document is not a mapping, or lacks apiVersion or kind."),
)

#: Volcano releases with schemas, as accepted by ``--volcano-version``.
VOLCANO_VERSIONS = ("1.9", "1.15")


class SchemaError(Exception):
    """A built-in schema or the index is broken (a packaging bug, not a user error)."""


# --------------------------------------------------------------------------- raw errors
# A validation error while walking: (rule, path, message, hint, at_key).
# ``path`` is a cons list (parent, element) built while descending; it is only
# turned into a tuple when an error is reported.

_Err = Tuple[str, Any, str, str, bool]
_Check = Callable[[Any, Any, List[_Err]], None]


def _path_tuple(cons: Any) -> Path:
    out: List[Any] = []
    while cons is not None:
        cons, element = cons
        out.append(element)
    out.reverse()
    return tuple(out)


# Python type -> JSON kind.  YAML timestamps (unquoted dates) count as strings:
# Kubernetes reads YAML through JSON, where they stay text.
_KIND = {
    dict: "object", list: "array", str: "string", int: "integer", float: "number",
    bool: "boolean", type(None): "null", _dt.date: "string", _dt.datetime: "string",
}
_ARTICLE = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
            "number": "a number", "boolean": "a boolean", "null": "null"}


def _kind_of(value: Any) -> str:
    kind = _KIND.get(type(value))
    if kind is None:
        if isinstance(value, bool):
            return "boolean"
        if isinstance(value, int):
            return "integer"
        if isinstance(value, float):
            return "number"
        if isinstance(value, str):
            return "string"
        if isinstance(value, dict):
            return "object"
        if isinstance(value, (list, tuple)):
            return "array"
        if isinstance(value, (_dt.date, _dt.datetime)):
            return "string"
        return "object"
    return kind


def _type_ok(kind: str, value: Any, allowed: frozenset) -> bool:
    if kind in allowed:
        return True
    if kind == "integer":
        return "number" in allowed
    if kind == "number":
        return "integer" in allowed and value == value and value not in (float("inf"), float("-inf")) \
            and float(value).is_integer()
    return False


def _short(value: Any, limit: int = 40) -> str:
    if isinstance(value, (_dt.date, _dt.datetime)):
        text = value.isoformat()
    elif isinstance(value, (dict, list)):
        text = "{...}" if isinstance(value, dict) else "[...]"
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    return str(key)


def _type_hint(expected: Sequence[str], value: Any, kind: str) -> str:
    if kind == "null":
        return 'an empty value (or null, ~) is null in YAML: give it a value, or write "" for an empty string'
    if "string" in expected and kind in ("integer", "number", "boolean"):
        text = json.dumps(value) if kind == "boolean" else str(value)
        return f'quote it: "{text}" (YAML reads unquoted {text} as {_ARTICLE[kind]})'
    if kind == "string" and isinstance(value, str):
        if ("integer" in expected or "number" in expected) and re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
            return f"remove the quotes: {value.strip()}"
        if "boolean" in expected and value.lower() in ("true", "false"):
            return f"remove the quotes: {value.lower()}"
    if "array" in expected and kind in ("object", "string", "integer", "number", "boolean"):
        return "make it a list (items start with '- ')"
    if "object" in expected and kind == "array":
        return "make it a mapping of key: value pairs, not a list"
    return ""


def _describe_types(types: Sequence[str]) -> str:
    names = [_ARTICLE.get(t, t) for t in types if t != "null"]
    text = " or ".join(names) if names else "null"
    return text


_FORMAT_RANGES = {"int32": (-(2 ** 31), 2 ** 31 - 1), "int64": (-(2 ** 63), 2 ** 63 - 1)}
_DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
_BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
_QUANTITY_MARK = "[KMGTPE]i"

_REGEX_CACHE: Dict[str, "re.Pattern[str]"] = {}


def _regex(pattern: str) -> "re.Pattern[str]":
    compiled = _REGEX_CACHE.get(pattern)
    if compiled is None:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise SchemaError(f"bad pattern {pattern!r}: {exc}") from None
        _REGEX_CACHE[pattern] = compiled
    return compiled


# Keywords that only annotate (never fail validation).
_ANNOTATIONS = frozenset({
    "description", "title", "default", "examples", "example", "$schema", "$id", "$comment",
    "nullable", "readOnly", "writeOnly", "deprecated", "$defs", "definitions", "format",
})
_SUPPORTED = frozenset({
    "type", "properties", "additionalProperties", "required", "items", "enum", "const", "pattern",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "anyOf", "oneOf",
    "allOf", "not", "dependentRequired", "$ref", "multipleOf",
}) | _ANNOTATIONS


def _suggest(name: str, allowed: Sequence[str]) -> Optional[str]:
    lowered = {a.lower(): a for a in allowed}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.75)
    if close:
        return close[0]
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def _unknown_field(path: Any, key: Any, allowed: Sequence[str], props: Dict[str, Any]) -> _Err:
    name = _key_text(key)
    guess = _suggest(name, allowed)
    owners = sorted(child for child, sub in props.items()
                    if isinstance(sub, dict) and name in (sub.get("properties") or {}))
    if owners:
        hint = f'"{name}" belongs under "{owners[0]}": move it there'
    elif guess:
        hint = f'did you mean "{guess}"?'
    elif allowed:
        shown = ", ".join(sorted(allowed)[:12])
        hint = f"allowed fields here: {shown}" + (", ..." if len(allowed) > 12 else "")
    else:
        hint = "no fields are allowed here"
    return (UNKNOWN_FIELD, (path, key), f'unknown field "{name}"', hint, True)


class _Compiler:
    """Turns one schema (and its sub-schemas, lazily) into check closures."""

    def __init__(self, root: Dict[str, Any], strict: bool):
        self.root = root
        self.strict = strict
        self.refs: Dict[str, List[Optional[_Check]]] = {}

    # A cell is a one-element list holding the compiled check, filled on first use.
    def lazy(self, schema: Any) -> Callable[[], _Check]:
        cell: List[Optional[_Check]] = [None]

        def get() -> _Check:
            fn = cell[0]
            if fn is None:
                fn = cell[0] = self.compile(schema)
            return fn

        return get

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#"):
            raise SchemaError(f"only local $ref is supported, not {ref!r}")
        node: Any = self.root
        for part in ref[1:].split("/")[1:] if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            try:
                node = node[int(part)] if isinstance(node, list) else node[part]
            except (KeyError, IndexError, ValueError):
                raise SchemaError(f"unresolvable $ref {ref!r}") from None
        return node

    def compile(self, schema: Any) -> _Check:  # noqa: C901 - one keyword per branch
        if schema is True or schema == {}:
            return _accept
        if schema is False:
            def reject(value: Any, path: Any, errs: List[_Err]) -> None:
                errs.append((UNKNOWN_FIELD, path, "no value is allowed here", "", False))
            return reject
        if not isinstance(schema, dict):
            raise SchemaError(f"schema node is not an object: {schema!r}")
        for key in schema:
            if key not in _SUPPORTED and not key.startswith("x-"):
                raise SchemaError(f"unsupported schema keyword {key!r}")

        parts: List[_Check] = []  # run in order; each handles its own types

        if "$ref" in schema:
            ref = schema["$ref"]
            cell = self.refs.get(ref)
            if cell is None:
                cell = self.refs[ref] = [None]
                cell[0] = self.compile(self.resolve(ref))
            ref_cell = cell

            def check_ref(value: Any, path: Any, errs: List[_Err]) -> None:
                fn = ref_cell[0]
                if fn is not None:
                    fn(value, path, errs)
            parts.append(check_ref)

        types = schema.get("type")
        if types is not None:
            type_list = [types] if isinstance(types, str) else list(types)
            if schema.get("nullable") is True and "null" not in type_list:
                type_list.append("null")
        else:
            type_list = []
        allowed = frozenset(type_list)

        obj = self._object_check(schema)
        arr = self._array_check(schema)
        text = self._string_check(schema)
        num = self._number_check(schema)
        generic = self._generic_checks(schema)

        if not allowed and obj is None and arr is None and text is None and num is None and not generic \
                and not parts:
            return _accept

        # Fast paths for the common leaves.
        if not parts and not generic and obj is None and arr is None and num is None and text is None:
            if allowed == {"string"}:
                return _only_string
            if allowed == {"boolean"}:
                return _only_boolean
            if allowed == {"integer"}:
                return _only_integer

        expected = sorted(allowed)

        def check(value: Any, path: Any, errs: List[_Err]) -> None:
            kind = _KIND.get(type(value)) or _kind_of(value)
            if allowed and kind not in allowed and not _type_ok(kind, value, allowed):
                errs.append((WRONG_TYPE, path,
                             f"expected {_describe_types(expected)}, got {_ARTICLE[kind]}"
                             + ("" if kind in ("object", "array", "null") else f" ({_short(value)})"),
                             _type_hint(expected, value, kind), False))
                for fn in generic:  # enum/const still apply (reported like the reference does)
                    fn(value, path, errs)
                return
            for fn in parts:
                fn(value, path, errs)
            if kind == "object":
                if obj is not None:
                    obj(value, path, errs)
            elif kind == "array":
                if arr is not None:
                    arr(value, path, errs)
            elif kind == "string":
                if text is not None and isinstance(value, str):
                    text(value, path, errs)
            elif kind == "integer" or kind == "number":
                if num is not None:
                    num(value, path, errs)
            for fn in generic:
                fn(value, path, errs)

        return check

    # ---------------------------------------------------------------- objects

    def _object_check(self, schema: Dict[str, Any]) -> Optional[_Check]:
        raw_props: Dict[str, Any] = schema.get("properties") or {}
        required: Tuple[str, ...] = tuple(schema.get("required") or ())
        addl = schema.get("additionalProperties", None)
        preserve = schema.get("x-kubernetes-preserve-unknown-fields") is True
        dep_required: Dict[str, List[str]] = schema.get("dependentRequired") or {}
        min_props = schema.get("minProperties")
        max_props = schema.get("maxProperties")
        if not raw_props and not required and addl in (None, True) and not dep_required \
                and min_props is None and max_props is None:
            return None
        if addl is False and (preserve or not self.strict):
            addl = None
        if addl is True:
            addl = None
        addl_get = self.lazy(addl) if isinstance(addl, dict) else None
        reject_unknown = addl is False
        allowed_names = sorted(raw_props)
        compiled: Dict[str, _Check] = {}
        compile_ = self.compile

        def check_object(value: Dict[Any, Any], path: Any, errs: List[_Err]) -> None:
            for key, item in value.items():
                if type(key) is not str:
                    key = _key_text(key)  # YAML 1: or true: keys reach the API server as strings
                fn = compiled.get(key)
                if fn is None:
                    sub = raw_props.get(key)
                    if sub is not None:
                        fn = compiled[key] = compile_(sub)
                    elif addl_get is not None:
                        fn = addl_get()
                    elif reject_unknown:
                        errs.append(_unknown_field(path, key, allowed_names, raw_props))
                        continue
                    else:
                        continue
                fn(item, (path, key), errs)
            if required:
                for name in required:
                    if name not in value:
                        errs.append((MISSING_REQUIRED, (path, name), f'missing required field "{name}"',
                                     "", False))
            if dep_required:
                for name, needs in dep_required.items():
                    if name in value:
                        for need in needs:
                            if need not in value:
                                errs.append((MISSING_REQUIRED, (path, need),
                                             f'missing field "{need}", required when "{name}" is set',
                                             "", False))
            if min_props is not None and len(value) < min_props:
                errs.append((BAD_FORMAT, path, f"has {len(value)} fields, fewer than the minimum {min_props}",
                             "", False))
            if max_props is not None and len(value) > max_props:
                errs.append((BAD_FORMAT, path, f"has {len(value)} fields, more than the maximum {max_props}",
                             "", False))

        return check_object

    # ---------------------------------------------------------------- arrays

    def _array_check(self, schema: Dict[str, Any]) -> Optional[_Check]:
        items = schema.get("items")
        min_items = schema.get("minItems")
        max_items = schema.get("maxItems")
        unique = schema.get("uniqueItems") is True
        if items is None and min_items is None and max_items is None and not unique:
            return None
        if isinstance(items, list):
            raise SchemaError("tuple-form items is not supported")
        item_get = self.lazy(items) if items not in (None, True, {}) else None

        def check_array(value: List[Any], path: Any, errs: List[_Err]) -> None:
            if item_get is not None:
                fn = item_get()
                for index, item in enumerate(value):
                    fn(item, (path, index), errs)
            if min_items is not None and len(value) < min_items:
                errs.append((BAD_FORMAT, path,
                             f"has {len(value)} item{'s' if len(value) != 1 else ''}, "
                             f"fewer than the minimum {min_items}", "", False))
            if max_items is not None and len(value) > max_items:
                errs.append((BAD_FORMAT, path, f"has {len(value)} items, more than the maximum {max_items}",
                             "", False))
            if unique:
                seen: List[str] = []
                for item in value:
                    marker = json.dumps(item, sort_keys=True, default=str)
                    if marker in seen:
                        errs.append((BAD_FORMAT, path, f"repeats the item {_short(item)}",
                                     "list items must be unique", False))
                        break
                    seen.append(marker)

        return check_array

    # ---------------------------------------------------------------- strings

    def _string_check(self, schema: Dict[str, Any]) -> Optional[_Check]:
        pattern = schema.get("pattern")
        min_len = schema.get("minLength")
        max_len = schema.get("maxLength")
        fmt = schema.get("format")
        fmt_re = {"date-time": _DATE_TIME, "byte": _BASE64}.get(fmt or "")
        if pattern is None and min_len is None and max_len is None and fmt_re is None:
            return None
        regex = _regex(pattern) if pattern is not None else None
        quantity = bool(pattern and _QUANTITY_MARK in pattern)

        def check_string(value: str, path: Any, errs: List[_Err]) -> None:
            if regex is not None and regex.search(value) is None:
                if quantity:
                    errs.append((BAD_FORMAT, path, f"{_short(value)} is not a valid quantity",
                                 "use a number with an optional suffix, e.g. 8, 500m, 32Gi, 1.5", False))
                else:
                    errs.append((BAD_FORMAT, path, f"{_short(value)} does not match the pattern {pattern}",
                                 "", False))
            if min_len is not None and len(value) < min_len:
                errs.append((BAD_FORMAT, path,
                             f"{_short(value)} is shorter than {min_len} character{'s' if min_len != 1 else ''}",
                             "", False))
            if max_len is not None and len(value) > max_len:
                errs.append((BAD_FORMAT, path, f"is {len(value)} characters long, more than the maximum {max_len}",
                             "", False))
            if fmt_re is not None and fmt_re.match(value) is None:
                example = "2024-05-01T12:00:00Z" if fmt == "date-time" else "base64 text"
                errs.append((BAD_FORMAT, path, f"{_short(value)} is not a valid {fmt} value",
                             f"expected {example}", False))

        return check_string

    # ---------------------------------------------------------------- numbers

    def _number_check(self, schema: Dict[str, Any]) -> Optional[_Check]:
        minimum = schema.get("minimum")
        maximum = schema.get("maximum")
        ex_min = schema.get("exclusiveMinimum")
        ex_max = schema.get("exclusiveMaximum")
        multiple = schema.get("multipleOf")
        fmt_range = _FORMAT_RANGES.get(schema.get("format") or "")
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
        fmt = schema.get("format")

        def check_number(value: Any, path: Any, errs: List[_Err]) -> None:
            if minimum is not None and value < minimum:
                errs.append((BAD_FORMAT, path, f"{_short(value)} is less than the minimum {minimum}", "", False))
            if maximum is not None and value > maximum:
                errs.append((BAD_FORMAT, path, f"{_short(value)} is more than the maximum {maximum}", "", False))
            if ex_min is not None and value <= ex_min:
                errs.append((BAD_FORMAT, path, f"{_short(value)} must be more than {ex_min}", "", False))
            if ex_max is not None and value >= ex_max:
                errs.append((BAD_FORMAT, path, f"{_short(value)} must be less than {ex_max}", "", False))
            if multiple is not None and value % multiple:
                errs.append((BAD_FORMAT, path, f"{_short(value)} is not a multiple of {multiple}", "", False))
            if fmt_range is not None and (isinstance(value, int) or float(value).is_integer()):
                if not fmt_range[0] <= value <= fmt_range[1]:
                    errs.append((BAD_FORMAT, path, f"{_short(value)} is out of range for {fmt}",
                                 f"use a value from {fmt_range[0]} to {fmt_range[1]}", False))

        return check_number

    # ---------------------------------------------------------------- enum, const, combinators

    def _generic_checks(self, schema: Dict[str, Any]) -> List[_Check]:
        checks: List[_Check] = []
        if "enum" in schema:
            choices = list(schema["enum"])
            keys = {_eq_key(c) for c in choices}
            listed = ", ".join(_short(c, 30) for c in choices[:20]) + (", ..." if len(choices) > 20 else "")

            def check_enum(value: Any, path: Any, errs: List[_Err]) -> None:
                if _eq_key(value) not in keys:
                    guess = None
                    if isinstance(value, str):
                        guess = _suggest(value, [c for c in choices if isinstance(c, str)])
                    hint = f"allowed values: {listed}"
                    if guess:
                        hint = f'did you mean "{guess}"? ' + hint
                    errs.append((NOT_ALLOWED_VALUE, path, f"{_short(value)} is not an allowed value", hint, False))
            checks.append(check_enum)
        if "const" in schema:
            const = schema["const"]
            const_key = _eq_key(const)

            def check_const(value: Any, path: Any, errs: List[_Err]) -> None:
                if _eq_key(value) != const_key:
                    errs.append((NOT_ALLOWED_VALUE, path, f"{_short(value)} is not allowed here",
                                 f"the only allowed value is {_short(const)}", False))
            checks.append(check_const)
        for sub in schema.get("allOf") or ():
            checks.append(self._deferred(sub))
        if schema.get("anyOf"):
            checks.append(self._any_of(schema["anyOf"], one=False))
        if schema.get("oneOf"):
            checks.append(self._any_of(schema["oneOf"], one=True))
        if "not" in schema:
            get = self.lazy(schema["not"])

            def check_not(value: Any, path: Any, errs: List[_Err]) -> None:
                trial: List[_Err] = []
                get()(value, path, trial)
                if not trial:
                    errs.append((NOT_ALLOWED_VALUE, path, f"{_short(value)} is not allowed here", "", False))
            checks.append(check_not)
        return checks

    def _deferred(self, schema: Any) -> _Check:
        get = self.lazy(schema)

        def run(value: Any, path: Any, errs: List[_Err]) -> None:
            get()(value, path, errs)
        return run

    def _any_of(self, branches: List[Any], one: bool) -> _Check:
        getters = [self.lazy(b) for b in branches]

        def check_any(value: Any, path: Any, errs: List[_Err]) -> None:
            results = []
            for get in getters:
                trial: List[_Err] = []
                get()(value, path, trial)
                if not trial and not one:
                    return
                results.append(trial)
            passing = sum(1 for r in results if not r)
            if one and passing == 1:
                return
            if one and passing > 1:
                errs.append((BAD_FORMAT, path, "matches more than one of the allowed forms",
                             "remove the fields that belong to the other forms", False))
                return
            # Report the branch that got furthest: fewest errors not about the value's own type.
            def score(trial: List[_Err]) -> Tuple[int, int]:
                own_type = sum(1 for e in trial if e[0] == WRONG_TYPE and e[1] is path)
                return (own_type, len(trial))
            best = min(results, key=score)
            if score(best)[0]:
                kinds = sorted({k for e in (r[0] for r in results if r) if e[0] == WRONG_TYPE and e[1] is path
                                for k in _expected_kinds(e[2])})
                errs.append((WRONG_TYPE, path, f"{_short(value)} does not match any allowed form"
                             + (f" (expected {' or '.join(kinds)})" if kinds else ""), "", False))
            else:
                errs.extend(best)

        return check_any


def _expected_kinds(message: str) -> List[str]:
    match = re.match(r"expected (.*?), got", message)
    return [match.group(1)] if match else []


def _eq_key(value: Any) -> Any:
    """Equality as JSON Schema sees it: booleans differ from numbers, 1 == 1.0."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", value)
    if isinstance(value, (dict, list)):
        return ("json", json.dumps(value, sort_keys=True, default=str))
    if isinstance(value, (_dt.date, _dt.datetime)):
        return ("str", value.isoformat())
    return (type(value).__name__, value)


def _accept(value: Any, path: Any, errs: List[_Err]) -> None:
    return None


def _wrong(expected: str, value: Any, path: Any, errs: List[_Err]) -> None:
    kind = _kind_of(value)
    errs.append((WRONG_TYPE, path,
                 f"expected {_ARTICLE[expected]}, got {_ARTICLE[kind]}"
                 + ("" if kind in ("object", "array", "null") else f" ({_short(value)})"),
                 _type_hint((expected,), value, kind), False))


def _only_string(value: Any, path: Any, errs: List[_Err]) -> None:
    if type(value) is not str and _kind_of(value) != "string":
        _wrong("string", value, path, errs)


def _only_boolean(value: Any, path: Any, errs: List[_Err]) -> None:
    if type(value) is not bool:
        _wrong("boolean", value, path, errs)


def _only_integer(value: Any, path: Any, errs: List[_Err]) -> None:
    if type(value) is not int and not (type(value) is float and value.is_integer()):
        _wrong("integer", value, path, errs)


# --------------------------------------------------------------------------- validators


class Validator:
    """One compiled schema.  ``errors(data)`` returns raw errors, fast."""

    def __init__(self, schema: Dict[str, Any], strict: bool = True, name: str = ""):
        self.name = name
        self.strict = strict
        self._check = _Compiler(schema, strict).compile(schema)

    def errors(self, data: Any) -> List[_Err]:
        errs: List[_Err] = []
        self._check(data, None, errs)
        return errs

    def is_valid(self, data: Any) -> bool:
        return not self.errors(data)

    def iter_problems(self, data: Any) -> List[Tuple[str, Path, str, str, bool]]:
        """Errors with tuple paths: (rule, path, message, hint, at_key)."""
        return [(rule, _path_tuple(path), message, hint, at_key)
                for rule, path, message, hint, at_key in self.errors(data)]


class Registry:
    """apiVersion/kind -> schema file -> compiled validator, all loaded on first use."""

    def __init__(self, directory: Optional[str] = None):
        if directory is None:
            from .resources import schemas_dir

            directory = schemas_dir()
        self.directory = directory
        self._index: Optional[Dict[str, Any]] = None
        self._schemas: Dict[str, Dict[str, Any]] = {}
        self._validators: Dict[Tuple[str, bool], Validator] = {}

    @property
    def index(self) -> Dict[str, Any]:
        if self._index is None:
            path = os.path.join(self.directory, "index.json")
            try:
                with open(path, encoding="utf-8") as handle:
                    loaded = json.load(handle)
            except (OSError, ValueError) as exc:
                raise SchemaError(f"cannot read the schema index {path}: {exc}") from None
            self._index = loaded.get("kinds", {})
        return self._index

    def kinds(self) -> List[str]:
        return sorted(self.index)

    def schema_file(self, api_version: str, kind: str, volcano_version: Optional[str] = None) -> Optional[str]:
        entry = self.index.get(f"{api_version}/{kind}")
        if entry is None:
            return None
        if "file" in entry:
            return entry["file"]
        variants = entry.get("volcano") or {}
        wanted = normalize_volcano_version(volcano_version) if volcano_version else entry.get("default")
        if wanted not in variants:
            raise SchemaError(f"no {kind} schema for Volcano {wanted}; have {', '.join(sorted(variants))}")
        return variants[wanted]

    def schema(self, file: str) -> Dict[str, Any]:
        schema = self._schemas.get(file)
        if schema is None:
            path = os.path.join(self.directory, file)
            try:
                with open(path, encoding="utf-8") as handle:
                    schema = json.load(handle)
            except (OSError, ValueError) as exc:
                raise SchemaError(f"cannot read the built-in schema {path}: {exc}") from None
            self._schemas[file] = schema
        return schema

    def validator(self, file: str, strict: bool = True) -> Validator:
        key = (file, strict)
        validator = self._validators.get(key)
        if validator is None:
            validator = self._validators[key] = Validator(self.schema(file), strict, file)
        return validator

    def validator_for(self, api_version: str, kind: str, strict: bool = True,
                      volcano_version: Optional[str] = None) -> Optional[Validator]:
        file = self.schema_file(api_version, kind, volcano_version)
        return None if file is None else self.validator(file, strict)


def normalize_volcano_version(text: str) -> str:
    """'1.9', '1.9.0', 'v1.15.0' -> '1.9' / '1.15'; raises ValueError for others."""
    match = re.fullmatch(r"v?(\d+)\.(\d+)(?:\.\d+)?", text.strip())
    if not match:
        raise ValueError(f"not a Volcano version: {text!r}")
    minor = f"{int(match.group(1))}.{int(match.group(2))}"
    if minor not in VOLCANO_VERSIONS:
        raise ValueError(f"no schemas for Volcano {minor}; choose one of {', '.join(VOLCANO_VERSIONS)}")
    return minor


_REGISTRY: Optional[Registry] = None


def registry() -> Registry:
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = Registry()
    return _REGISTRY


# --------------------------------------------------------------------------- public API


def describe_object(data: Any) -> str:
    """``Kind/namespace/name`` (namespace left out when not set)."""
    if not isinstance(data, dict):
        return ""
    kind = data.get("kind") if isinstance(data.get("kind"), str) else "?"
    meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    name = meta.get("name") or meta.get("generateName") or ""
    namespace = meta.get("namespace")
    parts = [kind] + ([str(namespace)] if namespace else []) + ([str(name)] if name else [])
    return "/".join(parts)


def _check(data: Any, prefix: Path, strict: bool, strict_kinds: bool,
           volcano_version: Optional[str], reg: Registry) -> List[Tuple[str, str, Path, str, str, bool, str]]:
    """Problems as (rule, severity, path, message, hint, at_key, obj)."""
    out: List[Tuple[str, str, Path, str, str, bool, str]] = []
    if not isinstance(data, dict):
        out.append((NOT_AN_OBJECT, ERROR, prefix,
                    f"the document is {_ARTICLE[_kind_of(data)]}, not a Kubernetes object",
                    "a manifest is a mapping with apiVersion, kind and metadata", False, ""))
        return out
    obj = describe_object(data)
    api_version, kind = data.get("apiVersion"), data.get("kind")
    missing = [name for name, value in (("apiVersion", api_version), ("kind", kind))
               if not isinstance(value, str) or not value]
    if missing:
        out.append((NOT_AN_OBJECT, ERROR, prefix,
                    f"the object has no {' or '.join(missing)}" if all(
                        data.get(m) in (None, "") for m in missing)
                    else f"{' and '.join(missing)} must be non-empty strings",
                    "every manifest needs apiVersion and kind, e.g. apiVersion: mindxdl.gitee.com/v1, "
                    "kind: AscendJob", False, obj))
        return out
    if api_version == "v1" and kind == "List" and isinstance(data.get("items"), list):
        for index, item in enumerate(data["items"]):
            out.extend(_check(item, prefix + ("items", index), strict, strict_kinds, volcano_version, reg))
        return out
    validator = reg.validator_for(api_version, kind, strict, volcano_version)
    if validator is None:
        severity = ERROR if strict_kinds else WARNING
        known = ", ".join(reg.kinds())
        out.append((UNKNOWN_KIND, severity, prefix + ("kind",) if prefix else ("kind",),
                    f"no built-in schema for {api_version} {kind}; the object was not checked",
                    f"known kinds: {known}" + ("" if strict_kinds else "; --strict-kinds makes this an error"),
                    False, obj))
        return out
    for rule, path, message, hint, at_key in validator.iter_problems(data):
        out.append((rule, ERROR, prefix + path, message, hint, at_key, obj))
    return out


def validate_object(obj: Any, strict: bool = True, volcano_version: Optional[str] = None,
                    strict_kinds: bool = False, source: str = "",
                    reg: Optional[Registry] = None) -> List[Finding]:
    """Check one object (a dict from the compiler, say); Findings carry no line/column."""
    problems = _check(obj, (), strict, strict_kinds, volcano_version, reg or registry())
    return [Finding(rule=rule, severity=sev, message=message, path=path, hint=hint, file=source, obj=name)
            for rule, sev, path, message, hint, _at_key, name in problems]


def _scalar_text(doc: Any, path: Path) -> Optional[str]:
    """The source text of the scalar at ``path`` (``yes`` rather than ``true``)."""
    from .yamlio import _child  # same package: the node walk Document.locate uses

    node = getattr(doc, "node", None)
    for element in path:
        if node is None:
            return None
        node, _key = _child(node, element)
    value = getattr(node, "value", None)
    return value if isinstance(value, str) else None


def validate_document(doc: Any, strict: bool = True, volcano_version: Optional[str] = None,
                      strict_kinds: bool = False, reg: Optional[Registry] = None) -> List[Finding]:
    """Check one parsed :class:`~ascend_compile.yamlio.Document`; Findings point at YAML nodes."""
    problems = _check(doc.data, (), strict, strict_kinds, volcano_version, reg or registry())
    findings = []
    for rule, sev, path, message, hint, at_key, name in problems:
        if rule == MISSING_REQUIRED:
            where = doc.locate(path[:-1])
        elif rule == UNKNOWN_KIND:
            where = doc.locate(path, key=False)
        else:
            where = doc.locate(path, key=at_key)
        if rule == WRONG_TYPE and hint.startswith("quote it:"):
            source = _scalar_text(doc, path)
            match = re.search(r" as (an? \w+|null)\)$", hint)
            if source is not None and match:
                hint = f'quote it: "{source}" (YAML reads unquoted {source} as {match.group(1)})'
        findings.append(Finding(rule=rule, severity=sev, message=message, path=path, hint=hint,
                                file=where.file, line=where.line, column=where.column, obj=name))
    return findings


__all__ = [
    "SCHEMA_RULES", "UNKNOWN_FIELD", "WRONG_TYPE", "MISSING_REQUIRED", "NOT_ALLOWED_VALUE", "BAD_FORMAT",
    "UNKNOWN_KIND", "NOT_AN_OBJECT", "VOLCANO_VERSIONS", "SchemaError", "Validator", "Registry", "registry",
    "validate_document", "validate_object", "normalize_volcano_version", "describe_object", "format_path",
]
