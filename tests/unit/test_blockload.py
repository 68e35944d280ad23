"""The line-by-line path reads plain block YAML exactly as the careful loader does, and steps aside for the rest."""
from __future__ import annotations

import pytest
import yaml

from tests.unit.careful_yaml import SCALARS, careful, careful_nodes, data_of, same_marks, yaml_texts
from ascend_compile.yamlio import blockload, fastload
from ascend_compile.yamlio.parsing import iter_documents
from ascend_compile.yamlio.locations import Origin
from ascend_compile.yamlio.loader import Loader


def block(text: str):
    return data_of(blockload.build(text))


BLOCK = {
    **SCALARS,
    "quoted": "a: '1'\nb: \"yes\"\nc: 'it''s'\nd: ''\ne: \"\"\nf: '# not a comment'\ng: \"a: b\"  # c\nh: '~'\n",
    "plain strings": "a: 1.2.3\nb: +x\nc: -c\nd: :x\ne: ?y\nf: a#b\ng: x  y\nh: http://h:80/p\ni: a, b\nj: 12e\n",
    "keys": "huawei.com/Ascend910: 8\nring-controller.atlas: x\n_k: 1\nk8s: 2\nhccl.json: z\n",
    "comments": "# head\na: 1  # tail\n  # indented\n# between\nb: 2 # c\nc: # null\n",
    "trailing spaces": "a: x   \nb:   y\nc:\n  - z  \n",
    "empty flow": "a: {}\nb: []\nc:\n- {}\n- []  # c\n",
    "flow sequences": "a: [\"/bin/bash\", \"-c\"]\nb: [x, 1, true, ~, \"y\", 'z', -c, -1, .5, a b ,c]\nc: [ ]\n"
                      "d: [\"a]\", 'x]#y''s']  # [z]\ne:\n- [1, 2]\n- [$(X), a&b, /p/q.yaml,1]\n",
    "nested": "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n",
    "indented sequence": "a:\n  - 1\n  - x: 2\n    y: 3\n  -\n    - 4\n",
    "indentless sequence": "a:\n- 1\n- x: 2\n  y:\n  - 3\nb: 4\n",
    "sequence of mappings": "- a: 1\n  b: 2\n-   c: 3\n    d: 4\n-\n  e: 5\n",
    "empty entries": "- \n-\n- a\n",
    "stream": "---\na: 1\n---\n# c\nb: 2\n---\n---\nc: x\n",
    "leading comments": "# c\n\n---  # marker\na: 1\n",
    "implicit then explicit": "a: 1\n---\nb: 2\n--- # x\n",
    "indented root": "  a: 1\n  b: 2\n",
    "sequence root": "- a\n- 2\n- c: d\n",
    "empty": "",
    "only comments": "# a\n\n# b\n",
    "only markers": "---\n---\n",
    "unicode": "name: 值\nkey: \"é\"\nc: 😀 # 注释\n# 注释\nd: 'ü'\n",
    "no final newline": "a:\n  b: 1",
    "blank lines": "a:\n\n  b: 1\n\n\nc: 2\n",
}

UNUSUAL = {
    "anchor and alias": "a: &x 1\nb: *x\n",
    "merge key": "d:\n  <<: {x: 1}\n",
    "value key": "=: 1\n",
    "explicit tag": "a: !!str 12\n",
    "duplicate key": "a: 1\na: 2\n",
    "int key": "1: x\n",
    "boolean key": "yes: x\n",
    "null key": "null: x\n",
    "quoted key": "'a': x\n",
    "complex key": "? a\n: c\n",
    "block scalar": "a: |\n  x\n",
    "folded scalar": "a: >-\n  x\n",
    "flow sequence with a trailing comma": "a: [1, 2,]\n",
    "nested flow sequence": "a: [[1], 2]\n",
    "flow pair": "a: [b: c]\n",
    "flow sequence with a mapping": "a: [b, {c: d}]\n",
    "flow escape": 'a: ["\\t"]\n',
    "flow comment inside": "a: [b #c]\n",
    "flow unclosed": "a: [b, c\n",
    "flow over lines": "a: [b,\n  c]\n",
    "flow dash": "a: [- b]\n",
    "flow value key": "a: [=]\n",
    "flow mapping": "a: {b: c}\n",
    "continuation": "a: b\n  c\n",
    "multi-line quote": "a: 'b\n  c'\n",
    "escape": 'a: "\\t"\n',
    "colon in plain": "a: b: c\n",
    "colon at end": "a: b:\n",
    "bad indentation": "a:\n  b: 1\n c: 2\n",
    "sequence in mapping": "a: 1\n- b\n",
    "key in sequence": "- a\nb: 1\n",
    "dash value": "a: - b\n",
    "nested dash": "- - a\n",
    "tab": "a:\n\t- b\n",
    "carriage return": "a: 1\r\nb: 2\r\n",
    "next line": "a: 1\x85b: 2\n",
    "control": "a: \x01\n",
    "bom": "\ufeffa: 1\n",
    "document end": "a: 1\n...\n",
    "directive": "%YAML 1.1\n---\na: 1\n",
    "content after marker": "--- a: 1\n",
    "scalar root": "text\n",
    "scalar after marker": "---\ntext\n",
    "too long integer": "a: " + "9" * 2000 + "\n",
    "bad date": "a: 2001-02-30\n",
    "quote then text": "a: 'b' c\n",
    "indicator start": "a: @x\n",
    "percent start": "a: %x\n",
    "comment without space": "a: 'b'# c\n",
    "scalar then key": "a:\n  text\n",
    "non-ASCII key": "名前: x\n",
}


