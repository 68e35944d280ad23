"""What every part of the YAML layer shares: the limits, input errors, and (imported on first use) PyYAML's classes.

PyYAML is imported only when something needs it (``BaseLoader``, ``BaseDumper``, ``HAVE_LIBYAML``): plain
block YAML is read without it (:mod:`.blockload`), and importing it costs a cold start about 10 ms.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Tuple

from ..catalogue import INPUT_ERROR
from ..errors import InputError
from ..findings import ERROR, Finding

if TYPE_CHECKING:
    from yaml import CSafeDumper as BaseDumper, CSafeLoader as BaseLoader

#: Largest input accepted by default (bytes); override with ``--max-bytes``.
DEFAULT_MAX_BYTES = 16 * 1024 * 1024
#: Deepest nesting accepted (a full PodTemplateSpec is about 20 levels deep).
MAX_DEPTH = 200
#: Largest number of nodes a document may expand to through aliases.
MAX_EXPANDED_NODES = 200_000
#: Most characters of scalar text a document may expand to through aliases (the default input limit:
#: aliases never make a document bigger than the largest file read by default).
MAX_EXPANDED_BYTES = DEFAULT_MAX_BYTES
#: Longest integer literal read (a 64-bit integer needs at most 20 characters; Python refuses to
#: convert decimal strings of more than 4300 digits, and printing a longer number would fail later).
MAX_INT_CHARS = 1000



class AliasBudget:
    """What aliases may add, in all, to the documents of one run: nodes, and characters of scalar text,
    beyond those the text writes out.  The limits above hold per document; this holds across documents
    and files, so 64 documents each just under them cannot make 64 times the output (one run reads with
    one budget: :func:`~ascend_compile.discovery.read_documents`; a stream read alone has its own)."""

    def __init__(self, nodes: int = MAX_EXPANDED_NODES, chars: int = MAX_EXPANDED_BYTES):
        self.nodes, self.chars = nodes, chars


STDIN = "-"
STDIN_NAME = "<stdin>"

#: (index, first line, offset of that line, offset of its end, data) of a non-empty document read by a fast path
Built = Tuple[int, int, int, int, Any]


class Unusual(Exception):
    """Something a fast path leaves to the next one (and in the end to the careful loader)."""


def input_error(file: str, message: str, hint: str = "", line: int = 0, column: int = 0,
                 rule: str = INPUT_ERROR) -> InputError:
    return InputError([Finding(rule=rule, severity=ERROR, message=message, hint=hint,
                               file=file, line=line, column=column, input_error=True)])


def __getattr__(name: str) -> Any:
    if name in ("BaseLoader", "BaseDumper", "HAVE_LIBYAML"):
        try:  # libyaml bindings: ~7x faster parsing, ~5x faster dumping
            from yaml import CSafeDumper as dumper, CSafeLoader as loader
        except ImportError:  # pragma: no cover - depends on how PyYAML was built
            from yaml import SafeDumper as dumper, SafeLoader as loader  # type: ignore[assignment]
        found = {"BaseLoader": loader, "BaseDumper": dumper, "HAVE_LIBYAML": loader.__name__.startswith("C")}
        globals().update(found)
        return found[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["AliasBudget", "BaseDumper", "BaseLoader", "Built", "DEFAULT_MAX_BYTES", "HAVE_LIBYAML", "MAX_DEPTH",
           "MAX_EXPANDED_BYTES", "MAX_EXPANDED_NODES", "MAX_INT_CHARS", "STDIN", "STDIN_NAME", "Unusual",
           "input_error"]
