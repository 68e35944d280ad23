"""ascend-compile: compact training-job specs in, validated Ascend/Volcano manifests out.

The public API is listed in ``__all__``; names load on first use, so
``import compiler`` stays cheap for the command line.
"""
from __future__ import annotations

from typing import Any

from ._version import __version__

__all__ = [
    "__version__",
]


def __getattr__(name: str) -> Any:
    raise AttributeError(f"module 'compiler' has no attribute {name!r}")
