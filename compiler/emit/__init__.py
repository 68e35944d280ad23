"""Emission: pure functions from a resolved :class:`~ascend_compile.jobspec.model.Spec` to Kubernetes objects.

No I/O and no globals: the same Spec always gives the same list of plain dicts, in apply order
(Namespace, ranktable ConfigMap, reset ConfigMap, job).  A ``podTemplatePatch`` or ``jobPatch`` that
cannot be merged, or that sets a key a spec field owns to another value than the field gives (AC024), raises
:class:`~ascend_compile.emit.patch.PatchError` with the spec path to blame.
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ..catalogue import GENERATED_KEY
from ..jobspec.model import Spec
from ..jobspec.generated import patched_owned_keys
from ..vocabulary import ASCEND_JOB, RING_LABEL
from . import ascendjob, configmap, volcanojob
from .patch import PatchError, apply_patch

__all__ = ["emit"]


def emit(spec: Spec) -> List[Dict[str, Any]]:
    objects: List[Dict[str, Any]] = []
    if spec.create_namespace and spec.namespace:
        objects.append(configmap.namespace(spec))
    if spec.ranktable == "file":
        objects.append(configmap.ranktable_configmap(spec))
    if spec.resilience.reset_config:
        objects.append(configmap.reset_configmap(spec))
    job = ascendjob.ascend_job(spec) if spec.target == ASCEND_JOB else volcanojob.volcano_job(spec)
    _refuse_patches_over_fields(spec, job)
    if spec.job_patch:
        job = apply_patch(job, spec.job_patch, ("spec", "jobPatch"))
    objects.append(job)
    return objects


def _at(node: Any, path: Sequence[Any]) -> Any:
    for part in path:
        if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = node.get(part) if isinstance(node, dict) else None
    return node


def _refuse_patches_over_fields(spec: Spec, job: Dict[str, Any]) -> None:
    """A patch that replaces a value a spec field gave the job (``fault-retry-times: "5"`` over ``faultRetryTimes:
    3``) is refused naming the field, whatever lint thinks of the result: the spec would say one thing in the
    field and another in the patch, and the patch would win silently.  A patch that restates the field's value
    (a whole task written out) or adds a key the spec's fields left out is left alone."""
    written = {"jobPatch": spec.job_patch, "podTemplatePatch": spec.pod_template_patch,
               "replicaTypes": {rtype: {"podTemplatePatch": settings.patch}
                                for rtype, settings in spec.replica_types.items()}}
    for path, field, where, key in patched_owned_keys(written, spec.profile, spec.target):
        if where == "podLabels":
            given = spec.profile.ring_controller if key == RING_LABEL else None
        else:
            given = _at(job, ("metadata", where, key) if where else key)
        value = _at(written, path[1:])
        if given is None or value == given:  # adding what the field would say, or restating it, overrides nothing
            continue
        what = ".".join(str(part) for part in path[2:])
        raise PatchError(path, f"{path[1]} sets {what} to {value!r}, which the compiler writes from {field}"
                         f" (here {given!r}): the spec would say one value there "
                         "and another here", f"remove {what} from spec.{path[1]} and use {field}", GENERATED_KEY)
