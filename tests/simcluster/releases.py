"""The MindCluster versions the simulated cluster can run: one entry per version, what its build needs.

A release's scheduler is built the way its own ``component/ascend-for-volcano/build/build.sh`` builds it
(``../shared/upstream/src/releases/BUILDING-RELEASES.md``): the plugin inside the Volcano version of its
own ``build/volcano-*.yaml`` (v1.9.0 for v6.0.0 to v26.0.1, v1.12.0 for v26.1.0), with the source edits
that script makes for that Volcano version (:mod:`tests.simcluster.patches`, by name below), registered
under the name the script gives the plugin and writes into the scheduler configuration's tier.  Its
operator is the release's ``component/ascend-operator`` (every tag pins ``volcano.sh/apis`` v1.7.0).

``master`` (the archive of 2026-08-21) stays buildable for comparison (``build --release master``,
``start --release master``), but it is no target: no cluster runs it.  :data:`DEFAULT`, the release a
cluster runs unless told otherwise, is the newest target, v26.1.0.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, Tuple


@dataclass(frozen=True)
class Volcano:
    version: str
    archive: str  # tests.simcluster.sources key
    apis: str  # the volcano.sh/apis archive it builds with


VOLCANOS: Dict[str, Volcano] = {v.version: v for v in (
    Volcano("v1.9.0", "volcano-1.9", "volcano-apis-1.9"),
    Volcano("v1.12.0", "volcano", "volcano-apis-1.12"),
)}


@dataclass(frozen=True)
class Release:
    name: str
    #: the MindCluster archive (tests.simcluster.sources key)
    archive: str
    #: the Volcano version its plugin is built into (its build/volcano-<version>.yaml)
    volcano: str
    #: ``REL_NPU_PLUGIN`` of its build.sh: the ``-X ...PluginName`` value and the scheduler tier entry's name
    plugin_name: str
    #: the source edits its build.sh makes for that Volcano version, in its order (tests.simcluster.patches.EDITS)
    edits: Tuple[str, ...]
    #: a target: judged in tests and the fidelity run; master is not one
    supported: bool = True
    #: whether its operator has the healthz flags (``-enable-healthz``; from v26.1.0): an older one exits 2 on it
    operator_healthz: bool = False

    @property
    def volcano_build(self) -> Volcano:
        return VOLCANOS[self.volcano]

    @property
    def scheduler_yaml(self) -> str:
        """The plugin's own deployment file (ConfigMap ``volcano-scheduler-configmap``), inside the archive."""
        return f"component/ascend-for-volcano/build/volcano-{self.volcano}.yaml"


#: v6.0.0 and v7.0.RC1 name the predicate file huawei_npu.go and make no allocate.go edit; v7.3.2 and v26.0.1
#: edit npu.go and allocate.go; v26.1.0 on v1.12.0 has no predicate edit but the pipeline-task one
_EARLY_V19 = ("klog-v2", "predicate-v1.9-huawei_npu.go")
_LATE_V19 = ("klog-v2", "predicate-v1.9-npu.go", "single-node-scoring")

RELEASES: Dict[str, Release] = {r.name: r for r in (
    # build.sh of v6.0.0 and v7.0.RC1: volcano-npu_${REL_VERSION}_linux-${REL_ARCH}
    Release("v6.0.0", "mind-cluster-v6.0.0", "v1.9.0", "volcano-npu_v6.0.0_linux-x86_64", _EARLY_V19),
    Release("v7.0.RC1", "mind-cluster-v7.0.RC1", "v1.9.0", "volcano-npu_v7.0.RC1_linux-x86_64", _EARLY_V19),
    Release("v7.3.2", "mind-cluster-v7.3.2", "v1.9.0", "volcano-npu_v7.3.2", _LATE_V19),
    Release("v26.0.1", "mind-cluster-v26.0.1", "v1.9.0", "volcano-npu_v26.0.1", _LATE_V19),
    Release("v26.1.0", "mind-cluster-v26.1.0", "v1.12.0", "volcano-npu_v26.1.0",
            ("klog-v2", "pending-best-effort", "single-node-scoring"), operator_healthz=True),
    # master's build.sh: no klog or pipeline edit (its sources have both already); DEFAULT_VER v26.1.0
    Release("master", "mind-cluster", "v1.12.0", "volcano-npu_v26.1.0", ("single-node-scoring",),
            supported=False, operator_healthz=True),
)}

#: the targets, oldest first
SUPPORTED: Tuple[str, ...] = tuple(r.name for r in RELEASES.values() if r.supported)
#: the release a cluster runs unless told otherwise: the newest target (the product's default target too,
#: ascend_compile.releases.DEFAULT_RELEASE).  Every simulated-cluster test written against master passed on it
#: unchanged (228 of tests/simcluster, 2026-12-07; docs/testing.md, "Releases")
DEFAULT = "v26.1.0"
#: what ``python -m tests.simcluster build`` and a test run build: the default's programs and every target's
#: (master only when asked for)
BUILT: Tuple[str, ...] = (DEFAULT, *[r for r in SUPPORTED if r != DEFAULT])


class UnknownRelease(ValueError):
    pass


def lint_target(release: str = DEFAULT, admission_webhook: bool = True) -> Any:
    """The target lint judges for when a simulated cluster of ``release`` judges the same jobs: that release,
    Volcano's admission webhook as the cluster registers it (on by default, as SimCluster's), and MindCluster's
    device plugin, the stack whose resources the cluster's nodes offer (named, as a cluster names it: a pod written
    for another stack is then judged for this one, not given the benefit of the doubt)."""
    from ascend_compile.releases import MINDCLUSTER_STACK, Target

    where = f"the simulated cluster (MindCluster {release})"
    return Target(release, True, where, admission_webhook, MINDCLUSTER_STACK, where)


def get(name: str) -> Release:
    """The release called ``name`` (``v7.3.2``, ``master``); UnknownRelease names the known ones."""
    try:
        return RELEASES[name]
    except KeyError:
        raise UnknownRelease(f"unknown MindCluster release {name!r}; known: {', '.join(RELEASES)}") from None
