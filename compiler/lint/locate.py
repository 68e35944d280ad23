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
    return locate_all(doc, [(path, key)])[0]


def locate_all(doc: Any, requests: Sequence[Tuple[Path, bool]]) -> List[Place]:
    """:func:`locate` of each (path, key) request, placed in one walk of the document (two when it was rebuilt
    without its data), not one walk each: a finding per key of a mapping cost findings x keys."""
    if doc is None or not getattr(doc, "located", False) or not requests:
        return [((getattr(doc, "source", "") if doc is not None else ""), 0, 0)] * len(requests)
    if doc.data is not None:
        existing = [_existing(doc.data, path) for path, _key in requests]
    else:
        existing = [found.depth for found in doc.find_all([path for path, _key in requests])]
    wanted = [path if depth == len(path) else path[:depth] for (path, _key), depth in zip(requests, existing)]
    found = doc.find_all(wanted)
    out = []
    for (path, key), depth, place in zip(requests, existing, found):
        where = place.where(key if depth == len(path) else True)
        out.append((where.file, where.line, where.column))
    return out


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
    """Places of (result, ref, path, key) requests, in order; ("", 0, 0) where the document is not at hand.

    The requests of one document are placed together (:func:`locate_all`), documents in the order of their
    first request (the locator keeps one file's text at a time)."""
    out: List[Place] = [("", 0, 0)] * len(requests)
    by_doc: Dict[Tuple[int, int], List[int]] = {}
    for number, (result, ref, _path, _key) in enumerate(requests):
        by_doc.setdefault((id(result), ref.entry), []).append(number)
    for numbers in by_doc.values():
        result, ref = requests[numbers[0]][0], requests[numbers[0]][1]
        docs = docs_of(result) if docs_of is not None else None
        if docs is not None:
            doc = docs[ref.entry] if 0 <= ref.entry < len(docs) else None
        else:
            doc = locator.document(result.source, result.digest, ref.entry, ref.origin) if locator else None
        if doc is None:
            continue
        for number, place in zip(numbers, locate_all(doc, [requests[n][2:] for n in numbers])):
            out[number] = place
    return out
