"""Where a finding is: a field path back to the line and column of its YAML node, now or after the run.

Findings of one file are located while the file is at hand (:func:`locate`; a document composes
its nodes only then, see :mod:`ascend_compile.yamlio.locations`).  Cross-object findings are
known only once every file has been read, possibly in another process: :func:`locate_later` uses
the documents when the caller still holds them, and otherwise a :class:`Locator` reads the file
again (the same text: it checks the digest).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..findings import Path

Place = Tuple[str, int, int]


def locate(doc: Any, path: Path, key: bool) -> Place:
    """Line and column of ``path``; a missing field points at the key of its deepest existing parent."""
    if doc is None or not getattr(doc, "located", False):
        return (getattr(doc, "source", "") if doc is not None else ""), 0, 0
    existing = _existing(doc.data, path) if doc.data is not None else doc.existing(path)
    if existing == len(path):
        where = doc.locate(path, key=key)
    else:
        where = doc.locate(path[:existing], key=True)
    return where.file, where.line, where.column


def _existing(data: Any, path: Path) -> int:
    existing = 0
    for element in path:
        if isinstance(data, dict) and element in data:
            data = data[element]
        elif isinstance(data, list) and isinstance(element, int) and 0 <= element < len(data):
            data = data[element]
        else:
            break
        existing += 1
    return existing


class Locator:
    """The documents of files read again, to place findings judged after the files were read."""

    def __init__(self, texts: Optional[Dict[str, str]] = None, max_bytes: int = 0):
        self._texts = texts or {}  # source -> text, for what cannot be read again (standard input)
        self._max_bytes = max_bytes
        self._source: Optional[str] = None
        self._text: Optional[str] = None
        self._docs: Optional[List[Any]] = None

    def document(self, source: str, digest: str, entry: int, origin: Optional[Tuple[int, int, int]]) -> Any:
        """The ``entry``-th linted document of ``source`` (None if the file changed since, or cannot be read).

        A document the fast path read is composed from its own slice of the text; any other is found
        by parsing the file again.
        """
        if source != self._source:
            self._source, self._text, self._docs = source, self._read(source, digest), None
        if self._text is None:
            return None
        if origin is not None:
            from ..yamlio.locations import Origin, located_again

            return located_again(source, entry, Origin(self._text, *origin))
        if self._docs is None:
            self._docs = _parsed(self._text, source)
        return self._docs[entry] if 0 <= entry < len(self._docs) else None

    def _read(self, source: str, digest: str) -> Optional[str]:
        from ..errors import InputError
        from ..yamlio.common import DEFAULT_MAX_BYTES
        from ..yamlio.reading import read_text
        from .fingerprint import text_digest

        text = self._texts.get(source)
        try:
            if text is None:
                text = read_text(source, self._max_bytes or DEFAULT_MAX_BYTES)
        except InputError:
            return None
        if digest and text_digest(text) != digest:
            return None  # changed while the run read it: no line is better than a wrong one
        return text


def _parsed(text: str, source: str) -> List[Any]:
    from ..errors import InputError
    from ..yamlio.parsing import iter_documents

    docs: List[Any] = []
    try:
        for doc in iter_documents(text, source):
            docs.append(doc)
    except InputError:
        pass  # the documents before the error are the ones that were linted
    return docs


def locate_later(requests: Sequence[Tuple[Any, Any, Path, bool]],
                 docs_of: Optional[Callable[[Any], Optional[List[Any]]]], locator: Optional[Locator]) -> List[Place]:
    """Places of (result, ref, path, key) requests, in order; ("", 0, 0) where the document is not at hand."""
    out: List[Place] = []
    for result, ref, path, key in requests:
        docs = docs_of(result) if docs_of is not None else None
        if docs is not None:
            doc = docs[ref.entry] if 0 <= ref.entry < len(docs) else None
        else:
            doc = locator.document(result.source, result.digest, ref.entry, ref.origin) if locator else None
        out.append(locate(doc, path, key) if doc is not None else ("", 0, 0))
    return out