@pytest.mark.parametrize("name", sorted(BLOCK))
def test_plain_block_yaml_is_read_line_by_line_as_the_careful_loader_reads_it(name):
    text = BLOCK[name]
    got = block(text)
    assert got is not None, "this is plain block YAML: the line path should read it"
    assert got == careful(text)


@pytest.mark.parametrize("name", sorted(UNUSUAL))
def test_anything_else_is_left_to_the_other_paths(name):
    assert block(UNUSUAL[name]) is None


def test_deep_nesting_up_to_the_limit_stays_on_the_line_path():
    from ascend_compile.yamlio.common import MAX_DEPTH

    def nested(collections: int) -> str:
        return "".join(" " * i + "k:\n" for i in range(collections - 1)) + " " * (collections - 1) + "v: 1\n"

    deepest = nested(MAX_DEPTH)
    assert block(deepest) is not None
    assert block(deepest) == [(i, d) for i, _l, _o, _e, d in fastload.build(deepest, Loader)]
    assert block(nested(MAX_DEPTH + 1)) is None
    with pytest.raises(Exception, match="nests deeper than"):
        list(iter_documents(nested(MAX_DEPTH + 1), "deep.yaml"))


def _check_file(text: str, where: str) -> bool:
    built = blockload.build(text)
    if built is None:
        return False
    assert [(i, d) for i, _l, _o, _e, d in built] == careful(text), where
    events = fastload.build(text, Loader)
    assert events is None or [b[:4] for b in built] == [e[:4] for e in events], \
        f"{where}: documents start and end where the event path says"
    nodes = careful_nodes(text)
    for index, line, offset, end, _data in built:
        assert same_marks(nodes[index], Origin(text, offset, end, line).compose()), (where, index)
    return True


def test_every_yaml_file_of_the_project_reads_the_same_and_locates_the_same():
    checked = 0
    for path, text in yaml_texts():
        checked += _check_file(text, path)
    assert checked > 200, "the project's samples and cases should mostly take the line path"


def _agrees(text: str) -> None:
    """The line path reads ``text`` as the careful loader does, or steps aside (always, where that loader refuses it)."""
    got, want = block(text), careful(text)
    if got is not None:
        assert not isinstance(want, Exception), f"the careful loader refuses this, the line path read it: {want}"
        assert got == want


def test_block_inputs_locate_the_same():
    for name, text in BLOCK.items():
        assert _check_file(text, name)


def test_a_long_stream_counts_its_lines_as_it_goes():
    text = "".join(f"---\n# {i}\nkind: K\nmetadata:\n  name: n{i}\n" for i in range(3000))
    built = blockload.build(text)
    assert [b[1] for b in built] == [5 * i for i in range(3000)]
    docs = list(iter_documents(text, "s.yaml"))
    assert tuple(docs[2999].locate(("metadata", "name"))) == ("s.yaml", 5 * 2999 + 5, 9)


def test_documents_locate_lazily_and_exactly():
    text = "# intro\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n---\n\nkind: X\ndata:\n  - 1\n  - k: v\n"
    assert block(text) is not None
    docs = list(iter_documents(text, "s.yaml"))
    assert [doc.index for doc in docs] == [0, 1]
    assert docs[0].located and docs[0]._node is None, "no nodes until something asks for a location"
    assert tuple(docs[0].locate(("metadata", "name"))) == ("s.yaml", 6, 9)
    assert tuple(docs[1].locate(("data", 1, "k"), key=True)) == ("s.yaml", 12, 5)


hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

