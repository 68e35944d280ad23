"""The indexed locator (issue 43, S3) answers as the scan it replaced: for every path of varied documents, the
same node, key, depth, line and column.

A mapping of 16 entries or more is looked up through an index made on its first lookup
(``locations.child``), and a document of the fast path places all its paths in one pass over its events
(``Document.find_all``); both must agree with the old per-lookup scan, kept here as the oracle: a mapping's
entries scanned from the last, a key matching when its text is the element (an integer element: its
decimal text).
"""
from __future__ import annotations

from typing import Any, Iterator, List, Optional, Sequence, Tuple

import pytest
import yaml

from ascend_compile.yamlio.locations import Document, Location, child
from ascend_compile.yamlio.parsing import load_documents


def _old_child(node: Any, element: Any) -> Tuple[Optional[Any], Optional[Any]]:
    """The scan the locator used before the index: O(keys) per lookup."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in reversed(node.value):
            if isinstance(key_node, yaml.ScalarNode):
                text = key_node.value
                if isinstance(element, int) and not isinstance(element, bool):
                    matches = text == str(element)
                else:
                    matches = text == element
                if matches:
                    return value_node, key_node
        return None, None
    if isinstance(node, yaml.SequenceNode) and isinstance(element, int):
        if 0 <= element < len(node.value):
            return node.value[element], None
    return None, None


def _old_locate(source: str, node: Any, path: Sequence[Any], key: bool) -> Tuple[Location, int]:
    found, key_node, depth = node, None, len(path)
    for number, element in enumerate(path):
        value, value_key = _old_child(found, element)
        if value is None:
            key_node, depth = None, number
            break
        found, key_node = value, value_key
    target = key_node if key and key_node is not None else found
    return Location(source, target.start_mark.line + 1, target.start_mark.column + 1), depth


def _many(prefix: str, count: int, indent: str = "  ") -> str:
    return "".join(f"{indent}{prefix}{n}: {n}\n" for n in range(count))


#: documents the fast path, the line reader and the careful loader read (so both the events and the nodes answer)
SAMPLES = {
    "block, integer values": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n" + _many("key", 40),
    "non-string keys": "m:\n  1: one\n  2: two\n  ~: null key\n"
                       "  1.5: float\n  0x1F: hex\n  'yes': quoted word\n  '7': quoted seven\n  \"8\": double quoted\n"
                       "  'a b': spaced\n" + _many("k", 20) + "b:\n  true: yes\n  false: no\n" + _many("b", 16) + "list:\n  - 1\n  - [a, b]\n  - {x: 1}\n",
    "flow mappings": "top: {" + ", ".join(f"f{n}: {n}" for n in range(30)) + ", 3: three, true: t}\n"
                     "small: {a: 1, b: [1, 2, {c: d}]}\n",
    "quoted keys": "q:\n" + "".join(f"  \"quoted {n}\": {n}\n  'single {n}': {n}\n" for n in range(12)),
    "anchors and merge keys": "base: &base\n" + _many("b", 20, "  ") + "derived:\n  <<: *base\n  own: 1\n"
                              "  b3: overridden\nalias: *base\n",
    "a long stream far down": "---\n" * 3 + "a:\n" + _many("n", 25) + "---\nb: [1, 2, 3]\n",
}


def _paths(data: Any, prefix: Tuple[Any, ...] = ()) -> Iterator[Tuple[Any, ...]]:
    """Every path into ``data``, the string form of each non-string key, and some that run past it."""
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
            if not isinstance(key, str):
                yield prefix + (str(key),)
                yield prefix + (str(key).lower(),)
        yield prefix + ("no-such-key",)
        yield prefix + (0,)
        yield prefix + (None,)
        yield prefix + (True,)
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, prefix + (index,))
        yield prefix + (len(data),)
        yield prefix + (-1,)
        yield prefix + ("0",)


def _documents() -> List[Tuple[str, Document]]:
    out = []
    for name, text in SAMPLES.items():
        for doc in load_documents(text, name):
            if doc.data is not None:
                out.append((name, doc))
    return out


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_path_of_every_sample_is_placed_as_the_old_scan_placed_it(name: str) -> None:
    docs = [doc for sample, doc in _documents() if sample == name]
    assert docs
    checked = 0
    for doc in docs:
        paths = list(_paths(doc.data))
        tree = doc.origin.compose() if doc.origin is not None else doc.node
        for found, path in zip(doc.find_all(paths), paths):  # the fast path's: one pass over the events
            for key in (False, True):
                expected, depth = _old_locate(name, tree, path, key)
                assert found.where(key) == expected, (path, key)
                assert doc.locate(path, key=key) == expected, (path, key)
                assert found.depth == depth == doc.existing(path), path
            checked += 1
        composed = Document(doc.source, doc.index, doc.data, tree)  # the same document, answered by its nodes
        for found, path in zip(composed.find_all(paths), paths):
            assert (found.where(False), found.where(True)) == \
                   (_old_locate(name, tree, path, False)[0], _old_locate(name, tree, path, True)[0]), path
    assert checked > 20


def test_the_fast_path_and_the_careful_loader_are_both_exercised() -> None:
    kinds = {doc.origin is not None for _name, doc in _documents()}
    assert kinds == {True, False}  # events for some samples, nodes (anchors, complex keys) for others


@pytest.mark.parametrize("size", [3, 15, 16, 17, 200])
def test_duplicate_and_complex_keys_the_last_one_wins_as_the_scan_had_it(size: int) -> None:
    # the loaders refuse duplicate and complex keys, so the node tree is composed directly: the lookup must agree
    text = "".join(f"k{n % 5}: {n}\n{n % 3}: int{n}\n? [k{n % 5}]\n: complex\n" for n in range(size)) + "k1: last\n"
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    for element in ["k0", "k1", "k4", "k9", 0, 1, 2, "0", "2", True, None, 1.0]:
        new, old = child(root, element), _old_child(root, element)
        assert new[0] is old[0] and new[1] is old[1], element


def test_an_index_follows_a_mapping_whose_entries_change() -> None:
    root = yaml.compose("".join(f"k{n}: {n}\n" for n in range(20)), Loader=yaml.SafeLoader)
    assert child(root, "k3")[0].value == "3"  # the index is made here
    extra = yaml.compose("k99: new\nk3: again\n", Loader=yaml.SafeLoader)
    root.value.extend(extra.value)
    assert child(root, "k99")[0].value == "new"
    assert child(root, "k3")[0].value == "again"


def test_scalar_text_is_as_written() -> None:
    [doc] = load_documents("a:\n  yes: on\n  n: 0x1F\n  s: 'quoted'\n  m: {x: 1}\n", "t.yaml")
    found = doc.find_all([("a", "yes"), ("a", "n"), ("a", "s"), ("a", "m"), ("a", "missing")])
    assert [place.text for place in found] == ["on", "0x1F", "quoted", None, None]
