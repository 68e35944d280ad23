"""Plain scalars resolved and constructed as the careful loader does, without PyYAML for the common ones.

An implicit resolver of PyYAML's safe loader claims a plain scalar only by its first character: any other
first character makes a string.  Letters, ``~``, ``<`` and ``=`` start only booleans, nulls, the merge key
and the value key, each a fixed set of spellings; ``0`` and decimal integers are ints; a scalar that no
YAML 1.1 int, float or timestamp form matches (an address, a quantity like ``256Gi``) is a string.  The
rest (other numbers, dates) goes to the loader itself (:mod:`.loader`, imported then).  The tests check
all of this against the loader's own resolvers and constructors.
"""
from __future__ import annotations

import re
from typing import Any, Dict, FrozenSet

from .common import MAX_INT_CHARS, Unusual

#: the first characters of the plain scalars an implicit resolver may claim (the loader's table, by hand)
FIRST: FrozenSet[str] = frozenset("yYnNtTfFoO~<=-+.0123456789")
#: every spelling a resolver claims among plain scalars that start with a letter or ``~``
WORDS: Dict[str, Any] = {
    **{word: True for word in ("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON")},
    **{word: False for word in ("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF")},
    **{word: None for word in ("null", "Null", "NULL", "~")},
}
_WORD_FIRST = frozenset("yYnNtTfFoO~")
_DECIMAL = re.compile(r"[-+]?[1-9][0-9]*|0")
#: the YAML 1.1 forms of ints, floats and timestamps (http://yaml.org/type/): what a resolver may claim
_NUMBERS = (r"[-+]?(?:0b[01_]+|0[0-7_]+|0|[1-9][0-9_]*|0x[0-9a-fA-F_]+|[1-9][0-9_]*(?::[0-5]?[0-9])+)"
            r"|[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?"
            r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
            r"|[0-9]{4}-[0-9]{2}-[0-9]{2}"
            r"|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
            r"(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?")
_numbers: Any = None  # _NUMBERS compiled, when first needed
#: every character those forms use: a scalar with any other (``256Gi``), or with two dots (an address), is a string
_NUMBER_CHARS = frozenset("0123456789_.:+-eExXbBoOtTzZabcdfABCDFinINaA \t")
_NOTHING = object()
_LOADER: Any = None


def resolve(text: str) -> Any:
    """The value of the one-line plain scalar ``text`` (not empty); :class:`Unusual` for merge and value keys
    and for what the loader's constructors refuse (the careful loader reports those)."""
    first = text[0]
    if first not in FIRST:
        return text
    if first in _WORD_FIRST:
        value = WORDS.get(text, _NOTHING)
        return text if value is _NOTHING else value
    if first in "<=":
        if text in ("<<", "="):
            raise Unusual
        return text
    if _DECIMAL.fullmatch(text) is not None and len(text) <= MAX_INT_CHARS:
        return int(text)
    if text.count(".") > 1 or not _NUMBER_CHARS.issuperset(text):
        return text
    global _numbers
    if _numbers is None:
        _numbers = re.compile(_NUMBERS)
    return text if _numbers.fullmatch(text) is None else _by_the_loader(text)


def _by_the_loader(text: str) -> Any:
    global _LOADER
    import yaml

    from .fastload import plain
    from .loader import Loader

    if _LOADER is None:
        _LOADER = Loader("")
    try:
        return plain(_LOADER, text, None, None)
    except yaml.YAMLError:
        raise Unusual from None
