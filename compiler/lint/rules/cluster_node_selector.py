"""No node of the cluster can take the pods: none has the labels they select, or every such node is tainted.

**What.** With ``--cluster`` or ``--cluster-snapshot``: no Ready, uncordoned
node carries every label a pod template's ``nodeSelector`` names
(``host-arch``, ``accelerator-type`` or any other), or none of those meets its
required node affinity (``requiredDuringSchedulingIgnoredDuringExecution``:
one of its terms, every expression of it), or every node that does has a
``NoSchedule``/``NoExecute`` taint the pods do not tolerate. The message
says what the cluster has instead: how many nodes carry the other labels, and
their values of the one that is missing.

**Why.** The scheduler places a pod only on a node with every selected label;
a job whose ``host-arch`` or ``accelerator-type`` no node has stays Pending for
ever (the simulated cluster shows it: some server models come as Arm and x86,
so only the cluster knows which it has). Offline, lint cannot know the nodes,
so this rule runs only against a cluster inventory. A pod template kept off
every node by its ``accelerator-type`` alone, a value the Ascend plugin refuses
the job for before it places any pod, is AC306's error, not this rule's; a
selected value the API server refuses as a label value (a space, a ``/``) is
AC712's.

**How to fix.** Select the labels of nodes the cluster has (``kubectl get
nodes -L host-arch,accelerator-type``), require an affinity some of them meet
(the message lists their values), add tolerations for the taints, or run the
job on a cluster with such nodes.

Failing::

    nodeSelector: {host-arch: huawei-x86, accelerator-type: module-910b-8}   # the cluster's are huawei-arm

Passing::

    nodeSelector: {host-arch: huawei-arm, accelerator-type: module-910b-8}
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterator, List, Tuple

from ...catalogue.citations import Citation, K8S
from ...manifest.pods import NODE_AFFINITY_PATH
from ...vocabulary import ACCELERATOR_TYPE_LABEL
from ..rule import Problem
from ._cluster import affinity_text, counted, inventory, labels_text, names, once, selected, selector_of, usable
from ._labels import value_problem
from .accelerator_type_unknown import refuses_job_for

if TYPE_CHECKING:
    from ...inventory.model import Node
    from ...manifest.pods import Term
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

CITATION = Citation("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                    "node(s) didn't match Pod's node affinity/selector")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.nodes is None:
        return
    for pod_set in obj.pod_sets():
        if pod_set.replicas == 0 or usable(run, pod_set):
            continue
        if any(isinstance(v, str) and value_problem(v) for v in pod_set.node_selector.values()):
            continue  # a selected value the API server refuses: AC712's error, the pods are never created
        selector, affinity = selector_of(pod_set), pod_set.node_affinity
        matching = selected(run, selector)
        if matching and affinity is not None:
            if not selected(run, selector, affinity):
                yield Problem(pod_set.spec_path + NODE_AFFINITY_PATH,
                              f"{pod_set.role}: no schedulable node with {labels_text(selector)} ({len(matching)}) "
                              f"meets the pods' required node affinity ({affinity_text(affinity)}); "
                              f"{once(matching, ('affinity', affinity), lambda: _affinity_have(matching, affinity))}: the pods are "
                              "never placed")
                continue
            matching = selected(run, selector, affinity)
        if matching:
            taints = once(matching, ("taints",), lambda: counted(Counter(
                f"{t.key}={t.value}:{t.effect}" if t.value else f"{t.key}:{t.effect}" for n in matching for t in n.taints)))
            yield Problem(pod_set.spec_path + (("tolerations",) if "tolerations" in pod_set.spec else ()),
                          f"{pod_set.role}: every node with {labels_text(selector)} ({len(matching)}) has a taint the "
                          f"pods do not tolerate ({taints}): they are never placed")
            continue
        if refuses_job_for(obj, run, pod_set) and usable(run, pod_set, ACCELERATOR_TYPE_LABEL):
            continue  # only its accelerator-type keeps the pods off the nodes, and the plugin refuses the job for
            # that value whatever the nodes: AC306's error
        label, text = _missing(run, selector)
        path = pod_set.spec_path + (("nodeSelector", label) if label else ())
        yield Problem(path, f"{pod_set.role}: no schedulable node has {labels_text(selector)}; {text}: the pods are "
                      "never placed")


def _affinity_have(nodes: List[Node], affinity: Tuple[Term, ...]) -> str:
    """What the nodes have of what the affinity asks about: their values of its labels (at most 3), their names."""
    keys = sorted({key for labels, _ in affinity for key, _, _ in labels})
    parts = [f"their {key}: {counted(Counter(n.labels.get(key, '') for n in nodes))}" for key in keys[:3]]
    if any(fields for _, fields in affinity):
        parts.append(f"their names: {names([n.name for n in nodes])}")
    return "; ".join(parts)


def _missing(run: RunContext, selector: Tuple[Tuple[str, str], ...]) -> Tuple[str, str]:
    """(the selected label to blame, what the cluster has instead)."""
    if not selector:
        return "", "the cluster has no schedulable node"
    notes: List[Tuple[int, str, str]] = []
    for i, (key, value) in enumerate(selector):
        rest = selector[:i] + selector[i + 1:]
        others = selected(run, rest)
        values = once(others, ("values", key), lambda: counted(Counter(n.labels.get(key, "") for n in others)))
        have = f"nodes with {labels_text(rest)}: {len(others)}" if rest else f"schedulable nodes: {len(others)}"
        notes.append((-len(others), key, f"{have}, their {key}: {values if others else 'none'}"))
    notes.sort()
    _, key, text = notes[0]
    return key, text
