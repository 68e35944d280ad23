"""Safe YAML in (with source locations and hostile-input limits), deterministic YAML out.

Reading
    :func:`read_text` turns a path (or ``-`` for stdin) into text, refusing
    directories, missing or unreadable files, binary data, invalid UTF-8 and
    files over the size limit with an :class:`~ascend_compile.errors.InputError`.
    :func:`iter_documents` parses a multi-document stream with PyYAML's safe
    loader (the C one when libyaml is present) and yields :class:`Document`
    objects: plain Python data plus the composed node tree, so any field path
    can be mapped back to the line and column of its YAML node.

    Only safe tags are constructed (``!!python/...`` is refused), duplicate
    keys are an error (Kubernetes rejects them too), and documents that nest
    too deeply or expand through aliases beyond a fixed budget ("billion
    laughs") are refused before anything walks them.

Writing
    :func:`dump_documents` emits a ``---``-separated stream with a fixed style,
    so the same objects give byte-identical text on every machine.
"""
from __future__ import annotations

import gc
import os
import re
import stat
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, List, Optional, Sequence, Tuple

import yaml

from .catalogue import (INPUT_ERROR, INPUT_TOO_LARGE, YAML_ALIAS_BOMB, YAML_DUPLICATE_KEY, YAML_SYNTAX,
                        YAML_TOO_DEEP)
from .errors import InputError
from .findings import ERROR, Finding, PathElement

try:  # libyaml bindings: ~7x faster parsing, ~5x faster dumping
    from yaml import CSafeDumper as _BaseDumper
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeDumper as _BaseDumper  # type: ignore[assignment]
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]

HAVE_LIBYAML = _BaseLoader.__name__.startswith("C")

#: Largest input accepted by default (bytes); override with ``--max-bytes``.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: Deepest nesting accepted (a full PodTemplateSpec is about 20 levels deep).
MAX_DEPTH = 200
#: Largest number of nodes a document may expand to through aliases.
MAX_EXPANDED_NODES = 200_000

STDIN = "-"
_STDIN_NAME = "<stdin>"


@dataclass(frozen=True)
class Location:
    file: str
    line: int  # 1-based
    column: int  # 1-based


def _input_error(file: str, message: str, hint: str = "", line: int = 0, column: int = 0,
                 rule: str = INPUT_ERROR) -> InputError:
    return InputError([Finding(rule=rule, severity=ERROR, message=message, hint=hint,
                               file=file, line=line, column=column, input_error=True)])


def display_name(path: str) -> str:
    return _STDIN_NAME if path == STDIN else path


