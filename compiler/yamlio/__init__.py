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
    laughs") are refused before anything walks them; what aliases add is also
    bounded across a stream's documents and, given one :class:`AliasBudget`,
    across every file of a run.

Writing
    :func:`dump_documents` emits a ``---``-separated stream with a fixed style,
    so the same objects give byte-identical text on every machine.

The parts: :mod:`.reading` (text in), :mod:`.guards` (depth and alias limits),
:mod:`.parsing` (the safe loader, a stream into documents; plain block YAML is read by
:mod:`.blockload`, other ordinary streams by :mod:`.fastload`), :mod:`.locations`
(:class:`Document` and field paths to line and column), :mod:`.dump` (text out,
loaded on first use: reading commands never pay for it).  Import from here.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .common import DEFAULT_MAX_BYTES, MAX_DEPTH, MAX_EXPANDED_NODES, MAX_INT_CHARS, STDIN, AliasBudget
from .locations import Document, Location, _child
from .parsing import iter_documents, load_documents, load_file
from .reading import decode, display_name, read_text

if TYPE_CHECKING:
    from .common import HAVE_LIBYAML
    from .dump import dump_document, dump_documents

__all__ = ["AliasBudget", "DEFAULT_MAX_BYTES", "HAVE_LIBYAML", "MAX_DEPTH", "MAX_EXPANDED_NODES", "MAX_INT_CHARS", "STDIN",
           "Document", "Location", "decode", "display_name", "dump_document", "dump_documents", "iter_documents",
           "load_documents", "load_file", "read_text"]


def __getattr__(name: str) -> Any:
    if name in ("dump_document", "dump_documents"):
        from . import dump

        return getattr(dump, name)
    if name == "HAVE_LIBYAML":  # imports PyYAML: asked for only by what reports the environment
        from . import common

        return common.HAVE_LIBYAML
    raise AttributeError(f"module 'ascend_compile.yamlio' has no attribute {name!r}")
