"""``compile --set PATH=VALUE``: change one field of every spec from the command line (CI overrides).

``PATH`` is a dotted field path of the spec from its root (``spec.image``, ``metadata.namespace``,
``spec.env.RELEASE``, ``spec.volumes.0.mountPath``); ``VALUE`` is read as one YAML value, so
``spec.npus=16`` is a number and ``'spec.env.VERSION="1.0"'`` a string.  The overridden specs go
through every check a spec file does; a finding about an overridden field names the ``--set``
argument instead of the file's line, since the value no longer comes from the file.
"""
from __future__ import annotations

import copy
from typing import Any, List, Sequence, Tuple, Union

from ..findings import Finding, Path
from ..records import record
from ..yamlio.locations import Document

#: The top-level fields a --set may change.
_ROOTS = ("metadata", "spec")


class OverrideError(ValueError):
    """A --set argument that cannot be applied: the message names it and says how to write it."""


@record(frozen=True)
class Override:
    argument: str
    path: Path
    value: Any


def parse(argument: str) -> Override:
    """``PATH=VALUE`` -> Override, or OverrideError naming the argument."""
    import yaml

    key, equals, raw = argument.partition("=")
    if not equals or not key.strip():
        raise OverrideError(f"--set {argument!r}: write PATH=VALUE, e.g. --set spec.image=registry/train:2.1")
    parts = key.strip().split(".")
    if parts[0] not in _ROOTS or len(parts) < 2 or not all(parts):
        raise OverrideError(f"--set {argument!r}: PATH is a dotted field path under "
                            f"{' or '.join(_ROOTS)}, e.g. spec.image or metadata.namespace")
    path: Tuple[Union[str, int], ...] = tuple(int(p) if p.isdigit() else p for p in parts)
    try:
        value = yaml.safe_load(raw) if raw.strip() else ""
    except yaml.YAMLError as exc:
        problem = str(getattr(exc, "problem", "") or exc)
        raise OverrideError(f"--set {argument!r}: VALUE is not a YAML value ({problem}); "
                            f"quote it for a string, e.g. --set '{key}=\"...\"'") from None
    return Override(argument, path, value)


def apply(doc: Document, overrides: Sequence[Override]) -> Document:
    """A copy of the spec document with every override applied (the original is left as it was)."""
    if not overrides or not isinstance(doc.data, dict):
        return doc
    data = copy.deepcopy(doc.data)
    for override in overrides:
        _set(data, override)
    return Document(doc.source, doc.index, data, doc.node)


def _set(data: Any, override: Override) -> None:
    *parents, last = override.path
    here = data
    for depth, key in enumerate(parents):
        if isinstance(here, list) and isinstance(key, int) and key < len(here):
            here = here[key]
            continue
        if not isinstance(here, dict):
            _cannot(override, depth)
        if key not in here or here[key] is None:
            here[key] = {}
        here = here[key]
    if isinstance(here, list) and isinstance(last, int) and last < len(here):
        here[last] = override.value
    elif isinstance(here, dict):
        here[last] = override.value
    else:
        _cannot(override, len(parents))


def _cannot(override: Override, depth: int) -> None:
    from ..findings import format_path

    at = format_path(override.path[:depth]) or "the spec"
    raise OverrideError(f"--set {override.argument!r}: {at} is not a mapping (or the list has no item "
                        f"{override.path[depth]}), so {format_path(override.path)} cannot be set")


def blame(findings: Sequence[Finding], overrides: Sequence[Override]) -> List[Finding]:
    """Findings about an overridden field (or inside it) point at the --set argument, not the file."""
    from dataclasses import replace

    out = []
    for finding in findings:
        owner = next((o for o in reversed(overrides) if finding.path[:len(o.path)] == o.path), None)
        if owner is None:
            out.append(finding)
            continue
        out.append(replace(finding, file=f"--set {owner.argument}", line=0, column=0,
                           hint=(finding.hint + "; " if finding.hint else "") +
                           f"the value comes from --set {owner.argument} (for the spec in {finding.file})"))
    return out