def read_text(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """Read a whole file (or stdin for ``-``) as UTF-8 text, with clean errors.

    Never blocks on a named pipe that nobody writes to (it reads as empty) and
    never reads more than ``max_bytes + 1`` bytes of anything.
    """
    name = display_name(path)
    try:
        if path == STDIN:
            data = sys.stdin.buffer.read(max_bytes + 1)
        else:
            if os.path.isdir(path):
                raise _input_error(name, "is a directory, not a file",
                                   "pass the files inside it, or use a command that walks directories")
            # O_NONBLOCK: opening a FIFO without a writer would otherwise wait forever.
            fd = os.open(path, os.O_RDONLY | _O_NONBLOCK | getattr(os, "O_BINARY", 0))
            with os.fdopen(fd, "rb") as handle:
                info = os.fstat(fd)
                if stat.S_ISDIR(info.st_mode):
                    raise _input_error(name, "is a directory, not a file",
                                       "pass the files inside it, or use a command that walks directories")
                if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                    raise _too_large(name, max_bytes)
                if _O_NONBLOCK and not stat.S_ISREG(info.st_mode):
                    os.set_blocking(fd, True)  # a pipe with a writer: wait for its data as usual
                data = handle.read(max_bytes + 1)
    except InputError:
        raise
    except FileNotFoundError:
        raise _input_error(name, "no such file", "check the path") from None
    except PermissionError:
        raise _input_error(name, "permission denied", "make the file readable") from None
    except IsADirectoryError:
        raise _input_error(name, "is a directory, not a file",
                           "pass the files inside it, or use a command that walks directories") from None
    except OSError as exc:
        raise _input_error(name, f"cannot read: {exc.strerror or exc}") from None
    return decode(data, name, max_bytes)


_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def _too_large(name: str, max_bytes: int) -> InputError:
    return _input_error(name, f"is larger than the {max_bytes} byte limit",
                        "split it, or raise the limit with --max-bytes", rule=INPUT_TOO_LARGE)


def decode(data: bytes, name: str, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    if len(data) > max_bytes:
        raise _too_large(name, max_bytes)
    if b"\x00" in data:
        raise _input_error(name, "looks like a binary file (it contains NUL bytes), not YAML",
                           "exclude it from the paths you check")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise _input_error(name, f"is not valid UTF-8 (byte 0x{data[exc.start]:02x})",
                           "save the file as UTF-8", line=line, column=column) from None
    return text


_MERGE_TAG = "tag:yaml.org,2002:merge"


class _Loader(_BaseLoader):  # type: ignore[misc,valid-type]
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
                raise _DuplicateKey(text, key_node.start_mark, first)
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
    _Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _guarded(_construct, _what))
# Keep the data JSON-typed (dicts, lists, str, int, float, bool, None; dates stay dates): a set is
# a mapping to nulls, and an ordered map or pairs list is read as the list of pairs it is written as.
_Loader.add_constructor("tag:yaml.org,2002:set", _SAFE.construct_yaml_map)  # type: ignore[type-var]
_Loader.add_constructor("tag:yaml.org,2002:omap", _SAFE.construct_yaml_seq)  # type: ignore[type-var]
_Loader.add_constructor("tag:yaml.org,2002:pairs", _SAFE.construct_yaml_seq)  # type: ignore[type-var]


class _DuplicateKey(Exception):
    def __init__(self, key: Any, mark: Any, first: Any):
        super().__init__(key)
        self.key, self.mark, self.first = key, mark, first


@dataclass
class Document:
    """One YAML document of a stream: its data and the nodes it was built from."""

    source: str
    index: int
    data: Any
    node: Optional[yaml.Node]

    def locate(self, path: Sequence[PathElement], key: bool = False) -> Location:
        """Line and column of the node at ``path`` (of its key when ``key``).

        A path that runs past the document stops at the deepest node that
        exists, so a "missing field" finding points at the object lacking it.
        """
        node = self.node
        if node is None:  # built from Python values: no source position
            return Location(self.source, 0, 0)
        found = node
        key_node = None
        for element in path:
            child, child_key = _child(found, element)
            if child is None:
                key_node = None
                break
            found, key_node = child, child_key
        target = key_node if (key and key_node is not None) else found
        mark = target.start_mark
        return Location(self.source, mark.line + 1, mark.column + 1)


def _child(node: yaml.Node, element: PathElement) -> Tuple[Optional[yaml.Node], Optional[yaml.Node]]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in reversed(node.value):  # last one wins, as when loading
            if isinstance(key_node, yaml.ScalarNode) and _scalar_matches(key_node, element):
                return value_node, key_node
        return None, None
    if isinstance(node, yaml.SequenceNode) and isinstance(element, int):
        if 0 <= element < len(node.value):
            return node.value[element], None
    return None, None


def _scalar_matches(key_node: yaml.ScalarNode, element: PathElement) -> bool:
    if isinstance(element, int) and not isinstance(element, bool):
        return bool(key_node.value == str(element))
    return bool(key_node.value == element)


_DOC_SPLIT = re.compile(r"^(?:---|\.\.\.)", re.M)
# The run of blanks and block indicators that starts each line (libyaml also breaks lines on a lone CR,
# NEL, LS and PS, so those count as line starts too).
_LINE_PREFIX = re.compile(r"(?:^|[\r\n\x85\u2028\u2029])([ \t?:-]*)")


def _might_nest_deeply(text: str, limit: int) -> bool:
    """Cheap upper bound on nesting depth per document chunk.

    A block collection starts at a column no further right than the blanks and
    ``- ``/``? ``/``: `` indicators that open its line, and along a chain of
    nested block collections the column grows with every level except for a
    sequence written at the same indentation as its parent key: so block depth
    is at most ``2 * (widest line prefix + 1)``.  Flow depth is at most the
    number of ``[`` and ``{`` in the chunk.  If their sum stays below
    ``limit`` the document cannot nest deeper, and the exact check is skipped.
    (Brackets in strings or indented block scalars only make the bound larger,
    never smaller.)
    """
    for chunk in _DOC_SPLIT.split(text):
        if len(chunk) < limit:
            continue
        flow = chunk.count("[") + chunk.count("{")
        if flow >= limit:
            return True
        widest = max(map(len, _LINE_PREFIX.findall(chunk)), default=0)
        if 2 * (widest + 1) + flow + 2 >= limit:
            return True
    return False


def _check_event_depth(text: str, source: str, limit: int) -> None:
    """Exact nesting check on the event stream (libyaml's composer is recursive C)."""
    loader = _BaseLoader(text)
    depth = 0
    try:
        while True:
            event = loader.get_event()
            if event is None:
                break
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limit:
                    mark = event.start_mark
                    raise _input_error(source, f"nests deeper than {limit} levels",
                                       "flatten the document; Kubernetes objects are far shallower",
                                       line=mark.line + 1, column=mark.column + 1,  # type: ignore[union-attr]
                                       rule=YAML_TOO_DEEP)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError as exc:
        if _is_parser_nesting_limit(exc):
            raise _too_deep_error(source, exc, limit) from None
        return  # the real parse reports syntax errors with their location
    finally:
        loader.dispose()


def _is_parser_nesting_limit(exc: yaml.YAMLError) -> bool:
    """The parser's own depth limit (libyaml >= 0.2.6 stops at 1000 levels, often before our count does,
    since its scanner reads ahead); it is the same problem as our limit, not a syntax error."""
    problem = str(getattr(exc, "problem", "") or "")
    return "nesting depth" in problem or "max depth" in problem


def _too_deep_error(source: str, exc: yaml.YAMLError, limit: int) -> InputError:
    mark = getattr(exc, "problem_mark", None)
    return _input_error(source, f"nests deeper than {limit} levels",
                        "flatten the document; Kubernetes objects are far shallower",
                        line=(mark.line + 1) if mark else 0, column=(mark.column + 1) if mark else 0,
                        rule=YAML_TOO_DEEP)


def _check_node_graph(root: yaml.Node, source: str) -> None:
    """Refuse alias cycles, alias bombs and deep nesting before constructing."""
    # Iterative post-order walk with memoised expanded sizes; aliases make the
    # node graph a DAG (or, with a recursive anchor, a cycle).
    sizes: dict[int, int] = {}
    on_stack: set[int] = set()
    stack: List[Tuple[yaml.Node, int, bool]] = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        ident = id(node)
        if done:
            on_stack.discard(ident)
            total = 1
            for child in _children(node):
                total += sizes[id(child)]
            if total > MAX_EXPANDED_NODES:
                _refuse(source, node, f"expands to more than {MAX_EXPANDED_NODES} nodes through aliases",
                        "remove the repeated aliases (this looks like a 'billion laughs' alias bomb)",
                        YAML_ALIAS_BOMB)
            sizes[ident] = total
            continue
        if ident in sizes:
            continue
        if ident in on_stack:
            _refuse(source, node, "contains an alias that refers to itself (a recursive anchor)",
                    "replace the recursive alias with the data it should hold", YAML_ALIAS_BOMB)
        if depth > MAX_DEPTH:
            _refuse(source, node, f"nests deeper than {MAX_DEPTH} levels",
                    "flatten the document; Kubernetes objects are far shallower", YAML_TOO_DEEP)
        on_stack.add(ident)
        stack.append((node, depth, True))
        for child in _children(node):
            if id(child) in on_stack:
                _refuse(source, child, "contains an alias that refers to itself (a recursive anchor)",
                        "replace the recursive alias with the data it should hold", YAML_ALIAS_BOMB)
            if id(child) not in sizes:
                stack.append((child, depth + 1, False))


def _children(node: yaml.Node) -> Iterable[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            yield key_node
            yield value_node
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _refuse(source: str, node: yaml.Node, message: str, hint: str, rule: str) -> None:
    mark = node.start_mark
    raise _input_error(source, message, hint, line=mark.line + 1, column=mark.column + 1, rule=rule)


def iter_documents(text: str, source: str) -> Iterator[Document]:
    """Parse a YAML stream; yield each non-empty document with its node tree.

    Raises :class:`InputError` (with line and column) for syntax errors,
    unsafe tags, duplicate keys, alias bombs and excessive nesting.
    """
    # Both checks look at the whole text once (calling them per document made a
    # stream of n documents cost O(n^2)).  After the exact depth check, only
    # aliases (which need an anchor ``&`` and an alias ``*``) can make a node
    # graph deeper or larger than its text, so only then is the graph walked.
    if _might_nest_deeply(text, MAX_DEPTH):
        _check_event_depth(text, source, MAX_DEPTH)
    guard_graph = "&" in text and "*" in text
    loader = _Loader(text)
    index = -1
    # Parsing allocates many small objects that all stay alive (nodes, marks, data); a cyclic GC pass
    # in between finds nothing to free, and with many documents kept (lint keeps them all) those
    # passes rescan a growing heap (loading 400 kept files: 3.3-3.8 s with them, 2.2-2.9 s without;
    # parse-only is 1.4-2.0 s on the same noisy 2-core VM).  So the collector is paused
    # while a document is parsed and resumed before it is handed to the caller.
    gc_enabled = gc.isenabled()
    try:
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
                    _check_node_graph(node, source)
                data = loader.construct_document(node)
            finally:
                if gc_enabled:
                    gc.enable()
            if data is None:
                continue
            yield Document(source, index, data, node)
    except InputError:
        raise
    except _DuplicateKey as dup:
        raise _input_error(
            source, f"duplicate key {dup.key!r} (first defined on line {dup.first.line + 1})",
            "YAML keys must be unique in a mapping; Kubernetes rejects duplicates: remove one",
            line=dup.mark.line + 1, column=dup.mark.column + 1, rule=YAML_DUPLICATE_KEY) from None
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "cannot construct this value"
        hint = ""
        if "could not determine a constructor" in problem:
            problem = "uses a tag that is not allowed in a manifest: " + problem.split("tag ", 1)[-1]
            hint = "only plain YAML is read (no !!python/... or custom tags); remove the tag"
        raise _input_error(source, problem, hint, line=(mark.line + 1) if mark else 0,
                           column=(mark.column + 1) if mark else 0, rule=YAML_SYNTAX) from None
    except yaml.YAMLError as exc:
        if _is_parser_nesting_limit(exc):
            raise _too_deep_error(source, exc, MAX_DEPTH) from None
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        message = f"is not valid YAML: {problem}" + (f" ({context})" if context else "")
        raise _input_error(source, message, "fix the YAML syntax at this position",
                           line=(mark.line + 1) if mark else 0,
                           column=(mark.column + 1) if mark else 0, rule=YAML_SYNTAX) from None
    except RecursionError:
        raise _input_error(source, f"nests too deeply to read", "flatten the document",
                           rule=YAML_TOO_DEEP) from None
    finally:
        loader.dispose()


def load_documents(text: str, source: str) -> List[Document]:
    return list(iter_documents(text, source))


def load_file(path: str, max_bytes: int = DEFAULT_MAX_BYTES) -> List[Document]:
    return load_documents(read_text(path, max_bytes), display_name(path))


# --------------------------------------------------------------------------- writing


class _Dumper(_BaseDumper):  # type: ignore[misc,valid-type]
    """Block style, insertion order kept, no aliases: stable and kubectl-friendly."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_Dumper.add_representer(str, _represent_str)  # type: ignore[arg-type]


def dump_document(obj: Any) -> str:
    return yaml.dump(obj, Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=4096, indent=2)


def dump_documents(objs: Iterable[Any]) -> str:
    """A ``---``-separated stream, each document starting with ``---``."""
    return "".join("---\n" + dump_document(obj) for obj in objs)
