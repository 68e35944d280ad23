"""A Volcano Job asks for hard network-topology placement on a cluster without the HyperNodes it needs.

**What.** With ``--cluster`` or ``--cluster-snapshot``: a Volcano Job's
``spec.networkTopology`` in ``hard`` mode (the default mode), and the cluster has
no Volcano HyperNode of a tier at most its ``highestTierAllowed`` (default 1).
Only when the inventory recorded the cluster's HyperNodes and its Volcano is
1.12 or later (an older Volcano's Job has no ``networkTopology``: the API
server drops the field, and kubectl reads a cluster without the HyperNode
resource as one without HyperNodes).

**Why.** In hard mode Volcano's scheduler (1.12) places the job's pods only
inside one HyperNode of an allowed tier, searching the HyperNodes tier by tier;
with none there is nothing to search, and the job stays Pending for ever,
however idle the nodes.

**How to fix.** Have the network topology described as HyperNodes (by hand or
by Volcano's network-topology discovery), allow a higher tier, use ``mode:
soft``, or leave ``networkTopology`` out on this cluster.

Failing::

    spec:
      networkTopology: {mode: hard, highestTierAllowed: 1}   # the cluster has no HyperNode

Passing::

    spec:
      networkTopology: {mode: soft}
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import VC, Citation, Place
from ...manifest.values import as_dict, as_int
from ...inventory.model import VOLCANO
from ...vocabulary import VOLCANO_JOB
from ..rule import Problem
from ._cluster import counted, inventory, where

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

#: what Volcano's Job API defaults ``networkTopology`` to (its CRD's defaults)
HARD, DEFAULT_TIER = "hard", 1
#: the first Volcano release whose scheduler places jobs by HyperNodes
HYPER_NODES_FROM = (1, 12)


CITATION = Citation("allocateResourceForTasksWithTopology", "pkg/scheduler/actions/allocate/allocate.go", VC,
                    also=(Place("IsHardTopologyMode", "pkg/scheduler/api/job_info.go", VC),))


def _has_hyper_nodes(version: str) -> bool:
    """Whether a Volcano version (its image tag) is one with HyperNodes; False when it is not known."""
    import re

    found = re.match(r"v?(\d+)\.(\d+)", version)
    return found is not None and (int(found.group(1)), int(found.group(2))) >= HYPER_NODES_FROM


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    inv = inventory(run)
    topology = obj.spec.get("networkTopology") if obj.kind == VOLCANO_JOB else None
    if inv is None or inv.hyper_nodes is None or not isinstance(topology, dict) or \
            not _has_hyper_nodes(inv.versions.get(VOLCANO, "")):
        return
    if (as_dict(topology).get("mode") or HARD) != HARD:
        return
    tier = as_int(topology.get("highestTierAllowed"))
    tier = DEFAULT_TIER if tier is None else tier
    if any(t <= tier for t in inv.hyper_nodes.values()):
        return
    tiers: Counter[str] = Counter(f"tier {t}" for t in inv.hyper_nodes.values())
    have = f"its HyperNodes: {counted(tiers)}" if tiers else "it has none"
    yield Problem(("spec", "networkTopology"), f"the job asks for hard network topology within tier {tier}, but "
                  f"{where(inv)} has no Volcano HyperNode of tier {tier} or lower ({have}): Volcano never places "
                  "its pods, the job stays Pending")
