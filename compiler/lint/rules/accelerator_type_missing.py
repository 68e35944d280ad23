"""A job labelled for other servers than Atlas 800 (910) names no server type, so it gets the Atlas 800 handler.

**What.** A job requesting ``huawei.com/Ascend910`` whose ``ring-controller.atlas``
label names servers other than Atlas 800 (910) (``ascend-910b``: the 910B and A3
profiles) should say which servers it is for: the ``accelerator-type`` node
selector (MindCluster ≤ 26.0 dialect), the ``huawei.com/schedule_policy``
annotation (26.1+ dialect), or ``sp-block`` (A3 super-pod). This is |severity|.

A job without any of them that is labelled ``ascend-910`` (or not labelled) is
not reported: the default handler is the Atlas 800 (910) one, and upstream's own
Atlas 800 samples (``a800_*_vcjob.yaml``, the operator's ``examples``) are written
exactly so. Pods no Volcano places (a Pod, Deployment or batch Job without
``schedulerName: volcano``) are not reported: the plugin's handlers never see them.

**Why.** Without a server type the Volcano plugin gives every ``Ascend910`` job its
default handler, ``huawei.com/Ascend910module``: the Atlas 800 (910) rules (1, 2, 4
or 8 NPUs per pod, HCCS rings of 4), and nothing keeps the pods on the servers the
label names (the plugin reports nothing for the choice itself). On the simulated
cluster a module-910b-8 AscendJob without its ``accelerator-type`` runs, with one
pod on a 910B node and the other on an Atlas 800 (910) node: the job starts, but
not on the servers it was written for (a 910B job with 16 NPUs per pod stays
Pending under the Atlas 800 rules). The same job labelled ``ascend-910`` runs as
well, which is right on a cluster of Atlas 800 servers; on a mixed cluster its pods
too may land on any 910 node, which the manifest cannot tell, so it is not
reported.

**How to fix.** Add the ``accelerator-type`` of the servers the job is for to
every pod template (``ascend-compile profiles`` lists them), or the job
annotation ``huawei.com/schedule_policy``.

Failing::

    metadata:
      labels: {ring-controller.atlas: ascend-910b}
    ...
        nodeSelector:
          host-arch: huawei-arm
        ... requests: {huawei.com/Ascend910: 8}

Passing::

    metadata:
      labels: {ring-controller.atlas: ascend-910b}
    ...
        nodeSelector:
          host-arch: huawei-arm
          accelerator-type: module-910b-8
"""
from __future__ import annotations

from typing import TYPE_CHECKING, FrozenSet, Iterator, List, Optional, Tuple

from ...vocabulary import (ACCELERATOR_TYPE_LABEL, ASCEND_910, RING_LABEL, SCHEDULE_POLICY_ANNOTATION,
                           SP_BLOCK_ANNOTATION)
from ..rule import Problem

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ..context import ObjectContext, RunContext


def _rings(profiles: List[Profile]) -> FrozenSet[str]:
    """Every ``ring-controller.atlas`` value a profile names."""
    return frozenset(p.ring_controller for p in profiles)


def _other_servers(obj: ObjectContext, run: RunContext) -> Optional[Tuple[str, Tuple[str, ...]]]:
    """(the label's value, the accelerator types of its profiles) when the job's ``ring-controller.atlas`` names
    servers none of which the default handler serves; None when it names none, or those servers."""
    default = {p.ring_controller for p in run.candidate_profiles(obj)}
    known = run.from_profiles(_rings)
    for _, value in obj.label_values(RING_LABEL):
        if isinstance(value, str) and value in known and value not in default:
            types = tuple(sorted({p.accelerator_type for p in run.profiles.all()
                                  if p.ring_controller == value and p.resource == ASCEND_910 and p.accelerator_type}))
            return value, types
    return None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.accelerator_type() or obj.npu_resource() != ASCEND_910 or obj.schedule_policy \
            or obj.block(SP_BLOCK_ANNOTATION)[0] or run.profiles is None:
        return
    placed = [pod_set for pod_set in obj.npu_pod_sets() or obj.pod_sets() if obj.volcano_places(pod_set)]
    if not placed:
        return
    other = _other_servers(obj, run)
    if other is None:
        return
    value, types = other
    where = placed[0].spec_path + ("nodeSelector",)
    yield Problem(where, f"the job is labelled {RING_LABEL}={value} but names no {ACCELERATOR_TYPE_LABEL} or "
                         f"{SCHEDULE_POLICY_ANNOTATION}: the scheduler gives it its default Atlas 800 (910) handler "
                         "(1, 2, 4 or 8 NPUs per pod) and may place its pods on any node with "
                         f"{ASCEND_910}, not only the servers the label names",
                  hint=f"add nodeSelector {ACCELERATOR_TYPE_LABEL}: <{' | '.join(types)}> to every pod template, or "
                       f"the job annotation {SCHEDULE_POLICY_ANNOTATION}" if types else None, key=True)
