"""A job asks for switch (tor) affinity on a cluster without the switch topology the Ascend plugin needs.

**What.** With ``--cluster`` or ``--cluster-snapshot``: the job is labelled
``tor-affinity: large-model-schema`` or ``normal-schema``, and the cluster has
no ``basic-tor-node-cm`` ConfigMap in ``kube-system`` (when the inventory read
that namespace).

**Why.** The plugin places such a job by the servers' switches, which it reads
from that ConfigMap; without it, it refuses the job (the topology is not
imported) and the job stays Pending (the simulated cluster shows it). Which
clusters have the topology imported is the cluster's, so this rule runs only
against a cluster inventory.

**How to fix.** Import the switch topology (MindCluster's ``basic-tor-node-cm``),
or set ``tor-affinity: "null"`` (or remove the label) on a cluster without it.

Failing::

    metadata:
      labels: {tor-affinity: normal-schema}    # the cluster has no basic-tor-node-cm

Passing::

    metadata:
      labels: {tor-affinity: "null"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL
from ...releases import PLUGIN_STACKS
from ...vocabulary import TOR_AFFINITY_LABEL
from ..rule import Problem
from ._cluster import inventory

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("ValidNPUJob", PL + "internal/nslb/frame.go", MC,
                    "job tor affinity check failed, cluster basic-tor-node-cm is not imported")

#: the plugin's switch topology ConfigMap, and where it lives
TOPOLOGY_CONFIG_MAP, TOPOLOGY_NAMESPACE = "basic-tor-node-cm", "kube-system"
AFFINITY_VALUES = ("large-model-schema", "normal-schema")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    value = obj.labels.get(TOR_AFFINITY_LABEL)
    if inv is None or value not in AFFINITY_VALUES:
        return
    if inv.has_config_map(TOPOLOGY_NAMESPACE, TOPOLOGY_CONFIG_MAP) is False:
        yield Problem(("metadata", "labels", TOR_AFFINITY_LABEL),
                      f"{TOR_AFFINITY_LABEL} {value} needs the switch topology ConfigMap {TOPOLOGY_NAMESPACE}/"
                      f"{TOPOLOGY_CONFIG_MAP}, which the cluster does not have: the scheduler refuses the job")
