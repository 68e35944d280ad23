"""The linter: rule units over manifests, plus schema checks, in one run.

``lint_documents``, ``lint_objects`` and ``lint_paths`` are the entry points
(:mod:`ascend_compile.lint.oneshot`, :mod:`ascend_compile.lint.paths`); rules are listed by the rule catalogue (:mod:`ascend_compile.catalogue`),
their units loaded by :mod:`ascend_compile.lint.registry`.  Importing this package is cheap: the engine and
the rule units load on first use.
"""
from __future__ import annotations

from typing import Any

__all__ = ["lint_documents", "lint_objects", "lint_paths", "Linter"]


def __getattr__(name: str) -> Any:
    if name == "lint_paths":
        from . import paths

        return paths.lint_paths
    if name == "Linter":
        from . import engine

        return engine.Linter
    if name in __all__:
        from . import oneshot

        return getattr(oneshot, name)
    raise AttributeError(f"module 'ascend_compile.lint' has no attribute {name!r}")
