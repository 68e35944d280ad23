"""What ``lint`` and ``validate`` share once their options are read: the rules ``--disable`` names, the Volcano
release ``--volcano-version`` names, and the exit codes of nothing read and of a file refused.  No click here."""
from __future__ import annotations

import sys
from typing import Any, List, Optional, Sequence

from ._session import Usage


def disabled_rules(disable: Sequence[str]) -> List[str]:
    """The rules ``--disable`` names (repeated, or comma-separated); an unknown one, or one that cannot be
    disabled (an input error), is a usage error: it would silently disable nothing."""
    from ..catalogue import get
    from ..config import cannot_disable

    disabled = [part.strip() for item in disable for part in item.split(",") if part.strip()]
    unknown = [d for d in disabled if get(d) is None]
    if unknown:
        raise Usage(f"--disable: unknown rule {', '.join(unknown)} (see 'ascend-compile rules')")
    refused_ = [cannot_disable(d) for d in disabled if cannot_disable(d)]
    if refused_:
        raise Usage(f"--disable: {'; '.join(refused_)}")
    return disabled


def volcano(value: Optional[str]) -> Optional[str]:
    """``--volcano-version`` as the schemas name the release; one there are no schemas for is a usage error."""
    if value is None:
        return None
    from ..schemacheck.registry import normalize_volcano_version

    try:
        return normalize_volcano_version(value)
    except ValueError as exc:  # it names the releases there are schemas for
        raise Usage(f"--volcano-version: {exc}") from None


def nothing_read(command: str, files: int, code: int, left_out: Sequence[Any]) -> int:
    """Exit 2 when the paths held no YAML file at all: a renamed folder must not pass as clean (kubeconform
    passes an empty folder; a linter in CI must not, so this is an input error, said on stderr alone).

    Files that discovery left out on purpose (``left_out``: a Helm chart, whose note may be disabled, a kustomize
    patch, whose warning may not) count as found: pre-commit may pass only a patch.
    """
    from ..findings import EXIT_INPUT

    if files == 0 and code != EXIT_INPUT and not left_out:
        sys.stderr.write(f"ascend-compile {command}: no YAML files found in the given paths\n")
        return EXIT_INPUT
    return code


def refused(exc: Any) -> int:
    """A file the command was asked to write or read and did not: its findings on stderr, exit code 2."""
    from ..findings import EXIT_INPUT
    from ..report import render

    render(exc.findings, "text", stream=sys.stderr)
    return EXIT_INPUT