_VALUES = st.sampled_from(["[a, 1]", "[ ]", "['x', \"y\"]", "[a b, -c]", "[a,]", "[a: b]", "[[a]]", "1", "01", "0x1F", "-1", "+1", "1.5", ".5", "1e3", "1_0", "1:20", "yes", "No", "on", "~",
                           "null", "", "true", "x", "y", "2001-01-01", "2001-13-45", "<<", "=", "-", "-x", "'q'",
                           "'a''b'", "'a' b", '"d"', '"a\\tb"', "a b", "a  # c", "a#b", "1.2.3", "0o17", "0b101",
                           ".inf", "NaN", "&a x", "*a", "!!str 1", "[1, 2]", "{}", "[]", "{a: b}", "|", ">",
                           "key: val", "a:", ":x", "? x", "@x", "名", "'", '"'])
_KEYS = st.sampled_from(["a", "b", "1", "yes", "~", "k", "<<", "'a'", "a.b/c", "a b", "null", "_x", "-", "? k"])


@st.composite
def _block_text(draw):
    lines = []
    for _ in range(draw(st.integers(1, 14))):
        indent = " " * draw(st.integers(0, 6))
        form = draw(st.sampled_from(["key", "key", "dash", "dash key", "bare", "comment", "blank", "marker"]))
        value = draw(_VALUES)
        if form == "key":
            lines.append(f"{indent}{draw(_KEYS)}:{' ' if value else ''}{value}")
        elif form == "dash":
            lines.append(f"{indent}-{' ' if value else ''}{value}")
        elif form == "dash key":
            lines.append(f"{indent}- {draw(_KEYS)}: {value}")
        elif form == "bare":
            lines.append(f"{indent}{value}")
        elif form == "comment":
            lines.append(f"{indent}# {value}")
        elif form == "blank":
            lines.append(indent)
        else:
            lines.append(draw(st.sampled_from(["---", "--- # c", "...", "--- x"])))
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


@settings(max_examples=400)
@given(_block_text())
def test_the_line_path_agrees_with_the_careful_loader_on_random_block_yaml(text):
    _agrees(text)


_PLAIN_VALUES = st.sampled_from(["[a, 1]", "[\"/bin/sh\", -c]", "[x,y ]", "1", "x", "true", "~", "", "a b", "'q'", '"d"', "{}", "[]", "2001-01-01", "-x",
                                 "1.5", "0o17", "a  # c", "名", "[1]", "|", "&a x"])
_TREE_KEYS = ["a", "b", "name", "k8s", "x.y/z", "_u", "c-d", "yes", "1", "'q'"]


@st.composite
def _tree_text(draw):
    """A random tree written as block YAML in the styles tools use (then, sometimes, one line moved)."""

    def mapping(indent: int, depth: int) -> list:
        lines = []
        for key in draw(st.lists(st.sampled_from(_TREE_KEYS), min_size=1, max_size=4, unique=True)):
            form = draw(st.sampled_from(["scalar", "scalar", "mapping", "sequence"])) if depth < 4 else "scalar"
            if form == "scalar":
                value = draw(_PLAIN_VALUES)
                lines.append(" " * indent + f"{key}:{' ' if value else ''}{value}")
            elif form == "mapping":
                lines.append(" " * indent + f"{key}:")
                lines += mapping(indent + draw(st.integers(1, 4)), depth + 1)
            else:
                lines.append(" " * indent + f"{key}:")
                lines += sequence(indent + draw(st.sampled_from([0, 0, 2, 4])), depth + 1)
        return lines

    def sequence(indent: int, depth: int) -> list:
        lines = []
        for _ in range(draw(st.integers(1, 3))):
            form = draw(st.sampled_from(["scalar", "mapping", "nested"])) if depth < 4 else "scalar"
            dash = "-" + " " * draw(st.integers(1, 3))
            if form == "scalar":
                lines.append(" " * indent + dash + draw(_PLAIN_VALUES))
            elif form == "mapping":
                inner = mapping(indent + len(dash), depth + 1)
                lines += [" " * indent + dash + inner[0].lstrip(" ")] + inner[1:]
            else:
                lines.append(" " * indent + "-")
                lines += (mapping if draw(st.booleans()) else sequence)(indent + draw(st.integers(1, 3)), depth + 1)
        return lines

    docs = []
    for _ in range(draw(st.integers(1, 3))):
        lines = mapping(0, 0) if draw(st.booleans()) else sequence(0, 0)
        for _ in range(draw(st.integers(0, 2))):
            at = draw(st.integers(0, len(lines) - 1))
            change = draw(st.sampled_from(["indent", "dedent", "comment", "blank"]))
            if change == "indent":
                lines[at] = " " + lines[at]
            elif change == "dedent" and lines[at].startswith(" "):
                lines[at] = lines[at][1:]
            elif change in ("comment", "blank"):
                lines.insert(at, " " * draw(st.integers(0, 4)) + ("# c" if change == "comment" else ""))
        docs.append("\n".join(lines))
    return draw(st.sampled_from(["", "---\n", "# c\n---\n"])) + "\n---\n".join(docs) + "\n"


