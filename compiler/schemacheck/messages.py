"""What a schema problem is called and how it reads: rule IDs, JSON kinds of values, messages and hints.

The lowest layer of the schema code (``schema_keywords`` and ``schema_validator``
build on it, ``schemas`` re-exports its public names); it imports nothing
heavy, and ``difflib`` only when a suggestion is needed.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Sequence, Tuple

# --------------------------------------------------------------------------- rule IDs
# The IDs, names and summaries are the rule catalogue's (compiler/catalogue/__init__.py), like every other rule's.

from ..catalogue import NOT_AN_OBJECT, SCHEMA, UNKNOWN_FIELD, WRONG_TYPE, entries

#: (ID, short name, summary) of the schema rules
SCHEMA_RULES = tuple((entry.id, entry.name, entry.summary) for entry in entries(SCHEMA))


class SchemaError(Exception):
    """A built-in schema or the index is broken (a packaging bug, not a user error)."""


# --------------------------------------------------------------------------- raw errors
# A validation error while walking: (rule, path, message, hint, at_key).
# ``path`` is a cons list (parent, element) built while descending; it is only
# turned into a tuple when an error is reported.

Err = Tuple[str, Any, str, str, bool]
Check = Callable[[Any, Any, List[Err]], None]


def path_tuple(cons: Any) -> Tuple[Any, ...]:
    out: List[Any] = []
    while cons is not None:
        cons, element = cons
        out.append(element)
    out.reverse()
    return tuple(out)


# --------------------------------------------------------------------------- JSON kinds of Python values

# Python type -> JSON kind.  YAML timestamps (unquoted dates) count as strings:
# Kubernetes reads YAML through JSON, where they stay text (see _is_date).
KIND = {
    dict: "object", list: "array", str: "string", int: "integer", float: "number",
    bool: "boolean", type(None): "null",
}


def _is_date(value: Any) -> bool:
    """A date or time (a YAML timestamp).  Without ``datetime`` imported there can be none: the start-up
    path does not import it (about 1 ms), and nothing makes dates before the YAML loader imports it."""
    dt = sys.modules.get("datetime")
    return dt is not None and isinstance(value, (dt.date, dt.datetime))
ARTICLE = {"object": "an object", "array": "a list", "string": "a string", "integer": "an integer",
           "number": "a number", "boolean": "a boolean", "null": "null"}


#: AC107 when a mapping has neither apiVersion nor kind (with one of them, the message names the other)
NO_API_VERSION_OR_KIND = "the object has no apiVersion or kind"
_NOT_AN_OBJECT_END = ", not a Kubernetes object"


#: AC107 for a list of manifests (kubectl and kustomize refuse it): not another tool's YAML, so discovery keeps it
LIST_OF_OBJECTS = "the document is a list of Kubernetes objects, not one object"


def not_a_mapping_message(value: Any) -> str:
    """AC107 for a document that is no mapping at all."""
    if isinstance(value, list) and any(isinstance(item, dict) and (item.get("apiVersion") or item.get("kind"))
                                       for item in value):
        return LIST_OF_OBJECTS
    return f"the document is {ARTICLE[kind_of(value)]}{_NOT_AN_OBJECT_END}"


def says_no_object(rule: str, message: str) -> bool:
    """Whether a finding is the AC107 of a document that is no object at all: not a mapping, or a mapping with
    neither apiVersion nor kind (a tool's configuration looks like that; a manifest missing one field does not)."""
    return rule == NOT_AN_OBJECT and (message == NO_API_VERSION_OR_KIND or message.endswith(_NOT_AN_OBJECT_END))


def kind_of(value: Any) -> str:
    kind = KIND.get(type(value))
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
        if _is_date(value):
            return "string"
        return "object"
    return kind


def type_ok(kind: str, value: Any, allowed: FrozenSet[str]) -> bool:
    if kind in allowed:
        return True
    if kind == "integer":
        return "number" in allowed
    if kind == "number":
        return "integer" in allowed and value == value and value not in (float("inf"), float("-inf")) \
            and float(value).is_integer()
    return False


def eq_key(value: Any) -> Any:
    """Equality as JSON Schema sees it: booleans differ from numbers, 1 == 1.0."""
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, (int, float)):
        return ("num", value)
    if isinstance(value, (dict, list)):
        import json

        return ("json", json.dumps(value, sort_keys=True, default=str))
    if _is_date(value):
        return ("str", value.isoformat())
    return (type(value).__name__, value)


