"""A job no spec can carry because what it has (or lacks) is a spec field's to write: the refusal import gives
instead of a spec whose ``jobPatch`` compile would refuse (rule AC024, :mod:`ascend_compile.emit.ownership`).

The import search compiles specs without their patch; the spec it keeps is judged once, here, with the same
ownership compile derives. A path a field owns that the manifest changes, adds or removes cannot be carried: the
refusal says what the manifest has or lacks, what the spec's job would have instead, and what the user can do that
works (keep the job as a manifest, or make the manifest say what the spec writes and import again).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..config import ProjectConfig
from ..emit import ownership, unpatched_job
from ..errors import CompileError
from ..hardware.profiles import ProfileRegistry
from ..jobspec.resolve import resolve
from ..yamlio.locations import Document

#: (where in the manifest, message, hint) of a refusal
Refusal = Tuple[Tuple[Any, ...], str, str]


def uncarried_owned(spec: Dict[str, Any], accepted: Dict[str, Any], registry: ProfileRegistry,
                    config: ProjectConfig) -> Optional[Refusal]:
    """Why the job ``accepted`` (the manifest, harmless differences taken over) is not what ``spec`` (no patch)
    compiles to plus a patch compile accepts, or None when a patch can carry every difference."""
    try:
        resolved = resolve(Document("<import>", 0, spec, None), registry, config)
    except CompileError:
        return None  # the spec does not compile at all: said by the compile that follows
    job = unpatched_job(resolved)
    found = ownership.overridden(ownership.derive(resolved, job, unpatched_job), (), job, accepted)
    if found is None:
        return None
    inner, here, old, new = found
    inner = _outermost(inner, accepted if new is ownership.ABSENT else job)
    old, new = ownership.at(job, inner), ownership.at(accepted, inner)
    what, owner = ownership.text(inner), here.fields[0]
    keep = "keep this job as a manifest ('ascend-compile lint' checks it)"
    if old is ownership.ABSENT:
        message = (f"the job has {what}: {_shown(new)}, which only {owner} writes, and with the values its other "
                   f"settings need {owner} writes none there: no spec compiles to this job")
        hint = f"{keep}, or take {what} out of the manifest and import it again (the spec's job then lacks it)"
    elif new is ownership.ABSENT:
        message = (f"the job lacks {what}, which its spec's {owner} writes ({_shown(old)}): compile would add it, "
                   "so the spec's job would be a different one")
        hint = f"{keep}, or add {what}: {_shown(old)} to the manifest (accepting what the spec adds) and import it again"
    else:
        message = (f"the job has {what}: {_shown(new)} where its spec's {owner} writes {_shown(old)}, and no value of "
                   f"{owner} that fits the rest of the job writes {_shown(new)}")
        hint = f"{keep}, or change {what} to {_shown(old)} in the manifest and import it again"
    return _in_manifest(inner, accepted), message, hint


def _outermost(path: Tuple[Any, ...], tree: Any) -> Tuple[Any, ...]:
    """``path`` shortened to the outermost named object ``tree`` lacks (a whole volume, not its ConfigMap's
    name); a key of a map stays the key."""
    for end in range(1, len(path)):
        if isinstance(path[end - 1], ownership.Item) and ownership.at(tree, path[:end]) is ownership.ABSENT:
            return path[:end]
    return path


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _in_manifest(path: Tuple[Any, ...], data: Any) -> Tuple[Any, ...]:
    """An ownership path (list items by name) as a path of the manifest, as far as the manifest has it."""
    out: List[Any] = []
    for part in path:
        if isinstance(part, ownership.Item) and isinstance(data, list):
            index = next((i for i, item in enumerate(data) if isinstance(item, dict)
                          and item.get("name") == part.name), None)
            if index is None:
                break
            out.append(index)
            data = data[index]
        elif isinstance(data, dict) and part in data:
            out.append(part)
            data = data[part]
        else:
            break
    return tuple(out)
