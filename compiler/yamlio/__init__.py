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
    laughs") are refused before anything walks them.

Writing
    :func:`dump_documents` emits a ``---``-separated stream with a fixed style,
    so the same objects give byte-identical text on every machine.

The parts: :mod:`.reading` (text in), :mod:`.loader` (the safe loader),
:mod:`.guards` (depth and alias limits), :mod:`.documents` (parsing a stream),
:mod:`.locations` (:class:`Document` and field paths to line and column),
:mod:`.dump` (text out).  Import from here.
"""
from __future__ import annotations

from .common import DEFAULT_MAX_BYTES, HAVE_LIBYAML, MAX_DEPTH, MAX_EXPANDED_NODES, STDIN
from .documents import iter_documents, load_documents, load_file
from .dump import dump_document, dump_documents
from .loader import MAX_INT_CHARS
from .locations import Document, Location, _child
from .reading import decode, display_name, read_text

__all__ = ["DEFAULT_MAX_BYTES", "HAVE_LIBYAML", "MAX_DEPTH", "MAX_EXPANDED_NODES", "MAX_INT_CHARS", "STDIN",
           "Document", "Location", "decode", "display_name", "dump_document", "dump_documents", "iter_documents",
           "load_documents", "load_file", "read_text"]
