"""A ``host-arch`` node selector names the other architecture than the hardware the job's own selectors pick.

**What.** Where a pod template selects ``host-arch`` and the job picks hardware that is built
with one host architecture only (its ``accelerator-type``, or its ``huawei.com/schedule_policy``,
names only profiles with ``hostArchOnly: true``: ``module-910b-8`` is Atlas 800T A2 / Atlas 900
A2 PoD servers, Kunpeng ``huawei-arm`` hosts; ``module-910b-16`` is the Atlas 200T A2 Box16, with
``huawei-x86`` hosts), the ``host-arch`` value is that architecture. Hardware that comes in both
(Atlas 800 9000 and 9010 servers, training and inference cards in either kind of host) is not
checked; ``ascend-compile profiles show <profile>`` prints what a profile says.

**Why.** Both labels are plain node selectors: a node must carry both values. Nodes labelled as
the installation guide says (``accelerator-type: module-910b-8`` on arm hosts) never carry
``host-arch: huawei-x86``, so the pods fit no node and stay Pending (shown on the simulated
cluster, whose nodes follow the profiles: ``tests/simcluster/test_host_arch_hardware.py``). Lint
cannot see your nodes, and a node may be labelled otherwise: a warning. With ``--cluster`` or
``--cluster-snapshot`` (when the nodes were read) the cluster's nodes answer instead: AC903 reports
a selector no node has, as an error, and this rule says nothing (a cluster that has such nodes runs
the job). The installation guide's node-label table has the Atlas 800T A2 on arm and the 200T A2
Box16 on x86, and the samples pair ``module-910b-16`` with ``huawei-x86`` and ``module-910b-8``
with ``huawei-arm``.

**How to fix.** Select the architecture of the servers (``huawei-arm`` for ``module-910b-8``), or
drop the ``host-arch`` selector: ``accelerator-type`` already picks the servers.

Failing::

    nodeSelector:
      host-arch: huawei-x86
      accelerator-type: module-910b-8

Passing::

    nodeSelector:
      host-arch: huawei-arm
      accelerator-type: module-910b-8
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator, Optional

from ...catalogue.citations import Citation, K8S, MC, MD, Place
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import HOST_ARCH_LABEL, HOST_ARCH_VALUES
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("Filter", "pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go", K8S,
                    "node(s) didn't match Pod's node affinity/selector",
                    also=(Place("", "docs/en/scheduling/developer_guide/installation_deployment/manual_installation/"
                                "01_preparing_for_installation.md (node labels)", MC),
                          Place("", "samples/train/basic-training (nodeSelector host-arch with accelerator-type)", MD)))


def _only_arch(obj: ObjectContext, run: RunContext) -> Optional[str]:
    """The one host architecture every candidate profile of the job is built with, None when they allow either."""
    candidates = run.candidate_profiles(obj)
    if not candidates or not all(p.host_arch_only and p.host_arch for p in candidates):
        return None
    arches = {p.host_arch for p in candidates}
    return arches.pop() if len(arches) == 1 else None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    known = run.inventory  # the cluster's, with --cluster or --cluster-snapshot
    if known is not None and known.nodes is not None:
        return  # the cluster's nodes say whether any has both labels (AC903's)
    selected = [(pod_set, pod_set.node_selector.get(HOST_ARCH_LABEL)) for pod_set in obj.pod_sets()]
    if not any(value in HOST_ARCH_VALUES for _, value in selected):
        return  # no host-arch, or one no node has (AC315's)
    arch = _only_arch(obj, run)
    if arch is None:
        return
    names = ", ".join(sorted({p.name for p in run.candidate_profiles(obj)}))
    for pod_set, value in selected:
        if value in HOST_ARCH_VALUES and value != arch:
            yield Problem(pod_set.spec_path + ("nodeSelector", HOST_ARCH_LABEL),
                          f"{HOST_ARCH_LABEL} {value!r} contradicts the hardware the job selects ({names}: "
                          f"{arch} hosts only): nodes labelled as that hardware carry {HOST_ARCH_LABEL}={arch}, so "
                          "the pods fit none and stay Pending")
