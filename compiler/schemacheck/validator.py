"""A fast validator for the strict structural-schema subset of JSON Schema that our schemas use.

The schemas are Kubernetes *structural* schemas (converted from CRDs by
``scripts/gen_schemas.py``) plus our own hand-written ones, so only a small
subset of JSON Schema is needed: ``type`` (also a list), ``properties``,
``additionalProperties`` (bool or schema), ``required``, ``items``, ``enum``,
``const``, ``pattern``, ``minimum``/``maximum`` (and exclusive forms),
``minLength``/``maxLength``, ``minItems``/``maxItems``, ``uniqueItems``,
``minProperties``/``maxProperties``, ``multipleOf``, ``nullable``, ``format``
(``int32``/``int64`` ranges, ``date-time``, ``byte``),
``x-kubernetes-preserve-unknown-fields``, ``anyOf``/``oneOf``/``allOf``/``not``,
``dependentRequired`` and local ``$ref``.  Any other keyword is refused with
:class:`SchemaError`, so a schema can never be checked only in part.

Each schema node is compiled once, lazily, into a Python closure, so
validating a document is a walk over the data with no keyword interpretation.
Why we keep this rather than a library, with the measurements:
``docs/dependencies.md`` (``bench/validators.py`` reproduces them).
``python-jsonschema`` stays the reference: the test suite runs both over the
upstream samples, a negative corpus and mutations of them and checks that
they fail at the same paths; it is never imported here.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple

from .keywords import TYPE_ONLY, accept, array_size_check, const_check, enum_check, number_check, \
    string_check
from ..catalogue import BAD_FORMAT, MISSING_REQUIRED, NOT_ALLOWED_VALUE, UNKNOWN_FIELD, WRONG_TYPE
from .messages import (KIND, Check, Err, SchemaError, expected_kinds, key_text, kind_of, path_tuple, short, type_ok,
                       unknown_field, wrong_type)

# Keywords that only annotate (never fail validation).
_ANNOTATIONS = frozenset({
    "description", "title", "default", "examples", "example", "$schema", "$id", "$comment",
    "nullable", "readOnly", "writeOnly", "deprecated", "$defs", "definitions", "format",
})
SUPPORTED = frozenset({
    "type", "properties", "additionalProperties", "required", "items", "enum", "const", "pattern",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
    "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties", "anyOf", "oneOf",
    "allOf", "not", "dependentRequired", "$ref", "multipleOf",
}) | _ANNOTATIONS


def _reject(value: Any, path: Any, errs: List[Err]) -> None:
    errs.append((UNKNOWN_FIELD, path, "no value is allowed here", "", False))


def _allowed_types(schema: Dict[str, Any]) -> FrozenSet[str]:
    types = schema.get("type")
    if types is None:
        return frozenset()
    type_list = [types] if isinstance(types, str) else list(types)
    if schema.get("nullable") is True and "null" not in type_list:
        type_list.append("null")
    return frozenset(type_list)


def _typed_check(allowed: FrozenSet[str], parts: List[Check], by_kind: Dict[str, Check],
                 generic: List[Check]) -> Check:
    """Check the type, then the keywords of the value's kind, then those of every kind."""
    expected = sorted(allowed)
    obj, arr, text, num = (by_kind.get(k) for k in ("object", "array", "string", "number"))

    def check(value: Any, path: Any, errs: List[Err]) -> None:
        kind = KIND.get(type(value)) or kind_of(value)
        if allowed and kind not in allowed and not type_ok(kind, value, allowed):
            errs.append(wrong_type(expected, value, kind, path))
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


