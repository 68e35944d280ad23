"""The ``sp-block`` / ``ra-block`` annotations do not fit the super-pod arithmetic.

**What.** On super-pod profiles (A3 ``module-a3-16-super-pod`` /
``module-a3-8-super-pod``, 850/950 super-pods): a single-pod job's
``sp-block`` equals its NPU count; in a distributed job ``sp-block`` is a
multiple of the NPUs per node (or the whole job when smaller), the job's
total is a multiple of ``sp-block``, and ``sp-block``/node ≤ the super-pod
size (48 by default); ``ra-block`` is one of the profile's rack blocks (950:
1, 2, 4, ..., 64). A missing ``sp-block`` defaults to the job total. The job
total is what the plugin reads from the PodGroup's minResources: the NPUs of
the job's first ``minAvailable`` pods (all pods when minAvailable is unset).

**Why.** ascend-for-volcano refuses the job when ``sp-block`` is not a positive
number, is not a multiple of a node's NPUs, does not divide a distributed job's
NPUs, differs from a standalone job's NPUs, or spans more nodes than a super-pod
has. Arithmetic shared with ``compile`` (``compiler/hardware/arithmetic.py``),
numbers from the profile's ``superPod``.

**How to fix.** Set ``sp-block`` to a multiple of the node size that divides the
job total (or leave it out), and ``ra-block`` to an allowed value.

Failing::

    metadata:
      annotations:
        sp-block: "24"     # 2 pods x 16 NPUs on module-a3-16-super-pod

Passing::

    metadata:
      annotations:
        sp-block: "32"
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional, Tuple

from ...catalogue.citations import Citation, MC, PL, Place
from ...hardware import arithmetic
from ...manifest.values import as_dict, as_int
from ...releases import PLUGIN_STACKS
from ...vocabulary import ASCEND_JOB, RA_BLOCK_ANNOTATION, SP_BLOCK_ANNOTATION
from ..rule import Problem
from ._util import first_npu_path

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("checkSpBlock", PL + "internal/npu/ascend910/ascend910a3/superpod/frame.go", MC,
                    "sp-block(%d) is not mutiple of node npu (%d)",
                    also=(Place("setSpBlock", PL + "plugin/job.go", MC),
                          Place("GetVCJobReqNPUTypeFromJobInfo", PL + "plugin/job.go", MC)))


def _min_available(obj: ObjectContext) -> Optional[int]:
    """The job's minAvailable (AscendJob schedulingPolicy or Volcano Job spec), None when unset or not a number."""
    policy = as_dict(as_dict(obj.spec.get("runPolicy")).get("schedulingPolicy"))
    return as_int(policy.get("minAvailable") if obj.kind == ASCEND_JOB else obj.spec.get("minAvailable"))


_ANNOTATION = ("metadata", "annotations")  # where a missing sp-block / ra-block would go


def scheduled_layout(obj: ObjectContext) -> Tuple[arithmetic.NpuLayout, bool]:
    """The NPU layout as the plugin sees it: its job total is the PodGroup's minResources, the NPUs of the
    job's first minAvailable pods, when every pod asks the same count."""
    layout = obj.npu_layout()
    wanted = _min_available(obj)
    all_pods = sum(max(p.replicas, 0) for p in obj.pod_sets())
    if wanted is None or not 0 < wanted < layout.pods or len(layout.counts) != 1 or all_pods != layout.pods:
        return layout, False
    return arithmetic.NpuLayout(layout.counts, layout.pods, wanted * layout.counts[0]), True


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    profiles = [p for p in run.candidate_profiles(obj) if p.super_pod is not None]
    if not profiles or len(profiles) != len(run.candidate_profiles(obj)):
        return  # a candidate without super pods has no sp-block rules: nothing holds for every one
    layout, partial = scheduled_layout(obj)
    if not layout.pods:
        return
    sp_present, sp_block = obj.block(SP_BLOCK_ANNOTATION)
    ra_present, ra_block = obj.block(RA_BLOCK_ANNOTATION)
    sp_value, sp_path = obj.job_annotation(SP_BLOCK_ANNOTATION) or (None, _ANNOTATION + (SP_BLOCK_ANNOTATION,))
    ra_value, ra_path = obj.job_annotation(RA_BLOCK_ANNOTATION) or (None, _ANNOTATION + (RA_BLOCK_ANNOTATION,))
    if sp_present and sp_block is None:
        yield Problem(sp_path, f"sp-block {sp_value!r} is not an integer",
                      hint='write it as a quoted integer, e.g. sp-block: "16"')
        return
    if ra_present and ra_block is None:
        yield Problem(ra_path, f"ra-block {ra_value!r} is not an integer",
                      hint='write it as a quoted integer, e.g. ra-block: "8"')
        ra_present = False
    found = [arithmetic.check_super_pod(p, layout, sp_block, ra_block if ra_present else None) for p in profiles]
    if not all(found):
        return  # some candidate accepts the job
    for violation in found[0]:
        if violation.subject == RA_BLOCK_ANNOTATION:
            path = ra_path
        elif sp_present:
            path = sp_path
        else:
            path = first_npu_path(obj)
        note = " (the scheduler counts the NPUs of the job's minAvailable pods only)" if partial else ""
        yield Problem(path, violation.message + note, hint=violation.hint, severity=violation.severity)