@settings(max_examples=500)
@given(_tree_text())
def test_the_line_path_agrees_with_the_careful_loader_on_random_trees(text):
    _agrees(text)


def test_the_scalar_tables_are_the_loaders_own():
    from ascend_compile.yamlio import scalars

    table = fastload._resolvers(Loader)
    # (the loader also lists "!", "&" and "*", for documentation: no plain scalar starts with them)
    claimed = frozenset(first for first in table if first and first not in blockload._INDICATORS)
    assert scalars.FIRST == claimed, "the first characters resolvers claim"
    letters = [first for first in scalars.FIRST if not first.isdigit() and first not in "-+."]
    for first in letters:  # only booleans, nulls, the merge and value keys start so: each a fixed set of spellings
        tags = {tag.rsplit(":", 1)[-1] for tag, _regexp in table[first]}
        assert tags <= {"bool", "null", "merge", "value"}, (first, tags)


_SPELLINGS = ["yes", "Yes", "YES", "yEs", "no", "NO", "nO", "on", "ON", "oN", "off", "Off", "OFF", "true", "tRUE",
              "false", "FALSE", "null", "NULL", "nULL", "~", "~x", "y", "n", "Y", "N", "o", "name", "nullx", "<<",
              "<", "<x", "=", "==", "0", "-0", "+0", "00", "01", "017", "08", "1", "-1", "+1", "12", "-12", "1_000",
              "0x1F", "0b101", "0o17", "1:30", "-1:30", "1.5", ".5", "1.", "-.inf", ".Inf", ".NaN", ".nan", "1e3",
              "1.0e+3", "1e+3", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-13-45", "12e", "1.2.3",
              "-x", "+x", ".x", "9" * 999, "9" * 1000, "9" * 1001, "123456789012345678901234567890"]


_SPELLINGS += ["10.0.0.5", "256Gi", "1500GB", "3.4", "1.2e3", "1.2e+3", "0x", "0b", "0b2", "08.5", "1:60", "1:59",
               "190:20:30.15", "2001-1-1 1:2:3", "2001-01-01 01:02:03 +05:00", "2001-01-01T01:02:03Z", "1__2",
               "2002-12-14 21:59:43.10 -5", "2001-01-01 ", "1 ", "-", "+", ".", "-.", "+.inf", ".INF", "-.NaN"]


@pytest.mark.parametrize("text", _SPELLINGS)
def test_plain_scalars_resolve_as_the_loader_resolves_them(text):
    _same_as_the_loader(text)


@settings(max_examples=1500)
@given(st.text(alphabet="0123456789_.:+-eExXbBoOtTzZ infINFaA\t", min_size=1, max_size=14))
def test_number_like_scalars_resolve_as_the_loader_resolves_them(text):
    _same_as_the_loader(text)


def _same_as_the_loader(text):
    from ascend_compile.yamlio import scalars
    from ascend_compile.yamlio.common import Unusual

    try:
        want = ("value", fastload.plain(Loader(""), text, None, None))
    except (Unusual, yaml.YAMLError):
        want = ("unusual",)
    try:
        got = ("value", scalars.resolve(text))
    except Unusual:
        got = ("unusual",)
    assert got == want and type(got[-1]) is type(want[-1])


_FLOW_ITEMS = st.sampled_from(["a", "1", "-1", "-c", "--x=1", "~", "null", "yes", "1.5", ".5", "2001-01-01", "a b",
                               "'q'", "'it''s'", '"d"', '"a, b"', '"x]"', "''", '""', "$(X)", "a&b", "/p", "=", "-",
                               "- x", "a:b", "a: b", "a#b", "[1]", "{a: b}", "'", '"\\t"', " ", "", "+", "<<"])


@settings(max_examples=500)
@given(st.lists(_FLOW_ITEMS, max_size=5), st.sampled_from([", ", ",", " , "]), st.sampled_from(["", " ", "  # c"]))
def test_flow_sequences_read_as_the_careful_loader_reads_them(items, comma, tail):
    text = f"k: [{comma.join(items)}]{tail}\nj: x\n"
    _agrees(text)
