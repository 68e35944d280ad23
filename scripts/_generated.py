"""Shared by the doc generators: write a generated file, or with --check say whether it is stale."""
from __future__ import annotations

import os
import sys
from typing import Sequence


def write_or_check(path: str, text: str, argv: Sequence[str], root: str, command: str) -> int:
    """Write ``text`` to ``path``; with ``--check`` in ``argv``, exit 1 if the file differs instead."""
    name = os.path.relpath(path, root)
    if "--check" in argv:
        try:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
        except FileNotFoundError:
            current = ""
        if current != text:
            print(f"{name} is stale: run python {command}", file=sys.stderr)
            return 1
        return 0
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
    print(f"wrote {name}")
    return 0
