"""The pipeline as functions: what the CLI, the KRM function and Python callers share.

The public names are re-exported from :mod:`compiler` (see ``__all__`` there).
"""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Sequence

from .config import ProjectConfig
from .errors import InputError
from .findings import Finding
from .pipeline import CompiledJob, compile_specs
from .profiles import ProfileRegistry
from .yamlio import DEFAULT_MAX_BYTES, STDIN, Document, display_name, load_documents, read_text

SPEC_SUFFIXES = (".yaml", ".yml")


def expand_paths(paths: Sequence[str]) -> List[str]:
    """Files as given, directories searched (sorted) for YAML files; ``-`` is stdin."""
    out: List[str] = []
    for path in paths:
        if path != STDIN and os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                out.extend(os.path.join(root, f) for f in sorted(files) if f.endswith(SPEC_SUFFIXES))
        else:
            out.append(path)
    return out


def read_documents(paths: Sequence[str], max_bytes: int = DEFAULT_MAX_BYTES) -> List[Document]:
    """Read every path; collect input errors from all of them before raising."""
    docs: List[Document] = []
    problems: List[Finding] = []
    for path in expand_paths(paths):
        try:
            docs.extend(load_documents(read_text(path, max_bytes), display_name(path)))
        except InputError as exc:
            problems.extend(exc.findings)
    if problems:
        raise InputError(problems)
    return docs


def compile_paths(paths: Sequence[str], config: Optional[ProjectConfig] = None,
                  registry: Optional[ProfileRegistry] = None,
                  max_bytes: int = DEFAULT_MAX_BYTES) -> List[CompiledJob]:
    """Compile the specs in files/directories; raise with all findings if any fails."""
    return compile_specs(read_documents(paths, max_bytes), registry, config)


def spec_document(data: Dict[str, Any], source: str = "<python>") -> Document:
    """Wrap a spec given as Python values so it goes through the same checks as a file."""
    return Document(source, 0, data, None)
