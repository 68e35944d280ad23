"""An imported spec as YAML text: where it came from, and a comment over what only ``jobPatch`` could say."""
from __future__ import annotations

from typing import Any, List

from ..safeio.text import printable
from ..yamlio.dump import dump_document

JOB_PATCH_LINE = "  jobPatch:\n"


def render(imported: Any) -> str:
    if imported.accepted:
        header = [f"# Imported from {printable(imported.source)} by 'ascend-compile import'; it compiles to a job "
                  "the cluster treats the same,", "# with these differences ('import --exact' keeps them out):"]
        header += [f"#   - {printable(one)}" for one in imported.accepted]
    else:
        header = [f"# Imported from {printable(imported.source)} by 'ascend-compile import'; it compiles back to "
                  "the same job."]
    header += [f"# Note: {printable(note)}." for note in imported.notes]
    text = dump_document(imported.spec)
    if JOB_PATCH_LINE in text:
        text = text.replace(JOB_PATCH_LINE, "  # jobPatch: what the fields above cannot say about this job, found by "
                                            "import; review it\n  # (a field of the spec may say it more plainly: "
                                            "docs/spec.md).\n" + JOB_PATCH_LINE, 1)
    return "\n".join(header) + "\n" + text


def render_all(imported: List[Any]) -> str:
    return "".join(("---\n" if i else "") + render(one) for i, one in enumerate(imported))
