"""A ``host-arch`` node selector names a value (or a key) MindCluster nodes are not labelled with.

**What.** Where a pod template selects ``host-arch``, the value is
``huawei-arm`` or ``huawei-x86``, and the key is spelt ``host-arch`` (not
``host_arch``, ``hostArch`` or ``Host-Arch``).

**Why.** No upstream code reads the label (the plugin at the pinned commit has
no host-arch check); it is an ordinary node selector, and MindCluster's
installation guide labels the nodes ``host-arch=huawei-arm`` or
``host-arch=huawei-x86``. A pod selecting any other value matches no such node
(and a pod selecting a misspelt key, which no node carries, matches none at all)
and stays Pending (Kubernetes' node affinity filter, run by Volcano's
predicates, finds no node). Offline lint cannot see your nodes: if yours carry
another value on purpose, set this rule's severity in the project config. With
``--cluster`` or ``--cluster-snapshot`` a key or value some node carries is never
reported (AC903 answers from the nodes).

**How to fix.** Use ``huawei-arm`` or ``huawei-x86`` (what your nodes carry) under
the key ``host-arch``, or drop the selector.

Failing::

    nodeSelector: {host-arch: arm64}
    nodeSelector: {host_arch: huawei-arm}

Passing::

    nodeSelector: {host-arch: huawei-arm}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Set

from ...catalogue.citations import Citation, K8S, MC, MD, Place, VC
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import HOST_ARCH_LABEL, HOST_ARCH_VALUES
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                    "node(s) didn't match Pod's node affinity/selector",
                    also=(Place("", "pkg/scheduler/plugins/predicates", VC),
                          Place("", "docs/en/scheduling/developer_guide/installation_deployment/manual_installation/"
                                "01_preparing_for_installation.md (node labels)", MC),
                          Place("", "samples/train/basic-training (nodeSelector host-arch)", MD)))


#: the label key's length give or take a character (host_arch, hostArch, host.arch, host-arch-): the keys worth
#: normalising; any other length cannot be a misspelling this rule knows
_NEAR = range(len(HOST_ARCH_LABEL) - 1, len(HOST_ARCH_LABEL) + 2)
_BARE = HOST_ARCH_LABEL.replace("-", "")


#: selector keys found not to be a misspelling (bounded): most runs repeat their keys, one set operation a pod set
_FINE: Set[str] = set()


def _misspelt(key: Any) -> bool:
    return (isinstance(key, str) and len(key) in _NEAR and key != HOST_ARCH_LABEL
            and key.lower().replace("-", "").replace("_", "").replace(".", "") == _BARE)


def _carried(run: RunContext, key: str, value: Any = None) -> bool:
    """Whether a node of the run's cluster inventory carries the label (the inventory beats the default values)."""
    return run.inventory is not None and bool(run.inventory.carries(key, value))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        selector = pod_set.node_selector
        value = selector.get(HOST_ARCH_LABEL)
        if isinstance(value, str) and value not in HOST_ARCH_VALUES and not _carried(run, HOST_ARCH_LABEL, value):
            yield Problem(pod_set.spec_path + ("nodeSelector", HOST_ARCH_LABEL),
                          f"{HOST_ARCH_LABEL} {value!r} is not a value MindCluster nodes are labelled with "
                          f"({', '.join(HOST_ARCH_VALUES)}): no node matches and the pods stay Pending")
        if selector.keys() <= _FINE:
            continue
        for key in selector:
            if not _misspelt(key):
                if len(_FINE) < 4096:
                    _FINE.add(key)
                continue
            if _carried(run, key):
                continue  # a node carries it: no misspelling on this cluster (not remembered: another may not)
            yield Problem(pod_set.spec_path + ("nodeSelector", key),
                          f"node selector key {key!r} is not {HOST_ARCH_LABEL!r}, the key MindCluster nodes "
                          f"are labelled with: no node matches and the pods stay Pending")
