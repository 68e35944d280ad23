"""The built-in schemas: ``apiVersion/kind`` -> schema file -> compiled validator, all loaded on first use.

``schemas/index.json`` maps ``apiVersion/kind`` to a schema file, or (for
Volcano kinds) to one file per Volcano release plus a default release.  The
index and each schema are read on first use and every validator is built once
per process (:func:`registry`).  What a file holds is kept in the start-up cache
(:mod:`ascend_compile.datacache`, keyed by this version and every schema file's
size and modification time): loading it there is cheaper than parsing JSON, and
``json`` is then not imported at all.
"""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Optional, Tuple

from .messages import SchemaError
from .validator import Validator

#: Volcano releases with schemas, as accepted by ``--volcano-version``.
VOLCANO_VERSIONS = ("1.9", "1.15")


def normalize_volcano_version(text: str) -> str:
    """'1.9', '1.9.0', 'v1.15.0' -> '1.9' / '1.15'; raises ValueError for others."""
    match = re.fullmatch(r"v?(\d+)\.(\d+)(?:\.\d+)?", text.strip())
    if not match:
        raise ValueError(f"not a Volcano version: {text!r}")
    minor = f"{int(match.group(1))}.{int(match.group(2))}"
    if minor not in VOLCANO_VERSIONS:
        raise ValueError(f"no schemas for Volcano {minor}; choose one of {', '.join(VOLCANO_VERSIONS)}")
    return minor


def _read_json(path: str, what: str) -> Any:
    import json

    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, ValueError) as exc:
        raise SchemaError(f"cannot read {what} {path}: {exc}") from None


class Registry:
    """apiVersion/kind -> schema file -> compiled validator, all loaded on first use."""

    def __init__(self, directory: Optional[str] = None):
        if directory is None:
            from ..resources import schemas_dir

            directory = schemas_dir()
        self.directory = directory
        self._index: Optional[Dict[str, Any]] = None
        self._schemas: Dict[str, Dict[str, Any]] = {}
        self._validators: Dict[Tuple[str, bool], Validator] = {}
        self._code: Optional[List[str]] = None  # the files the start-up cache's key covers

    def _read(self, file: str, what: str) -> Any:
        """The data of the JSON file ``file`` in this registry's directory (from the start-up cache when there)."""
        from ..datacache import Store

        if self._code is None:
            try:
                names = sorted(name for name in os.listdir(self.directory) if name.endswith(".json"))
            except OSError:
                names = []
            self._code = [os.path.join(self.directory, name) for name in names]
        cache = Store(f"schema-{file}", self._code)  # one file each: a run loads only the schemas it uses
        data = cache.get(file)
        if data is None:
            data = _read_json(os.path.join(self.directory, file), what)
            cache.put(file, data)
            cache.save()
        return data

    @property
    def index(self) -> Dict[str, Any]:
        if self._index is None:
            loaded = self._read("index.json", "the schema index")
            self._index = loaded.get("kinds", {})
        return self._index

    def kinds(self) -> List[str]:
        return sorted(self.index)

    def schema_file(self, api_version: str, kind: str, volcano_version: Optional[str] = None) -> Optional[str]:
        entry = self.index.get(f"{api_version}/{kind}")
        if entry is None:
            return None
        if "file" in entry:
            return str(entry["file"])
        variants = entry.get("volcano") or {}
        wanted = normalize_volcano_version(volcano_version) if volcano_version else entry.get("default")
        if wanted not in variants:
            raise SchemaError(f"no {kind} schema for Volcano {wanted}; have {', '.join(sorted(variants))}")
        return str(variants[wanted])

    def schema(self, file: str) -> Dict[str, Any]:
        schema = self._schemas.get(file)
        if schema is None:
            schema = self._schemas[file] = self._read(file, "the built-in schema")
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


_REGISTRY: Optional[Registry] = None


def registry() -> Registry:
    """The process-wide registry of the built-in schemas."""
    global _REGISTRY
    if _REGISTRY is None:
        _REGISTRY = Registry()
    return _REGISTRY