class _Compiler:
    """Turns one schema (and its sub-schemas, lazily) into check closures."""

    def __init__(self, root: Dict[str, Any], strict: bool):
        self.root = root
        self.strict = strict
        self.refs: Dict[str, List[Optional[Check]]] = {}

    # A cell is a one-element list holding the compiled check, filled on first use.
    def lazy(self, schema: Any) -> Callable[[], Check]:
        cell: List[Optional[Check]] = [None]

        def get() -> Check:
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

    def compile(self, schema: Any) -> Check:
        if schema is True or schema == {}:
            return accept
        if schema is False:
            return _reject
        if not isinstance(schema, dict):
            raise SchemaError(f"schema node is not an object: {schema!r}")
        for key in schema:
            if key not in SUPPORTED and not key.startswith("x-"):
                raise SchemaError(f"unsupported schema keyword {key!r}")
        parts = [self._ref_check(schema["$ref"])] if "$ref" in schema else []  # run in order
        allowed = _allowed_types(schema)
        by_kind = {kind: fn for kind, fn in (("object", self._object_check(schema)),
                                             ("array", self._array_check(schema)),
                                             ("string", string_check(schema)),
                                             ("number", number_check(schema))) if fn is not None}
        generic = self._generic_checks(schema)
        if not parts and not generic and not by_kind:
            if not allowed:
                return accept
            fast = TYPE_ONLY.get(allowed)  # fast paths for the common leaves
            if fast is not None:
                return fast
        return _typed_check(allowed, parts, by_kind, generic)

    def _ref_check(self, ref: str) -> Check:
        cell = self.refs.get(ref)
        if cell is None:
            cell = self.refs[ref] = [None]
            cell[0] = self.compile(self.resolve(ref))
        ref_cell = cell

        def check_ref(value: Any, path: Any, errs: List[Err]) -> None:
            fn = ref_cell[0]
            if fn is not None:
                fn(value, path, errs)

        return check_ref

    # ---------------------------------------------------------------- objects

    def _object_check(self, schema: Dict[str, Any]) -> Optional[Check]:
        raw_props: Dict[str, Any] = schema.get("properties") or {}
        required: Tuple[str, ...] = tuple(schema.get("required") or ())
        addl = schema.get("additionalProperties", None)
        preserve = schema.get("x-kubernetes-preserve-unknown-fields") is True
        counts = _object_counts(schema)
        if not raw_props and not required and addl in (None, True) and counts is None:
            return None
        if addl is False and (preserve or not self.strict):
            addl = None
        if addl is True:
            addl = None
        addl_get = self.lazy(addl) if isinstance(addl, dict) else None
        reject_unknown = addl is False
        allowed_names = sorted(raw_props)
        compiled: Dict[str, Check] = {}
        compile_ = self.compile

        def check_object(value: Dict[Any, Any], path: Any, errs: List[Err]) -> None:
            for key, item in value.items():
                if type(key) is not str:
                    key = key_text(key)  # YAML 1: or true: keys reach the API server as strings
                fn = compiled.get(key)
                if fn is None:
                    sub = raw_props.get(key)
                    if sub is not None:
                        fn = compiled[key] = compile_(sub)
                    elif addl_get is not None:
                        fn = addl_get()
                    elif reject_unknown:
                        errs.append(unknown_field(path, key, allowed_names, raw_props))
                        continue
                    else:
                        continue
                fn(item, (path, key), errs)
            if required:
                for name in required:
                    if name not in value:
                        errs.append((MISSING_REQUIRED, (path, name), f'missing required field "{name}"',
                                     "", False))
            if counts is not None:
                counts(value, path, errs)

        return check_object

    # ---------------------------------------------------------------- arrays

    def _array_check(self, schema: Dict[str, Any]) -> Optional[Check]:
        items = schema.get("items")
        size = array_size_check(schema)
        if items is None and size is None:
            return None
        if isinstance(items, list):
            raise SchemaError("tuple-form items is not supported")
        item_get = self.lazy(items) if items not in (None, True, {}) else None

        def check_array(value: List[Any], path: Any, errs: List[Err]) -> None:
            if item_get is not None:
                fn = item_get()
                for index, item in enumerate(value):
                    fn(item, (path, index), errs)
            if size is not None:
                size(value, path, errs)

        return check_array

    # ---------------------------------------------------------------- enum, const, combinators

    def _generic_checks(self, schema: Dict[str, Any]) -> List[Check]:
        checks: List[Check] = []
        if "enum" in schema:
            checks.append(enum_check(list(schema["enum"])))
        if "const" in schema:
            checks.append(const_check(schema["const"]))
        for sub in schema.get("allOf") or ():
            checks.append(self._deferred(sub))
        if schema.get("anyOf"):
            checks.append(self._any_of(schema["anyOf"], one=False))
        if schema.get("oneOf"):
            checks.append(self._any_of(schema["oneOf"], one=True))
        if "not" in schema:
            get = self.lazy(schema["not"])

            def check_not(value: Any, path: Any, errs: List[Err]) -> None:
                trial: List[Err] = []
                get()(value, path, trial)
                if not trial:
                    errs.append((NOT_ALLOWED_VALUE, path, f"{short(value)} is not allowed here", "", False))
            checks.append(check_not)
        return checks

    def _deferred(self, schema: Any) -> Check:
        get = self.lazy(schema)

        def run(value: Any, path: Any, errs: List[Err]) -> None:
            get()(value, path, errs)
        return run

    def _any_of(self, branches: List[Any], one: bool) -> Check:
        getters = [self.lazy(b) for b in branches]

        def check_any(value: Any, path: Any, errs: List[Err]) -> None:
            results = []
            for get in getters:
                trial: List[Err] = []
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
            errs.extend(_best_branch(value, path, results))

        return check_any


