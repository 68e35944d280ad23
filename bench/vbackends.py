"""The JSON Schema validators that ``bench/validators.py`` compares, behind one small interface.

Kept apart from the benchmark script so that a cold-start child imports only this
file (``json``, ``re`` and ``datetime``) plus the backend it measures.

Each backend gives:

* ``build(schema, strict)``: whatever the library compiles a schema into;
* ``raw(compiled, data)``: every error the library reports for one document, in
  the library's own form (the per-document timing calls this);
* ``problems(compiled, data)``: the same errors mapped to our raw findings
  ``(rule, path, message, hint, at_key)``, the way an adapter inside
  ascend-compile would have to (the whole-``validate`` timing calls this).

Our formats (``int32``/``int64`` ranges on numbers, ``date-time``, ``byte``) are
given to every library: the libraries call a custom format only for strings, so
the integer ranges become ``minimum``/``maximum`` in a rewritten copy of the
schema (``library_schema``), which is part of each library's build time.
"""
from __future__ import annotations

import datetime as _dt
import json
import re
from typing import Any, Callable, Dict, List, Tuple

DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")
BASE64 = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
INT_BOUNDS = {"int32": 2 ** 31, "int64": 2 ** 63}

Problem = Tuple[str, Tuple[Any, ...], str, str, bool]


def library_schema(node: Any, strict: bool = True) -> Any:
    """A copy of ``node`` with integer formats as bounds (and, unless strict, unknown fields allowed)."""
    if isinstance(node, list):
        return [library_schema(item, strict) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: library_schema(value, strict) for key, value in node.items()}
    bound = INT_BOUNDS.get(node.get("format") or "")
    if bound is not None:
        out["minimum"] = max(out.get("minimum", -bound), -bound)
        out["maximum"] = min(out.get("maximum", bound - 1), bound - 1)
    if not strict and out.get("additionalProperties") is False:
        del out["additionalProperties"]
    return out


def jsonable(value: Any) -> Any:
    """What a YAML document becomes through JSON: dates as text, keys as strings."""
    if isinstance(value, dict):
        return {key if isinstance(key, str) else json.dumps(key) if key is None or isinstance(key, bool)
                else str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(item) for item in value]
    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.isoformat()
    return value


def _rule(keyword: str) -> str:
    return {"additionalProperties": "AC101", "type": "AC102", "required": "AC103", "enum": "AC104",
            "const": "AC104"}.get(keyword, "AC105")


# --------------------------------------------------------------------------- our validator


class Ours:
    name = "ascend-compile (ours)"
    key = "ours"
    module = "ascend_compile.schemacheck.check"

    @staticmethod
    def version() -> str:
        from ascend_compile._version import __version__

        return __version__

    @staticmethod
    def build(schema: Dict[str, Any], strict: bool = True) -> Any:
        from ascend_compile.schemacheck.validator import Validator

        return Validator(schema, strict)

    @staticmethod
    def raw(compiled: Any, data: Any) -> List[Any]:
        return compiled.errors(data)

    @staticmethod
    def problems(compiled: Any, data: Any) -> List[Problem]:
        return compiled.iter_problems(data)


# --------------------------------------------------------------------------- jsonschema-rs


def _rs_formats() -> Dict[str, Callable[[str], bool]]:
    return {"date-time": lambda text: DATE_TIME.match(text) is not None,
            "byte": lambda text: BASE64.match(text) is not None,
            "int32": lambda text: True, "int64": lambda text: True}


class JsonschemaRs:
    name = "jsonschema-rs"
    key = "rs"
    module = "jsonschema_rs"

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("jsonschema-rs")

    @staticmethod
    def build(schema: Dict[str, Any], strict: bool = True) -> Any:
        import jsonschema_rs

        return jsonschema_rs.Draft202012Validator(library_schema(schema, strict), validate_formats=True,
                                                  formats=_rs_formats())

    @staticmethod
    def raw(compiled: Any, data: Any) -> List[Any]:
        try:
            return list(compiled.iter_errors(data))
        except ValueError:  # a date or a non-string key: only JSON values go in
            return list(compiled.iter_errors(jsonable(data)))

    @staticmethod
    def problems(compiled: Any, data: Any) -> List[Problem]:
        out: List[Problem] = []
        for error in JsonschemaRs.raw(compiled, data):
            kind, path = error.kind, tuple(error.instance_path)
            if kind.name == "additionalProperties":
                out.extend(("AC101", path + (key,), f'unknown field "{key}"', "", True) for key in kind.unexpected)
            elif kind.name == "required":
                out.append(("AC103", path + (kind.property,), f'missing required field "{kind.property}"', "", False))
            else:
                out.append((_rule(kind.name), path, error.message, "", False))
        return out


# --------------------------------------------------------------------------- fastjsonschema


