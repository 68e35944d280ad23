"""The syntax Kubernetes' API server holds label and annotation keys, label values and selectors to.

A key is a name, optionally after a DNS-1123 subdomain prefix and one ``/``; the name has 1 to 63 letters,
digits, ``-``, ``_`` and ``.``, and starts and ends with a letter or digit. An annotation key is checked in
lower case (its prefix may hold capitals). A label value is empty, or such a name. The annotations of one
object take at most 256 KiB, keys and values together. Lengths are in bytes, as Kubernetes counts them
(a character outside ASCII is refused anyway). The functions answer what is wrong, in words, or None.
"""
from __future__ import annotations

import re
from typing import List, Optional

from ...vocabulary import DNS1123_SUBDOMAIN, MAX_LABEL_LENGTH, MAX_SUBDOMAIN_LENGTH

#: a name part: a letter or digit, then optionally letters, digits, '-', '_' or '.' ending with a letter or digit
_NAME = re.compile(r"[A-Za-z0-9](?:[-_.A-Za-z0-9]*[A-Za-z0-9])?")
#: the most bytes the keys and values of one object's annotations may take together
ANNOTATIONS_LIMIT = 256 * 1024
NAME_RULE = "a letter or digit at each end and only letters, digits, '-', '_' or '.' in between"
KEY_FORM = (f"an optional DNS subdomain prefix and '/', then a name of at most {MAX_LABEL_LENGTH} characters with "
            f"{NAME_RULE}")
VALUE_RULE = f"must be empty, or at most {MAX_LABEL_LENGTH} characters with {NAME_RULE}"


def _size(text: str) -> int:
    return len(text) if text.isascii() else len(text.encode("utf-8"))


def key_problem(key: str, annotation: bool = False) -> Optional[str]:
    """What the API server finds wrong with ``key`` as a label key (an annotation key: ``annotation``), or None."""
    parts = (key.lower() if annotation else key).split("/")
    if len(parts) > 2:
        return f"has {len(parts) - 1} '/': a key is {KEY_FORM}"
    found: List[str] = []
    if len(parts) == 2:
        prefix = parts[0]
        if not prefix:
            found.append("has an empty prefix before '/'")
        elif _size(prefix) > MAX_SUBDOMAIN_LENGTH or not DNS1123_SUBDOMAIN.fullmatch(prefix):
            found.append(f"has the prefix {prefix!r}, which is no DNS subdomain (at most {MAX_SUBDOMAIN_LENGTH} "
                         "lower-case letters, digits, '-' and '.', a letter or digit at each end of every part)")
    name = parts[-1]
    if not name:
        found.append("has an empty name" + (" after '/'" if len(parts) == 2 else ""))
    elif _size(name) > MAX_LABEL_LENGTH:
        found.append(f"has a name of {_size(name)} characters (at most {MAX_LABEL_LENGTH})")
    if name and not _NAME.fullmatch(name):
        found.append(f"must have {NAME_RULE}" if len(parts) == 1 else
                     f"must have, after the '/', a name with {NAME_RULE}")
    return "; ".join(found) or None


def value_problem(value: str) -> Optional[str]:
    """What the API server finds wrong with ``value`` as a label value, or None."""
    if not value or (_size(value) <= MAX_LABEL_LENGTH and _NAME.fullmatch(value)):
        return None
    return VALUE_RULE + (f" (it has {_size(value)})" if _size(value) > MAX_LABEL_LENGTH else "")


def qualified_name(key: str) -> bool:
    """Whether ``key`` is a label key as Kubernetes checks one."""
    return key_problem(key) is None
