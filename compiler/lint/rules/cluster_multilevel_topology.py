"""A multi-level scheduling job on a cluster without the topology the Ascend plugin places it by.

**What.** With ``--cluster`` or ``--cluster-snapshot`` (when it holds the Volcano
scheduler's configuration): a job with ``huawei.com/schedule_policy: multilevel``
and a valid ``huawei.com/affinity-config`` of N levels, and the cluster lacks
what the plugin's multilevel handler needs: a ``resource-level-config`` in the
plugin's ``init-params`` (topology trees, each naming the node label of its
levels ``level1``, ``level2``, ...), a tree of at least N levels, or, among
the nodes the job's NPU pods may use, one in such a tree (its
``huawei.com/topotree`` label names the tree, ``default`` without one) that
carries the label of every level of its tree.

**Why.** The handler refuses every node whose tree the configuration does not
have or whose level labels it lacks, and builds its placement only from trees
with at least as many levels as the job ("no resource tree found"): the job is
never placed. The simulated
cluster shows it: its scheduler has no ``resource-level-config``, and a
multilevel job stays Pending. Which topology a cluster has is the cluster's,
so this rule runs only against a cluster inventory.

**How to fix.** Have the cluster's administrator configure the topology
(``resource-level-config`` in the scheduler's ``init-params``) and label the
nodes with it, use fewer levels in ``huawei.com/affinity-config``, select nodes
that carry the labels, or drop ``schedule_policy: multilevel`` on this cluster.

Failing::

    metadata:
      annotations:
        huawei.com/schedule_policy: multilevel
        huawei.com/affinity-config: level1=2,level2=4    # the cluster has no resource-level-config

Passing::

    metadata:
      annotations:
        huawei.com/schedule_policy: multilevel
        huawei.com/affinity-config: level1=2             # tree default: level1 by label rack-id, on every node
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Dict, FrozenSet, Iterator, List, Tuple

from ...catalogue.citations import Citation, MC, PL
from ...hardware import arithmetic
from ...inventory.objects import RESOURCE_LEVEL_CONFIG
from ...releases import PLUGIN_STACKS
from ...vocabulary import AFFINITY_CONFIG_ANNOTATION, MULTILEVEL_POLICY
from ..rule import Problem
from ._cluster import counted, inventory, labels_text, once, usable

if TYPE_CHECKING:
    from ...inventory.model import Node
    from ...manifest.pods import PodSet
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("CheckNodeNPUByTask", PL + "internal/npu/policy/multilevelscheduling/frame.go", MC,
                    "topology label does not match config")

#: the node label that names a node's topology tree, and the tree of a node without it
TOPOLOGY_TREE_LABEL, DEFAULT_TREE = "huawei.com/topotree", "default"


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    if inv is None or inv.resource_levels is None or obj.schedule_policy != MULTILEVEL_POLICY:
        return
    found = obj.job_annotation(AFFINITY_CONFIG_ANNOTATION)
    levels = arithmetic.parse_multi_level(found[0])[0] if found is not None and isinstance(found[0], str) else None
    npu_pods = sum(max(p.replicas, 0) for p in obj.npu_pod_sets())
    if found is None or levels is None or arithmetic.check_multi_level(levels, npu_pods):
        return  # the handler refuses the job before it looks at nodes: multi-level (AC310) says why
    trees, where = inv.resource_levels, found[1]
    if not trees:
        yield Problem(where, f"schedule_policy multilevel places the job by the cluster's topology, but the Ascend "
                      f"plugin's settings have no {RESOURCE_LEVEL_CONFIG} it can use (init-params of the scheduler's "
                      "configuration): it refuses every node, so the job is never placed")
        return
    deep = {tree: labels for tree, labels in trees.items() if len(labels) >= len(levels)}
    if not deep:
        yield Problem(where, f"{AFFINITY_CONFIG_ANNOTATION} has {_levels(len(levels))}, but every topology tree of the "
                      f"cluster has fewer ({_trees(trees)}): the scheduler finds no tree to place the job in")
        return
    if inv.nodes is None:
        return
    groups: Dict[FrozenSet[str], List[PodSet]] = {}  # pod sets that may use the same nodes: one finding
    for pod_set in obj.npu_pod_sets():
        allowed = usable(run, pod_set)
        groups.setdefault(once(allowed, ("names",), lambda: frozenset(n.name for n in allowed)), []).append(pod_set)
    in_tree = tuple(sorted(deep.items()))
    for names, pod_sets in groups.items():
        nodes = usable(run, pod_sets[0])
        if not names or once(nodes, ("in-tree", in_tree), lambda: any(_in_tree(n, deep) for n in nodes)):
            continue  # no nodes at all: cluster-node-selector
        first = pod_sets[0]
        yield Problem(first.spec_path + (("nodeSelector",) if "nodeSelector" in first.spec else ()),
                      f"{'+'.join(p.role for p in pod_sets)}: none of the nodes the pods may use is in a topology "
                      f"tree of {_levels(len(levels))} or more with that tree's level labels ({_trees(deep)}); "
                      f"{_have(nodes, trees)}: the plugin refuses them all, so the job is never placed")


def _levels(count: int) -> str:
    return f"{count} level{'s' if count != 1 else ''}"


def _tree(node: "Node") -> str:
    return node.labels.get(TOPOLOGY_TREE_LABEL, DEFAULT_TREE)


def _in_tree(node: "Node", trees: Dict[str, Tuple[str, ...]]) -> bool:
    labels = trees.get(_tree(node))
    return labels is not None and all(label in node.labels for label in labels)


def _trees(trees: Dict[str, Tuple[str, ...]]) -> str:
    return "; ".join(f"{tree}: {_levels(len(labels))}, " + (labels_text([(f"level{i}", label) for i, label in
                                                                         enumerate(labels, 1)]) if labels else "none")
                     for tree, labels in sorted(trees.items()))


def _tree_text(tree: str, trees: Dict[str, Tuple[str, ...]]) -> str:
    return f"{tree} [{_levels(len(trees[tree])) if tree in trees else 'not in the configuration'}]"


def _have(nodes: List["Node"], trees: Dict[str, Tuple[str, ...]]) -> str:
    """What the nodes have instead: how many, their trees, and the level labels of their trees they lack."""
    lacking: Counter[str] = Counter()
    for node in nodes:
        lacking.update(label for label in trees.get(_tree(node), ()) if label not in node.labels)
    text = (f"nodes the pods may use: {len(nodes)}, their {TOPOLOGY_TREE_LABEL}: "
            f"{counted(Counter(_tree_text(_tree(n), trees) for n in nodes))}")
    return text + (f"; the level labels of their trees they lack: {counted(lacking)}" if lacking else "")