class FastJsonschema:
    name = "fastjsonschema"
    key = "fast"
    module = "fastjsonschema"

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("fastjsonschema")

    @staticmethod
    def build(schema: Dict[str, Any], strict: bool = True) -> Any:
        import fastjsonschema

        formats = {"date-time": DATE_TIME.pattern, "byte": BASE64.pattern, "int32": r"", "int64": r""}
        # fastjsonschema knows drafts 4, 6 and 7 only; our keywords mean the same there.
        return fastjsonschema.compile(dict(library_schema(schema, strict), **{
            "$schema": "http://json-schema.org/draft-07/schema#"}), formats=formats)

    @staticmethod
    def raw(compiled: Any, data: Any) -> List[Any]:
        import fastjsonschema

        try:
            compiled(data)
        except fastjsonschema.JsonSchemaValueException as error:  # it stops at the first error
            return [error]
        return []

    @staticmethod
    def problems(compiled: Any, data: Any) -> List[Problem]:
        out: List[Problem] = []
        for error in FastJsonschema.raw(compiled, data):
            path = tuple(error.path[1:])  # the first element is the name "data"
            out.append((_rule(error.rule or ""), path, error.message, "", error.rule == "additionalProperties"))
        return out


# --------------------------------------------------------------------------- python-jsonschema


def reference_format_checker() -> Any:
    """Our formats for python-jsonschema, which calls a format check for any type."""
    import jsonschema

    checker = jsonschema.FormatChecker(formats=())
    for name, bound in INT_BOUNDS.items():
        def check(value: Any, bound: int = bound) -> bool:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return True
            if isinstance(value, float) and not value.is_integer():
                return True
            return -bound <= value <= bound - 1
        checker.checks(name)(check)
    checker.checks("date-time")(lambda v: not isinstance(v, str) or bool(DATE_TIME.match(v)))
    checker.checks("byte")(lambda v: not isinstance(v, str) or bool(BASE64.match(v)))
    return checker


class PythonJsonschema:
    name = "python-jsonschema"
    key = "py"
    module = "jsonschema"

    @staticmethod
    def version() -> str:
        from importlib.metadata import version

        return version("jsonschema")

    @staticmethod
    def build(schema: Dict[str, Any], strict: bool = True) -> Any:
        import jsonschema

        if not strict:
            schema = library_schema(schema, strict)
        return jsonschema.Draft202012Validator(schema, format_checker=reference_format_checker())

    @staticmethod
    def raw(compiled: Any, data: Any) -> List[Any]:
        return list(compiled.iter_errors(data))

    @staticmethod
    def problems(compiled: Any, data: Any) -> List[Problem]:
        out: List[Problem] = []
        for error in compiled.iter_errors(data):
            path = tuple(error.absolute_path)
            if error.validator == "additionalProperties":
                known = error.schema.get("properties") or {}
                out.extend(("AC101", path + (key,), f'unknown field "{key}"', "", True)
                           for key in error.instance if key not in known)
            elif error.validator == "required":
                name = error.message.split("'")[1]
                out.append(("AC103", path + (name,), f'missing required field "{name}"', "", False))
            else:
                out.append((_rule(str(error.validator)), path, error.message, "", False))
        return out


BACKENDS = {backend.key: backend for backend in (Ours, JsonschemaRs, FastJsonschema, PythonJsonschema)}


def available(key: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(BACKENDS[key].module) is not None


# --------------------------------------------------------------------------- entry points for child processes


def cold(key: str, schema_path: str, doc_path: str) -> None:
    """A cold-start child: import the backend, load and build one schema, check one document."""
    backend = BACKENDS[key]
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    with open(doc_path, encoding="utf-8") as handle:
        data = json.load(handle)
    backend.problems(backend.build(schema), data)


class _Adapter:
    """Stands in for ``schemacheck.validator.Validator`` inside the tool: ``iter_problems(data)``."""

    def __init__(self, backend: Any, schema: Dict[str, Any], strict: bool):
        self.backend = backend
        self.compiled = backend.build(schema, strict)

    def iter_problems(self, data: Any) -> List[Problem]:
        return self.backend.problems(self.compiled, data)


def plug_into_tool(key: str) -> None:
    """Make the imported ascend_compile check schemas with backend ``key`` (ours: nothing to do)."""
    if key == "ours":
        return
    from ascend_compile.schemacheck.registry import Registry

    backend = BACKENDS[key]
    built: Dict[Tuple[str, bool], _Adapter] = {}

    def validator(self: Any, file: str, strict: bool = True) -> _Adapter:
        adapter = built.get((file, strict))
        if adapter is None:
            adapter = built[(file, strict)] = _Adapter(backend, self.schema(file), strict)
        return adapter

    Registry.validator = validator  # type: ignore[method-assign]


if __name__ == "__main__":  # python bench/vbackends.py BACKEND ascend-compile arguments...
    import sys

    plug_into_tool(sys.argv[1])
    from ascend_compile.cli import main

    main(sys.argv[2:])
