"""Text from outside (file names, YAML keys and values, cluster replies) made safe to put in a comment, a report
or on a terminal.

A value we print or write into a generated comment must not end the line (YAML breaks lines on
CR, LF, NEL, LS and PS), move the cursor or recolour the terminal (escape sequences), nor turn the
text around it (bidirectional overrides).  Every character that is not printable is written as its
Python escape (``\\n``, ``\\x1b``, ``\\u2028``), so the value stays readable and stays on its line.
JSON documents get the same treatment in JSON's own escapes (:func:`printable_json`).
"""
from __future__ import annotations

from typing import Any


def printable(text: str) -> str:
    """``text`` with every non-printable character (line breaks, controls, format marks) escaped."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)


def printable_lines(text: str) -> str:
    """Like :func:`printable`, keeping plain newlines as line breaks (for multi-line messages)."""
    return "\n".join(printable(line) for line in text.split("\n"))


def printable_json(data: Any) -> str:
    """``data`` as indented JSON (text in other scripts kept as it is) with no character that is not printable.

    ``json`` escapes the C0 controls (an ESC among them) inside strings, but leaves DEL, the C1 controls (a
    one-character CSI among them), the line and paragraph separators and the bidirectional marks as they
    are; each of those is written as its ``\\uXXXX`` escape here, which reads back as the same string.
    Outside strings JSON text is ASCII, so the only raw line breaks left are the document's own.
    """
    import json

    text = json.dumps(data, indent=2, ensure_ascii=False)
    return "\n".join(line if line.isprintable() else "".join(map(_json_char, line)) for line in text.split("\n"))


def _json_char(char: str) -> str:
    if char.isprintable():
        return char
    code = ord(char)
    if code > 0xFFFF:  # a surrogate pair, as JSON writes characters beyond the basic plane
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"
