"""Emission: pure functions from a resolved :class:`~ascend_compile.jobspec.Spec` to Kubernetes objects.

No I/O and no globals: the same Spec always gives the same list of plain dicts, in apply order
(Namespace, ranktable ConfigMap, reset ConfigMap, job).  A ``podTemplatePatch`` or ``jobPatch`` that
cannot be merged raises :class:`~ascend_compile.emit.patch.PatchError` with the spec path to blame.
"""
from __future__ import annotations

from typing import Any, Dict, List

from ..jobspec import Spec
from ..vocabulary import ASCEND_JOB
from . import ascendjob, configmap, volcanojob
from .patch import PatchError, apply_patch

__all__ = ["PatchError", "emit"]


def emit(spec: Spec) -> List[Dict[str, Any]]:
    objects: List[Dict[str, Any]] = []
    if spec.create_namespace and spec.namespace:
        objects.append(configmap.namespace(spec))
    if spec.ranktable == "file":
        objects.append(configmap.ranktable_configmap(spec))
    if spec.resilience.reset_config:
        objects.append(configmap.reset_configmap(spec))
    job = ascendjob.ascend_job(spec) if spec.target == ASCEND_JOB else volcanojob.volcano_job(spec)
    if spec.job_patch:
        job = apply_patch(job, spec.job_patch, ("spec", "jobPatch"))
    objects.append(job)
    return objects
