"""Text from outside (file names, cluster replies) made safe to put in a comment or on a terminal.

A value we print or write into a generated comment must not end the line (YAML breaks lines on
CR, LF, NEL, LS and PS), move the cursor or recolour the terminal (escape sequences).  Every
character that is not printable is written as its Python escape (``\\n``, ``\\x1b``, ``\\u2028``), so
the value stays readable and stays on its line.
"""
from __future__ import annotations


def printable(text: str) -> str:
    """``text`` with every non-printable character (line breaks, controls, format marks) escaped."""
    if text.isprintable():
        return text
    return "".join(char if char.isprintable() else char.encode("unicode_escape").decode("ascii") for char in text)


def printable_lines(text: str) -> str:
    """Like :func:`printable`, keeping plain newlines as line breaks (for multi-line messages)."""
    return "\n".join(printable(line) for line in text.split("\n"))
