"""The floors of compiler/, shared by the layout test and the test of docs/architecture.md's table."""
from __future__ import annotations

from typing import List, Set, Tuple

#: The floors of compiler/, bottom first, as docs/architecture.md names them: every top-level module and package
#: stands on one ("" is the package's own __init__.py), and imports only from the floors below its own.
FLOORS: List[Tuple[str, Set[str]]] = [
    ("base", {"_version", "records", "releases", "resources", "textdiff", "vocabulary"}),
    ("findings", {"findings", "podtemplates"}),
    ("catalogue", {"catalogue"}),
    ("errors", {"errors"}),
    ("safe I/O", {"safeio"}),
    ("text and caches", {"yamlio", "datacache"}),
    ("checked data", {"config", "schemacheck"}),
    ("inputs and hardware", {"files", "hardware"}),
    ("models", {"jobspec", "manifest"}),
    ("cluster model", {"inventory"}),
    ("stages", {"emit", "lint"}),
    ("pipelines and edges", {"compiling", "kube", "report"}),
    ("use cases", {"api", "importer", "webhook"}),
    ("entry points", {"cli", ""}),
    ("main", {"__main__"}),
]
