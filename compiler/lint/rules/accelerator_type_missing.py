"""A job labelled for other servers than Atlas 800 (910) names no server type, so it gets the Atlas 800 handler.

**What.** A job requesting ``huawei.com/Ascend910`` whose ``ring-controller.atlas``
label names servers other than Atlas 800 (910) (``ascend-910b``: the 910B and A3
profiles) should say which servers it is for: the ``accelerator-type`` node
selector (MindCluster ≤ 26.0 dialect), the ``huawei.com/schedule_policy``
annotation (read from MindCluster v7.3.2), or ``sp-block`` (A3 super-pod). This is |severity|.

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
reported. Up to v26.0.1, where the default handler refuses every node labelled with
another accelerator-type, it is an error; with a cluster snapshot whose nodes the pods
may land on include some without an accelerator-type (or labelled ``module``), a
warning: the job runs there, not on the servers its label names.

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

from typing import TYPE_CHECKING, Any, FrozenSet, Iterator, List, Optional, Tuple

from ...catalogue.citations import Citation, MC, PL
from ... import releases
from ...findings import ERROR, INFO, WARNING
from ...hardware.targeting import hardware_unnamed, known_policies
from ...releases import PLUGIN_STACKS
from ...vocabulary import ACCELERATOR_TYPE_LABEL, ASCEND_910, RING_LABEL, SCHEDULE_POLICY_ANNOTATION
from ..rule import Problem
from ._util import on_other_releases

if TYPE_CHECKING:
    from ...hardware.profiles import Profile
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("get910CardHandlerName", PL + "internal/npu/factory.go", MC)

#: the one accelerator-type the default handler takes where it checks the node's label
MODULE = "module"
_REFUSES = "module-handler-refuses-typed-nodes"


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


def _refusal(types: Tuple[str, ...]) -> str:
    named = f" (the {', '.join(types)} nodes the label names among them)" if types else ""
    return (f"its default Atlas 800 handler refuses every node whose {ACCELERATOR_TYPE_LABEL} label is not "
            f"{MODULE}{named} (\"check Node ... label [{ACCELERATOR_TYPE_LABEL}] Failed\"): the job runs only on "
            f"Atlas 800 (910) nodes labelled {MODULE} or not at all, and waits forever on a cluster without them")


def _on_the_cluster(run: RunContext, placed: List[Any]) -> Optional[Tuple[str, str]]:
    """With a cluster inventory, what its nodes say: (error, why) when every node offering a pod's NPUs that the pod
    selects has an accelerator-type other than module (the default handler refuses them all); (warning, why) when
    each pod may land on a node the default handler takes (no accelerator-type, or module): the job runs there, not
    on the servers its label names; None without nodes, or when some pod has no node at all (another rule's)."""
    if run.inventory is None or run.inventory.nodes is None:
        return None
    from ._cluster import usable  # only with a cluster inventory: a plain lint imports none of the cluster's code
    taken = []
    for pod_set in placed:
        resource, npus = pod_set.npu_resource() or ASCEND_910, max(pod_set.npus(), 1)
        nodes = [n for n in usable(run, pod_set) if n.allocatable.get(resource, 0) >= npus]
        if not nodes:
            return None
        untyped = [n for n in nodes if n.labels.get(ACCELERATOR_TYPE_LABEL) in (None, MODULE)]
        if not untyped:
            kinds = sorted({n.labels[ACCELERATOR_TYPE_LABEL] for n in nodes})
            return ERROR, (f"every one of the {len(nodes)} node(s) of the cluster that {pod_set.role}'s pods may land "
                           f"on is labelled {ACCELERATOR_TYPE_LABEL} {', '.join(kinds)}, so its pods are never placed")
        taken.append(len(untyped))
    return WARNING, (f"the cluster has node(s) it takes that the pods may land on ({min(taken)} or more per pod "
                     f"template, without {ACCELERATOR_TYPE_LABEL} or labelled {MODULE}): the job runs there")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if obj.npu_resource() != ASCEND_910 or run.profiles is None:
        return
    candidates, policy = run.candidate_profiles(obj), obj.schedule_policy
    if not hardware_unnamed(candidates, run.signals(obj)):
        return  # the job names its hardware (accelerator-type, a policy the release reads, sp-block)
    read = known_policies(run.profiles.all(), run.release)
    if policy and read and policy not in read:
        return  # an unknown policy: schedule-policy says so
    placed = [pod_set for pod_set in obj.npu_pod_sets() or obj.pod_sets() if obj.volcano_places(pod_set)]
    if not placed:
        return
    where = placed[0].spec_path + ("nodeSelector",)
    other = _other_servers(obj, run)
    types = other[1] if other else ()
    hint = (f"add nodeSelector {ACCELERATOR_TYPE_LABEL}: <{' | '.join(types or (MODULE,))}> to every pod template, or "
            f"the job annotation {SCHEDULE_POLICY_ANNOTATION}")
    said = (f"the job is labelled {RING_LABEL}={other[0]} but " if other else "the job ") + \
        f"names no {ACCELERATOR_TYPE_LABEL} or {SCHEDULE_POLICY_ANNOTATION}"
    if policy and not read:
        said += f" the plugin of MindCluster {run.release} reads (it ignores {SCHEDULE_POLICY_ANNOTATION}={policy})"
    elif policy:
        said += f" but {policy}, which MindCluster {run.release} gives the default handler too"
    if releases.value(_REFUSES, run.release):
        found = _on_the_cluster(run, placed)
        if found:  # the cluster's inventory says whether the handler takes a node the pods may land on
            severity = found[0] if found[0] == ERROR or other else INFO
            yield Problem(where, f"{said}: on MindCluster {run.release} {_refusal(types)}; {found[1]}", hint=hint,
                          key=True, severity=severity)
            return
        yield Problem(where, f"{said}: on MindCluster {run.release} {_refusal(types)}", hint=hint, key=True,
                      severity=ERROR if other else INFO)
        return
    older = releases.releases_where(_REFUSES, bool)
    if other is not None:
        refusal = _refusal(types).replace("its default", "the scheduler's default", 1)
        later = "" if run.target is None or run.target.given else f"; {on_other_releases(older, refusal)}"
        yield Problem(where, f"{said}: the scheduler gives it its default Atlas 800 (910) handler "
                             "(1, 2, 4 or 8 NPUs per pod) and may place its pods on any node with "
                             f"{ASCEND_910}, not only the servers the label names{later}", hint=hint, key=True)
    elif run.target is not None and not run.target.given:
        yield Problem(where, f"{said}: " + on_other_releases(older, _refusal(types)), hint=hint, key=True,
                      severity=INFO)