# --------------------------------------------------------------------------- wording


def short(value: Any, limit: int = 40) -> str:
    if _is_date(value):
        text = str(value.isoformat())
    elif isinstance(value, (dict, list)):
        text = "{...}" if isinstance(value, dict) else "[...]"
    else:
        import json

        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def key_text(key: Any) -> str:
    if isinstance(key, str):
        return key
    if key is True:
        return "true"
    if key is False:
        return "false"
    if key is None:
        return "null"
    return str(key)


def type_hint(expected: Sequence[str], value: Any, kind: str) -> str:
    if kind == "null":
        return 'an empty value (or null, ~) is null in YAML: give it a value, or write "" for an empty string'
    if "string" in expected and kind in ("integer", "number", "boolean"):
        text = ("true" if value else "false") if kind == "boolean" else str(value)
        return f'quote it: "{text}" (YAML reads unquoted {text} as {ARTICLE[kind]})'
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


def describe_types(types: Sequence[str]) -> str:
    names = [ARTICLE.get(t, t) for t in types if t != "null"]
    text = " or ".join(names) if names else "null"
    return text


def secret_looking(path: Any) -> bool:
    """Whether the last key of ``path`` names something secret, so that no message repeats its value
    (:func:`~ascend_compile.vocabulary.never_echoed`)."""
    from ..vocabulary import never_echoed

    return never_echoed(next((p for p in reversed(tuple(path)) if isinstance(p, str)), ""))


def wrong_type(expected: Sequence[str], value: Any, kind: str, path: Any) -> Err:
    """The AC102 error for ``value`` (of JSON kind ``kind``) where ``expected`` types are allowed."""
    shown = kind not in ("object", "array", "null")
    err = (WRONG_TYPE, path, f"expected {describe_types(expected)}, got {ARTICLE[kind]}"
           + (f" ({short(value)})" if shown else ""), type_hint(expected, value, kind), False)
    return hide_value(err, value, "its key looks like a secret") if shown and secret_looking(path) else err


def hide_value(err: Err, value: Any, why: str) -> Err:
    """``err`` (an AC102 error about the scalar ``value``) saying neither in its message nor in its hint what
    ``value`` is, and ``why`` not."""
    rule, path, message, hint, at_key = err
    shown = f" ({short(value)})"
    if message.endswith(shown):
        message = message[:-len(shown)]
    if hint.startswith("quote it:"):
        hint = f"quote it (YAML reads the unquoted value{hint[hint.rfind(' as '):]}"  # ' as an integer)'
    elif hint.startswith("remove the quotes:"):
        hint = "remove the quotes"
    return rule, path, f"{message} (the value is not shown: {why})", hint, at_key


def suggest(name: str, allowed: Sequence[str]) -> Optional[str]:
    import difflib  # only when there is something to suggest

    lowered = {a.lower(): a for a in allowed}
    if name.lower() in lowered:
        return lowered[name.lower()]
    close = difflib.get_close_matches(name, allowed, n=1, cutoff=0.75)
    if close:
        return close[0]
    close = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.75)
    return lowered[close[0]] if close else None


def unknown_field(path: Any, key: Any, allowed: Sequence[str], props: Dict[str, Any]) -> Err:
    name = key_text(key)
    guess = suggest(name, allowed)
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


def expected_kinds(message: str) -> List[str]:
    match = re.match(r"expected (.*?), got", message)
    return [match.group(1)] if match else []
