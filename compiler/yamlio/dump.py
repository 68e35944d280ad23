"""Writing: a ``---``-separated stream with a fixed style, so the same objects give byte-identical text."""
from __future__ import annotations

from typing import Any, Iterable

import yaml

from .common import BaseDumper



class _Dumper(BaseDumper):  # type: ignore[misc,valid-type]
    """Block style, insertion order kept, no aliases: stable and kubectl-friendly."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_str(dumper: yaml.SafeDumper, data: str) -> yaml.ScalarNode:
    if "\n" in data:
        return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", data)


_Dumper.add_representer(str, _represent_str)  # type: ignore[arg-type]


def dump_document(obj: Any) -> str:
    return yaml.dump(obj, Dumper=_Dumper, sort_keys=False, default_flow_style=False,
                     allow_unicode=True, width=4096, indent=2)


def dump_documents(objs: Iterable[Any]) -> str:
    """A ``---``-separated stream, each document starting with ``---``."""
    return "".join("---\n" + dump_document(obj) for obj in objs)
