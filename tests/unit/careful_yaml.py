"""What the fast parsing paths are compared with: the careful loader's reading, the YAML files of the project, node marks."""
from __future__ import annotations

import glob
import os
from typing import Iterator, Tuple

import yaml

from tests.checkout import ROOT, SHARED
from ascend_compile.yamlio.common import AliasBudget
from ascend_compile.yamlio.loader import Loader
from ascend_compile.yamlio.parsing import _documents


#: plain scalars of every type, one document each, that every fast path reads
SCALARS = {
    "scalars": "a: 1\nb: -2\nc: 0x1F\nd: 017\ne: 1_000\nf: 1:30\ng: 1.5\nh: .inf\ni: -.Inf\nj: .nan\nk: 1e3\n",
    "booleans": "a: yes\nb: No\nc: on\nd: OFF\ne: true\nf: False\ng: y\nh: n\n",
    "nulls": "a: ~\nb: null\nc:\nd: Null\ne: NULL\n",
    "dates": "a: 2001-12-14\nb: 2001-12-14t21:59:43.10-05:00\nc: 2002-12-14 21:59:43.10 -5\n",
}


def data_of(built):
    """(index, data) of each document a fast path built, or None when it stepped aside."""
    return None if built is None else [(index, data) for index, _line, _offset, _end, data in built]


def careful(text: str):
    """(index, data) of every non-empty document, as the careful loader reads them (or the error it raises)."""
    try:
        return [(doc.index, doc.data) for doc in _documents(Loader(text), "t.yaml", AliasBudget())]
    except Exception as exc:  # noqa: BLE001 - the tests compare outcomes, errors included
        return exc


def yaml_texts() -> Iterator[Tuple[str, str]]:
    """(path, text) of every UTF-8 YAML file of the project's tests, goldens, examples and profiles, and upstream's."""
    roots = [os.path.join(ROOT, d) for d in ("tests", "golden", "examples", "profiles")] + \
        [os.path.join(SHARED, "upstream", d) for d in ("samples", "crds")]
    for root in roots:
        for path in sorted(glob.glob(os.path.join(root, "**", "*.y*ml"), recursive=True)):
            with open(path, encoding="utf-8", errors="strict") as handle:
                try:
                    yield path, handle.read()
                except UnicodeDecodeError:
                    continue


def same_marks(a: yaml.Node, b: yaml.Node) -> bool:
    """Whether two node trees have the same shape, tags and start marks."""
    if (a.start_mark.line, a.start_mark.column, a.tag) != (b.start_mark.line, b.start_mark.column, b.tag):
        return False
    if isinstance(a, yaml.MappingNode):
        pairs = [x for pair in a.value for x in pair], [x for pair in b.value for x in pair]
        return len(pairs[0]) == len(pairs[1]) and all(map(same_marks, *pairs))
    if isinstance(a, yaml.SequenceNode):
        return len(a.value) == len(b.value) and all(map(same_marks, a.value, b.value))
    return True


def careful_nodes(text: str) -> list:
    """The node tree of every document (empty ones too), as the careful loader composes them."""
    loader = Loader(text)
    nodes = []
    while loader.check_node():
        nodes.append(loader.get_node())
    loader.dispose()
    return nodes
