"""Emission: pure functions from a resolved :class:`~ascend_compile.jobspec.model.Spec` to Kubernetes objects.

No I/O and no globals: the same Spec always gives the same list of plain dicts, in apply order
(Namespace, ranktable ConfigMap, reset ConfigMap, job).  The patches are merged into the job last: the shared
``podTemplatePatch``, then the replica type's, into each pod template, then ``jobPatch`` into the job.  A patch
that cannot be merged (AC025), or that changes what a spec field writes (AC024, :mod:`.ownership`), raises
:class:`~ascend_compile.emit.patch.PatchError` with the spec path of the patch line to blame.
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence, Tuple

from ..catalogue import GENERATED_KEY
from ..jobspec.model import Spec
from ..vocabulary import ASCEND_JOB, WORKER
from . import ascendjob, configmap, volcanojob
from .patch import PatchError, apply_patch

__all__ = ["emit", "unpatched_job"]

Path = Tuple[Any, ...]


def emit(spec: Spec) -> List[Dict[str, Any]]:
    objects: List[Dict[str, Any]] = []
    if spec.create_namespace and spec.namespace:
        objects.append(configmap.namespace(spec))
    if spec.ranktable == "file":
        objects.append(configmap.ranktable_configmap(spec))
    if spec.resilience.reset_config:
        objects.append(configmap.reset_configmap(spec))
    job = unpatched_job(spec)
    patches = _patches(spec, job)
    if patches:
        job = _patched(spec, job, patches)
    objects.append(job)
    return objects


def unpatched_job(spec: Spec) -> Dict[str, Any]:
    """The job as the spec's fields say it, before the patches."""
    return ascendjob.ascend_job(spec) if spec.target == ASCEND_JOB else volcanojob.volcano_job(spec)


def _patches(spec: Spec, job: Dict[str, Any]) -> List[Tuple[Path, Any, Path]]:
    """(where in the job, the patch, where in the spec) of every patch, in the order they are merged."""
    if not (spec.pod_template_patch or spec.job_patch or any(r.patch for r in spec.replica_types.values())):
        return []
    from .ownership import Item

    if spec.target == ASCEND_JOB:
        templates = [(rtype, ("spec", "replicaSpecs", rtype, "template")) for rtype in job["spec"]["replicaSpecs"]]
    else:
        templates = [(WORKER, ("spec", "tasks", Item(spec.task_name), "template"))]
    out: List[Tuple[Path, Any, Path]] = []
    for rtype, where in templates:
        out += [(where, spec.pod_template_patch, ("spec", "podTemplatePatch")),
                (where, spec.replica(rtype).patch, ("spec", "replicaTypes", rtype, "podTemplatePatch"))]
    out.append(((), spec.job_patch, ("spec", "jobPatch")))
    return [(where, patch, field) for where, patch, field in out if patch]


def _patched(spec: Spec, job: Dict[str, Any], patches: Sequence[Tuple[Path, Any, Path]]) -> Dict[str, Any]:
    from . import ownership

    owned = ownership.derive(spec, job, unpatched_job)
    for where, patch, field in patches:
        before = ownership.at(job, where)
        after = apply_patch(before, patch, field)
        found = ownership.overridden(owned, where, before, after)
        if found is not None:
            inner, here, old, new = found
            _refuse(field + ownership.in_patch(patch, inner), field, ownership.text(where + inner), here, old, new)
        job = _put(job, where, after)
    return job


def _refuse(at: Path, field: Path, what: str, here: Any, old: Any, new: Any) -> None:
    """Raise AC024 for the patch at ``field`` that changes ``what`` (``here``: its owners) from ``old`` to ``new``."""
    from .ownership import ABSENT

    patch, owners = ".".join(str(part) for part in field), here.fields
    owner, also = owners[0], f" (the value there depends on {', '.join(owners[1:])} too)" if len(owners) > 1 else ""
    hint = f"remove it from {patch} and set {owner} instead{also}"
    if old is ABSENT:
        did = f"adds {what}: {_shown(new)}, a value {owner} writes (with this spec it writes none there)"
    elif new is ABSENT and not here.optional:
        did = f"removes {what} ({_shown(old)}), which the compiler writes from {owner} whatever its value"
        hint = (f"take the removal out of {patch}: no spec field leaves it out, so a job without it stays a manifest "
                f"(checked with 'ascend-compile lint'){also}")
    elif new is ABSENT:
        did = f"removes {what} ({_shown(old)}), which {owner} writes"
    else:
        did = f"sets {what} to {_shown(new)}, which {owner} writes ({_shown(old)} here)"
    raise PatchError(at, f"{patch} {did}: the job would not say what the spec field says, and the field's checks "
                         "would not see the patch's value", hint, GENERATED_KEY)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _put(node: Any, path: Sequence[Any], value: Any) -> Any:
    """A copy of ``node`` with ``value`` at ``path`` (which is there), the rest shared."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(node, dict):
        return {**node, head: _put(node[head], rest, value)}
    return [_put(item, rest, value) if isinstance(item, dict) and item.get("name") == head.name else item
            for item in node]
