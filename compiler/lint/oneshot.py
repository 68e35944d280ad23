"""One lint run over documents or plain objects, in one call: what the compiler, the Python API and ``why`` use.

:func:`lint_documents` takes parsed :class:`~ascend_compile.yamlio.locations.Document` objects and locates each
finding at the line and column of its YAML node; :func:`lint_objects` takes plain dicts (the compiler's own
output, objects read from a cluster), whose findings carry field paths but no line numbers.  Command-line paths
go through :func:`~.paths.lint_paths`.
"""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional

from ..findings import Finding
from .engine import Linter


def lint_documents(docs: Iterable[Any], registry: Any = None, config: Any = None, *,
                   texts: Optional[Mapping[str, str]] = None, strict: bool = True,
                   volcano_version: Optional[str] = None, disable: Iterable[str] = (),
                   schema: bool = True, inventory: Any = None, target: Any = None) -> List[Finding]:
    """Lint parsed documents (one run); ``registry`` is a :class:`~ascend_compile.hardware.profiles.ProfileRegistry`.

    ``texts`` maps each document's source to its text, for comment directives;
    without it the engine reads the source file when it exists; an ``inventory`` turns the AC9xx rules on;
    ``target`` (:class:`~ascend_compile.releases.Target`) is the release the jobs are judged for.
    """
    linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable,
                    schema=schema, inventory=inventory, target=target)
    return linter.run(docs=list(docs), texts=texts)


def lint_objects(objs: Iterable[Dict[str, Any]], registry: Any = None, config: Any = None, *,
                 source: str = "", strict: bool = True, volcano_version: Optional[str] = None,
                 disable: Iterable[str] = (), schema: bool = True, inventory: Any = None,
                 target: Any = None) -> List[Finding]:
    """Lint plain objects without source text (line and column stay 0); ``inventory`` and ``target`` as for
    :func:`lint_documents`."""
    linter = Linter(registry, config, strict=strict, volcano_version=volcano_version, disable=disable,
                    schema=schema, inventory=inventory, target=target)
    return linter.run(objects=[(obj, source) for obj in objs])
