"""The fast parsing path gives the careful loader's data, or steps aside; lazily composed nodes sit where the careful ones do."""
from __future__ import annotations

import pytest

from tests.unit.careful_yaml import SCALARS, careful, careful_nodes, data_of, same_marks, yaml_texts
from ascend_compile.yamlio import fastload
from ascend_compile.yamlio.parsing import iter_documents
from ascend_compile.yamlio.locations import Origin
from ascend_compile.yamlio.loader import Loader


def fast(text: str):
    return data_of(fastload.build(text, Loader))


ORDINARY = {
    **SCALARS,
    "strings": "a: '1'\nb: \"yes\"\nc: 1.2.3\nd: +x\ne: '-'\nf: 0.1.2\ng: 12e\nh: '~'\ni: \"a\\tb\"\n",
    "block scalars": "a: |\n  x\n  y\nb: >-\n  folded\n  text\nc: |+\n  keep\n\n",
    "flow": "a: [1, {b: c, d: [e, 'f']}, []]\nb: {}\n",
    "stream": "---\na: 1\n...\n---\n# c\nb: [2]\n---\n---\nc: x\n",
    "scalar documents": "--- 1\n--- text\n--- ~\n",
    "unicode": "名前: 值\nkey: \"\\u00e9\"\n",
    "crlf": "a: 1\r\nb:\r\n  - x\r\n  - y\r\n",
    "comments": "# head\na: 1  # tail\n# between\nb: 2\n",
    "sequence root": "- a\n- 2\n- [x]\n",
    "indented root": "  a: 1\n  b: 2\n",
    "empty values": "a:\n  b:\n  c: []\n",
}

UNUSUAL = {
    "anchor and alias": "a: &x 1\nb: *x\n",
    "merge key": "base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n",
    "plain merge key": "d:\n  <<: {x: 1}\n",
    "value key": "=: 1\n",
    "explicit tag": "a: !!str 12\n",
    "local tag": "a: !thing 12\n",
    "python tag": "a: !!python/object/apply:os.system ['true']\n",
    "binary": "a: !!binary aGVsbG8=\n",
    "set": "a: !!set {x, y}\n",
    "duplicate key": "a: 1\na: 2\n",
    "duplicate spelled differently": "1: x\n'1': y\n",
    "int keys": "1: x\n01: y\n",
    "boolean keys": "true: x\nyes: y\n",
    "null keys": "null: x\n~: y\n",
    "number key": "8080: http\n",
    "complex key": "? [a, b]\n: c\n",
    "mapping key": "? {a: b}\n: c\n",
    "syntax error": "a: [1, 2\nb: 3\n",
    "bad indentation": "a:\n  b: 1\n c: 2\n",
    "too long integer": "a: " + "9" * 2000 + "\n",
    "bad date": "a: 2001-02-30\n",
    "deep": "a: " + "[" * 300 + "]" * 300 + "\n",
    "tab": "a:\n\t- b\n",
}


@pytest.mark.parametrize("name", sorted(ORDINARY))
def test_ordinary_yaml_takes_the_fast_path_and_reads_the_same(name):
    text = ORDINARY[name]
    assert fast(text) is not None, "this is plain YAML: the fast path should read it"
    assert fast(text) == careful(text)


@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_anything_unusual_is_left_to_the_careful_loader(name):
    assert fast(UNUSUAL[name]) is None


def test_deep_nesting_up_to_the_limit_stays_fast():
    from ascend_compile.yamlio.common import MAX_DEPTH

    text = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert fast(text) == careful(text)
    deeper = "a: " + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "\n"
    assert fast(deeper) is None


def test_every_yaml_file_of_the_project_reads_the_same_and_locates_the_same():
    checked = 0
    for path, text in yaml_texts():
        built = fastload.build(text, Loader)
        if built is None:
            continue
        assert [(i, d) for i, _l, _o, _e, d in built] == careful(text), path
        nodes = careful_nodes(text)
        for index, line, offset, end, _data in built:
            assert same_marks(nodes[index], Origin(text, offset, end, line).compose()), (path, index)
            checked += 1
    assert checked > 300, "the project's samples and cases should mostly take the fast path"


def test_far_into_a_long_stream_the_marks_are_moved_rather_than_padded():
    from ascend_compile.yamlio import locations

    text = "# c\n" * (locations._PAD_LINES + 5) + "a:\n  b: [1, {c: d}]\n"
    (index, line, offset, end, _data), = fastload.build(text, Loader)
    loader = Loader(text)
    loader.check_node()
    assert same_marks(loader.get_node(), Origin(text, offset, end, line).compose())


def test_documents_locate_lazily_and_exactly():
    text = "# intro\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n\nkind: X\ndata:\n  - 1\n  - k: v\n"
    docs = list(iter_documents(text, "s.yaml"))
    assert [doc.index for doc in docs] == [0, 1]
    assert docs[0].located and docs[0]._node is None, "no nodes until something asks for a location"
    assert tuple(docs[0].locate(("metadata", "name"))) == ("s.yaml", 6, 9)
    assert tuple(docs[1].locate(("data", 1, "k"), key=True)) == ("s.yaml", 12, 5)
    assert tuple(docs[1].locate(("data", 5))) == ("s.yaml", 11, 3), "past the end: the deepest node that exists"


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, strategies as st  # noqa: E402

_SCALAR_TEXT = st.sampled_from(["1", "01", "0x1F", "-1", "+1", "1.5", ".5", "1e3", "1_0", "1:20", "yes", "No", "on",
                                "~", "null", "", "true", "x", "y", "2001-01-01", "2001-13-45", "<<", "=", "-", "'q'",
                                '"d"', "a b", "1.2.3", "0o17", "0b101", ".inf", "NaN", "&a x", "*a", "!!str 1",
                                "[1, 2]", "{a: b}", "|\n  blk", "key: val"])


@st.composite
def _documents_text(draw):
    lines = []
    for depth in range(draw(st.integers(1, 12))):
        indent = "  " * draw(st.integers(0, min(depth, 3)))
        key = draw(st.sampled_from(["a", "b", "1", "yes", "~", "- ", "k", "<<", "'a'"]))
        sep = "" if key == "- " else ": "
        lines.append(f"{indent}{key}{sep}{draw(_SCALAR_TEXT)}")
        if draw(st.booleans()):
            lines.append(draw(st.sampled_from(["---", "...", "# c", ""])))
    return "\n".join(lines) + "\n"


@given(_documents_text())
def test_fast_path_agrees_with_the_careful_loader_on_random_yaml(text):
    got, want = fast(text), careful(text)
    if got is not None:
        assert not isinstance(want, Exception), f"the careful loader refuses this, the fast path read it: {want}"
        assert got == want
