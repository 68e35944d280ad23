"""Parsing a YAML stream into located :class:`~ascend_compile.yamlio.locations.Document` objects.

Plain block YAML is read line by line (:mod:`.blockload`, without PyYAML); other ordinary streams from
libyaml's events (:mod:`.fastload`); anything else by the careful loader of :mod:`.loader` (plain YAML
types only, no duplicate keys, odd scalars as located errors) behind the guards of :mod:`.guards`.
"""
from __future__ import annotations

import gc
from typing import TYPE_CHECKING, Any, Iterator, List, Optional

from ..catalogue import YAML_DUPLICATE_KEY, YAML_SYNTAX, YAML_TOO_DEEP
from ..errors import InputError
from .common import DEFAULT_MAX_BYTES, MAX_DEPTH, AliasBudget, input_error as _input_error
from . import blockload
from .locations import Document, Origin
from .reading import display_name, read_text

if TYPE_CHECKING:
    from .loader import Loader


def iter_documents(text: str, source: str, budget: Optional[AliasBudget] = None) -> Iterator[Document]:
    """Parse a YAML stream; yield each non-empty document with its node tree.

    Raises :class:`InputError` (with line and column) for syntax errors,
    unsafe tags, duplicate keys, alias bombs and excessive nesting.  What aliases add is
    bounded across the stream's documents, and across every stream given the same ``budget``
    (one per run; without one, the stream has its own).

    Ordinary streams take a fast path (:mod:`.blockload` for plain block YAML, else :mod:`.fastload`):
    data without nodes, each document composed again only if something asks where a field is.  Anything else takes the careful
    path below, which keeps each document's nodes.
    """
    built = blockload.build(text)
    if built is None:
        from . import fastload
        from .loader import Loader

        built = fastload.build(text, Loader)
    if built is not None:
        for index, line, offset, end, data in built:
            yield Document(source, index, data, None, Origin(text, offset, end, line))
        return
    # Both checks look at the whole text once (calling them per document made a
    # stream of n documents cost O(n^2)).  After the exact depth check, only
    # aliases (which need an anchor ``&`` and an alias ``*``) can make a node
    # graph deeper or larger than its text, so only then is the graph walked.
    import yaml

    from . import guards  # the careful path only: ordinary streams never need it
    from .loader import DuplicateKey, Loader

    if guards._might_nest_deeply(text, MAX_DEPTH):
        guards._check_event_depth(text, source, MAX_DEPTH)
    guard_graph = "&" in text and "*" in text
    loader = Loader(text)
    try:
        yield from _documents(loader, source, (budget or AliasBudget()) if guard_graph else None)
    except InputError:
        raise
    except (DuplicateKey, yaml.YAMLError, RecursionError) as exc:
        raise _read_error(exc, source) from None
    finally:
        loader.dispose()


def _documents(loader: "Loader", source: str, budget: Optional[AliasBudget]) -> Iterator[Document]:
    """The documents; with a ``budget`` (the text has anchors and aliases), each node graph checked first."""
    # Parsing allocates many small objects that all stay alive (nodes, marks, data); a cyclic GC pass
    # in between finds nothing to free, and with many documents kept (lint keeps them all) those
    # passes rescan a growing heap (loading 400 kept files: 3.3-3.8 s with them, 2.2-2.9 s without;
    # parse-only is 1.4-2.0 s on the same noisy 2-core VM).  So the collector is paused
    # while a document is parsed and resumed before it is handed to the caller.
    gc_enabled = gc.isenabled()
    index = -1
    while True:
        if gc_enabled:
            gc.disable()
        try:
            if not loader.check_node():
                break
            node = loader.get_node()
            index += 1
            if node is None:
                continue
            if budget is not None:
                from .guards import _check_node_graph

                _check_node_graph(node, source, budget)
            data = loader.construct_document(node)
        finally:
            if gc_enabled:
                gc.enable()
        if data is None:
            continue
        yield Document(source, index, data, node)


def _read_error(exc: BaseException, source: str) -> InputError:
    """The located input error for what PyYAML (or our loader) raised."""
    import yaml

    from .loader import DuplicateKey

    if isinstance(exc, DuplicateKey):
        return _input_error(
            source, f"duplicate key {exc.key!r} (first defined on line {exc.first.line + 1})",
            "YAML keys must be unique in a mapping; Kubernetes rejects duplicates: remove one",
            line=exc.mark.line + 1, column=exc.mark.column + 1, rule=YAML_DUPLICATE_KEY)
    if isinstance(exc, yaml.constructor.ConstructorError):
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "cannot construct this value"
        hint = ""
        if "could not determine a constructor" in problem:
            problem = "uses a tag that is not allowed in a manifest: " + problem.split("tag ", 1)[-1]
            hint = "only plain YAML is read (no !!python/... or custom tags); remove the tag"
        return _input_error(source, problem, hint, line=(mark.line + 1) if mark else 0,
                            column=(mark.column + 1) if mark else 0, rule=YAML_SYNTAX)
    if isinstance(exc, yaml.YAMLError):
        from .guards import _is_parser_nesting_limit, _too_deep_error

        if _is_parser_nesting_limit(exc):
            return _too_deep_error(source, exc, MAX_DEPTH)
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"is not valid YAML: {problem}" + (f" ({context})" if context else "")
        return _input_error(source, message, "fix the YAML syntax at this position",
                            line=(mark.line + 1) if mark else 0,
                            column=(mark.column + 1) if mark else 0, rule=YAML_SYNTAX)
    return _input_error(source, "nests too deeply to read", "flatten the document", rule=YAML_TOO_DEEP)


def load_documents(text: str, source: str, budget: Optional[AliasBudget] = None) -> List[Document]:
    return list(iter_documents(text, source, budget))


def load_file(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> List[Document]:
    return load_documents(read_text(path, max_bytes), display_name(path))
