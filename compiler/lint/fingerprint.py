"""Digests: of a file's text, and of everything besides the text that a lint result depends on.

A cached lint result is reused only for the same text under the same :func:`settings_digest`: this
tool's version and code (every file of the installed package, by content), the Python and PyYAML
that run, its schemas, the hardware profiles of the run (their content), the project config and the options.
"""
from __future__ import annotations

import os
from typing import Any, Iterable, List

from ..datacache import digest


def text_digest(text: str) -> str:
    return digest(text.encode("utf-8", "surrogatepass"))


def code_digest() -> str:
    """The installed package and its schemas: the version, the interpreter and YAML library
    (:func:`~ascend_compile.datacache.environment`), and every file's path and content."""
    from .._version import __version__
    from ..datacache import content_digests, environment
    from ..resources import schemas_dir

    parts: List[str] = [__version__, environment()]
    for root in (os.path.dirname(os.path.dirname(os.path.realpath(__file__))), schemas_dir()):
        paths = _files_below(root)
        skip = len(root) if root.endswith(os.sep) else len(root) + 1
        parts.extend(f"{path[skip:]}:{found}" for path, found in zip(paths, content_digests(paths)))
    return _digest(parts)


def _files_below(root: str) -> List[str]:
    """The files below ``root`` (sorted, no bytecode, no link followed)."""
    found: List[str] = []
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name != "__pycache__":
                    stack.append(entry.path)
            elif not entry.name.endswith((".pyc", ".pyo")):
                found.append(entry.path)
    return found


def files_digest(paths: Iterable[str]) -> str:
    """The content of files (a missing one counts as missing)."""
    from ..safeio.inside import outside_link
    from ..safeio.read import read_regular_bytes
    from ..yamlio.common import DEFAULT_MAX_BYTES

    parts = []
    for path in paths:  # read as the profile registry reads them: no link to /dev/zero, a FIFO or out of the repository
        outside = outside_link(path) is not None
        data, why = (None, "outside") if outside else read_regular_bytes(path, DEFAULT_MAX_BYTES, follow=True)
        parts.append(path + ":" + (digest(data) if data is not None else "missing" if not why else "unreadable"))
    return _digest(parts)


def settings_digest(*parts: Any) -> str:
    return _digest([repr(part) for part in parts])


def _digest(parts: List[str]) -> str:
    return digest("\n".join(parts).encode("utf-8", "surrogatepass"))