def _best_branch(value: Any, path: Any, results: List[List[Err]]) -> List[Err]:
    """What to report when no branch of anyOf/oneOf fits: the branch that got furthest.

    That is the one with the fewest errors about the value's own type; when every
    branch fails on the type, one error naming the types the branches expect.
    """
    def score(trial: List[Err]) -> Tuple[int, int]:
        own_type = sum(1 for e in trial if e[0] == WRONG_TYPE and e[1] is path)
        return (own_type, len(trial))
    best = min(results, key=score)
    if not score(best)[0]:
        return best
    kinds = sorted({k for e in (r[0] for r in results if r) if e[0] == WRONG_TYPE and e[1] is path
                    for k in expected_kinds(e[2])})
    return [(WRONG_TYPE, path, f"{short(value)} does not match any allowed form"
             + (f" (expected {' or '.join(kinds)})" if kinds else ""), "", False)]


def _object_counts(schema: Dict[str, Any]) -> Optional[Check]:
    """``dependentRequired``, ``minProperties`` and ``maxProperties`` of one object schema."""
    dep_required: Dict[str, List[str]] = schema.get("dependentRequired") or {}
    min_props = schema.get("minProperties")
    max_props = schema.get("maxProperties")
    if not dep_required and min_props is None and max_props is None:
        return None

    def check_counts(value: Dict[Any, Any], path: Any, errs: List[Err]) -> None:
        for name, needs in dep_required.items():
            if name in value:
                for need in needs:
                    if need not in value:
                        errs.append((MISSING_REQUIRED, (path, need),
                                     f'missing field "{need}", required when "{name}" is set', "", False))
        if min_props is not None and len(value) < min_props:
            errs.append((BAD_FORMAT, path, f"has {len(value)} fields, fewer than the minimum {min_props}",
                         "", False))
        if max_props is not None and len(value) > max_props:
            errs.append((BAD_FORMAT, path, f"has {len(value)} fields, more than the maximum {max_props}",
                         "", False))

    return check_counts


class Validator:
    """One compiled schema.  ``errors(data)`` returns raw errors, fast."""

    def __init__(self, schema: Dict[str, Any], strict: bool = True, name: str = ""):
        self.name = name
        self.strict = strict
        self._check = _Compiler(schema, strict).compile(schema)

    def errors(self, data: Any) -> List[Err]:
        errs: List[Err] = []
        self._check(data, None, errs)
        return errs

    def is_valid(self, data: Any) -> bool:
        return not self.errors(data)

    def iter_problems(self, data: Any) -> List[Tuple[str, Tuple[Any, ...], str, str, bool]]:
        """Errors with tuple paths: (rule, path, message, hint, at_key)."""
        return [(rule, path_tuple(path), message, hint, at_key)
                for rule, path, message, hint, at_key in self.errors(data)]
