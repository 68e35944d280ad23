"""Parsing a YAML stream into located :class:`~ascend_compile.yamlio.locations.Document` objects.

The safe loader constructs plain YAML types only, refuses duplicate keys and turns odd scalars into
located errors; :func:`iter_documents` runs it behind the guards of :mod:`.guards`.
"""
from __future__ import annotations

import gc
from typing import Any, Iterator, List

import yaml

from ..catalogue import YAML_DUPLICATE_KEY, YAML_SYNTAX, YAML_TOO_DEEP
from ..errors import InputError
from .common import DEFAULT_MAX_BYTES, MAX_DEPTH, BaseLoader, input_error as _input_error
from . import blockload, fastload
from .locations import Document, Origin
from .reading import display_name, read_text


_MERGE_TAG = "tag:yaml.org,2002:merge"


class Loader(BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:  # type: ignore[override]
        if not isinstance(node, yaml.MappingNode):
            return super().construct_mapping(node, deep=deep)
        pairs = node.value
        try:
            texts = {key_node.value for key_node, _ in pairs}
        except TypeError:  # a collection used as a key: take the careful path
            texts = set()
        if len(texts) == len(pairs) and not any(key_node.tag == _MERGE_TAG for key_node, _ in pairs):
            # Fast path: every key is written differently and there is no merge
            # key, so a duplicate can only be two spellings of one value (1 and
            # 01, true and yes): the mapping then has fewer entries than keys.
            mapping = super().construct_mapping(node, deep=deep)
            if len(mapping) == len(pairs):
                return mapping
        by_text: dict[Any, Any] = {}
        by_value: dict[Any, Any] = {}
        for key_node, _ in pairs:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                continue
            text = key_node.value
            first = by_text.get(text)
            if first is None:
                try:
                    value = self.construct_object(key_node)
                    first = by_value.get(value)
                    by_value.setdefault(value, key_node.start_mark)
                except (TypeError, yaml.YAMLError):
                    pass
            if first is not None:
                raise DuplicateKey(text, key_node.start_mark, first)
            by_text[text] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


#: Longest integer literal read (a 64-bit integer needs at most 20 characters; Python refuses to
#: convert decimal strings of more than 4300 digits, and printing a longer number would fail later).
MAX_INT_CHARS = 1000


def _scalar_text(node: yaml.Node) -> str:
    text = node.value if isinstance(node, yaml.ScalarNode) else ""
    return text if len(text) <= 40 else text[:37] + "..."


def _guarded(construct: Any, what: str) -> Any:
    """Turn the ValueError/KeyError/... a scalar constructor raises on odd input into a located error."""

    def guarded(loader: Any, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
            detail = str(exc).split(";")[0] if isinstance(exc, ValueError) and what.startswith("a date") else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {_scalar_text(node)!r} as {what}" + (f" ({detail})" if detail else ""),
                node.start_mark) from None

    return guarded


def _construct_int(loader: Any, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_INT_CHARS:
        raise yaml.constructor.ConstructorError(
            None, None, f"the integer {_scalar_text(node)} has {len(node.value)} characters, too long to read "
            f"(Kubernetes integers have at most 19 digits)", node.start_mark)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)  # type: ignore[arg-type]


def _construct_binary(loader: Any, node: yaml.Node) -> str:
    """``!!binary``: check the base64, keep it as text (what Kubernetes' binaryData holds)."""
    yaml.constructor.SafeConstructor.construct_yaml_binary(loader, node)  # type: ignore[arg-type]
    return "".join(loader.construct_scalar(node).split())


_SAFE = yaml.constructor.SafeConstructor
for _tag, _construct, _what in (
        ("int", _construct_int, "an integer"),
        ("float", _SAFE.construct_yaml_float, "a number"),
        ("bool", _SAFE.construct_yaml_bool, "a boolean"),
        ("timestamp", _SAFE.construct_yaml_timestamp, "a date or time"),
        ("binary", _construct_binary, "base64 data")):
    Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _guarded(_construct, _what))
# Keep the data JSON-typed (dicts, lists, str, int, float, bool, None; dates stay dates): a set is
# a mapping to nulls, and an ordered map or pairs list is read as the list of pairs it is written as.
Loader.add_constructor("tag:yaml.org,2002:set", _SAFE.construct_yaml_map)  # type: ignore[type-var]
Loader.add_constructor("tag:yaml.org,2002:omap", _SAFE.construct_yaml_seq)  # type: ignore[type-var]
Loader.add_constructor("tag:yaml.org,2002:pairs", _SAFE.construct_yaml_seq)  # type: ignore[type-var]
fastload.use_resolvers(Loader)


class DuplicateKey(Exception):
    def __init__(self, key: Any, mark: Any, first: Any):
        super().__init__(key)
        self.key, self.mark, self.first = key, mark, first


def iter_documents(text: str, source: str) -> Iterator[Document]:
    """Parse a YAML stream; yield each non-empty document with its node tree.

    Raises :class:`InputError` (with line and column) for syntax errors,
    unsafe tags, duplicate keys, alias bombs and excessive nesting.

    Ordinary streams take a fast path (:mod:`.blockload` for plain block YAML, else :mod:`.fastload`):
    data without nodes, each document composed again only if something asks where a field is.  Anything else takes the careful
    path below, which keeps each document's nodes.
    """
    built = blockload.build(text, Loader)
    if built is None:
        built = fastload.build(text, Loader)
    if built is not None:
        for index, line, offset, end, data in built:
            yield Document(source, index, data, None, Origin(text, offset, end, line))
        return
    # Both checks look at the whole text once (calling them per document made a
    # stream of n documents cost O(n^2)).  After the exact depth check, only
    # aliases (which need an anchor ``&`` and an alias ``*``) can make a node
    # graph deeper or larger than its text, so only then is the graph walked.
    from . import guards  # the careful path only: ordinary streams never need it

    if guards._might_nest_deeply(text, MAX_DEPTH):
        guards._check_event_depth(text, source, MAX_DEPTH)
    guard_graph = "&" in text and "*" in text
    loader = Loader(text)
    try:
        yield from _documents(loader, source, guard_graph)
    except InputError:
        raise
    except (DuplicateKey, yaml.YAMLError, RecursionError) as exc:
        raise _read_error(exc, source) from None
    finally:
        loader.dispose()


def _documents(loader: Loader, source: str, guard_graph: bool) -> Iterator[Document]:
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
            if guard_graph:
                from .guards import _check_node_graph

                _check_node_graph(node, source)
            data = loader.construct_document(node)
        finally:
            if gc_enabled:
                gc.enable()
        if data is None:
            continue
        yield Document(source, index, data, node)


def _read_error(exc: BaseException, source: str) -> InputError:
    """The located input error for what PyYAML (or our loader) raised."""
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


def load_documents(text: str, source: str) -> List[Document]:
    return list(iter_documents(text, source))


def load_file(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> List[Document]:
    return load_documents(read_text(path, max_bytes), display_name(path))
