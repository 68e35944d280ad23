"""The text edits ``lint --fix`` makes: an entry added in the style around it, every other character kept,
and no edit where the end of an entry is not certain."""
from __future__ import annotations

from typing import Any, Optional

import pytest
import yaml

from ascend_compile.lint import yamledit


def _edited(text: str, edit: Optional[yamledit.Edit]) -> str:
    assert edit is not None
    return text[:edit.start] + edit.text + text[edit.end:]


def _node(text: str, *path: Any) -> Any:
    return yamledit.walk(yamledit.compose(text)[0], path)


@pytest.mark.parametrize("text, want", [
    # block: after the last entry's line (its comment kept), at the entries' column, nested by the file's step
    ("r:\n    requests:\n        x: 8   # per pod\nnext: 1\n",
     "r:\n    requests:\n        x: 8   # per pod\n    limits:\n        x: 8\nnext: 1\n"),
    # the last value is empty (``foo:``): the entry goes after its key, not where the next token is
    ("r:\n  requests: {x: 8}\n  foo:\n# about next\nnext: 1\n",
     "r:\n  requests: {x: 8}\n  foo:\n  limits:\n    x: 8\n# about next\nnext: 1\n"),
    # flow: before the closing brace, after a trailing comma too
    ("r: {requests: {x: 8}}\n", "r: {requests: {x: 8}, limits: {x: 8}}\n"),
    ("r: {requests: {x: 8},\n   }\n", "r: {requests: {x: 8}, limits: {x: 8}\n   }\n"),
    # CRLF line ends stay CRLF
    ("r:\r\n  requests:\r\n    x: 8\r\n", "r:\r\n  requests:\r\n    x: 8\r\n  limits:\r\n    x: 8\r\n"),
])
def test_an_entry_is_added_in_the_style_around_it(text: str, want: str) -> None:
    got = _edited(text, yamledit.insert_entry(text, _node(text, "r"), "limits", [("x", "8")]))
    assert got == want
    assert yaml.safe_load(got)["r"]["limits"] == {"x": 8}


@pytest.mark.parametrize("text, want", [
    ("ports:\n- name: a\n  containerPort: 1\n",
     "ports:\n- name: a\n  containerPort: 1\n- name: b\n  containerPort: 2\n"),
    ("c:\n  ports:\n    -   name: a  # x\n", "c:\n  ports:\n    -   name: a  # x\n    -   name: b\n        containerPort: 2\n"),
    ("ports:\n- {name: a}\n", "ports:\n- {name: a}\n- {name: b, containerPort: 2}\n"),
    ("ports: [{name: a}]\n", "ports: [{name: a}, {name: b, containerPort: 2}]\n"),
])
def test_an_item_is_added_like_the_first_one(text: str, want: str) -> None:
    ports = _node(text, *(("c", "ports") if text.startswith("c:") else ("ports",)))
    assert _edited(text, yamledit.append_item(text, ports, [("name", "b"), ("containerPort", "2")])) == want


def test_no_edit_where_the_end_of_an_entry_is_not_certain() -> None:
    block_scalar = "r:\n  requests:\n    x: 8\n  note: |\n    kept\n"
    assert yamledit.insert_entry(block_scalar, _node(block_scalar, "r"), "limits", [("x", "8")]) is None
    dash_alone = "ports:\n-\n  name: a\n"
    assert yamledit.append_item(dash_alone, _node(dash_alone, "ports"), [("name", "b")]) is None
    assert yamledit.written("a: |\n  x\n", _node("a: |\n  x\n", "a")) is None
