"""How a lint rule cites what it mirrors upstream: the record, the pinned sources and the paths several cite.

Each rule unit (``lint/rules/<name>.py``) holds its own citation as ``CITATION``: the function it mirrors,
its file and pinned source, upstream's message, and the other places its reasoning reads (``also``).  The
citations are the only place that names upstream's code: a rule's docstring explains in our own words and
names no upstream function, file, commit or message its citation carries (``tests/lint/test_citations.py``
checks both, and that every citation names a source pinned in ``SOURCES``).
:func:`ascend_compile.lint.registry.documentation` appends it to the rule's documentation, so
``ascend-compile explain``, SARIF and ``docs/rules.md`` show it.  Where upstream's docs and its code
disagree, the code at these commits wins.  This module holds constants and two small records only: every
rule unit imports it.
"""
from __future__ import annotations

from typing import Tuple

from ..records import NamedTuple
from ..releases import RELEASES

#: the pinned upstream sources (tests/simcluster/sources.py and ../shared/upstream/SOURCES.md)
MC = "mind-cluster 22bb3d98"
VC = "Volcano v1.12.0"
K8S = "Kubernetes v1.32.4"
MD = "mindcluster-deploy b9331e14 (samples)"
NONE = ""
#: each supported release's archive (../shared/upstream/src/releases/): where a rule's claim differs by release, the
#: file of the release it names
AT = {release: f"mind-cluster {release}" for release in RELEASES}
#: the Volcano of MindCluster v6.0.0-v26.0.1's plugin (../shared/upstream/src/releases/volcano-v1.9.0.tar.gz)
VC19 = "Volcano v1.9.0"
#: the Volcano whose own Ascend device sharing the volcano-vnpu stacks are judged for (releases/volcano-v1.15.1.tar.gz)
VC115 = "Volcano v1.15.1"
#: HAMi's scheduler and its Ascend device plugin (Project-HAMi/HAMi, Project-HAMi/ascend-device-plugin) at the commits
#: read for the hami stacks
HAMI = "HAMi 01bfa756"
HAMI_PLUGIN = "ascend-device-plugin 074d93a8"
#: the HAMi release (Project-HAMi/HAMi v2.10.0, 4707fb02) and the ascend-device-plugin commit read for the nodes' soft
#: slicing (the hami-vnpu-core node annotation, which HAMi reads from v2.9.0)
HAMI_210 = "HAMi v2.10.0"
HAMI_PLUGIN_NODES = "ascend-device-plugin ed35e1c4"
SOURCES = (MC, VC, K8S, MD, NONE, *AT.values(), VC19, VC115, HAMI, HAMI_PLUGIN, HAMI_210, HAMI_PLUGIN_NODES)

#: upstream paths several citations name
OP = "component/ascend-operator/pkg/controllers/v1/"
VAL = OP + "ascendjob_validate.go"
PL = "component/ascend-for-volcano/"
VCJ = "pkg/webhooks/admission/jobs/validate/admit_job.go"
K8V = "pkg/apis/core/validation/validation.go"


class Place(NamedTuple):
    """Another upstream place a rule's reasoning reads: a function in a file, or a file or folder ("" function)."""

    function: str
    path: str
    source: str  # one of SOURCES

    def render(self) -> str:
        return (f"``{self.function}`` in " if self.function else "") + f"``{self.path}`` ({self.source})"


class Citation(NamedTuple):
    function: str  # the upstream function whose behaviour the rule mirrors ("" for a convention with none)
    path: str  # its file in the upstream repository
    source: str  # one of SOURCES
    message: str = ""  # what upstream says ("" when it says nothing)
    also: Tuple[Place, ...] = ()  # the other places the rule's reasoning reads

    def places(self) -> Tuple[Place, ...]:
        """The function the rule mirrors (when it names one), then the other places."""
        return ((Place(self.function, self.path, self.source),) if self.function else ()) + self.also

    def render(self) -> str:
        where = f"``{self.function}`` in ``{self.path}`` ({self.source})" if self.function else \
            f"no upstream code: ``{self.path}`` ({self.source})"
        said = f'upstream says: "{self.message}"' if self.message else "upstream reports nothing"
        also = "; see also " + ", ".join(place.render() for place in self.also) if self.also else ""
        return f"**Upstream.** {where}; {said}{also}."


def in_every_release(function: str, path: str) -> Tuple[Place, ...]:
    """The same function in the file of each supported release (a claim that holds on every release)."""
    return tuple(Place(function, path, source) for source in AT.values())


#: how a refused AscendJob ends, per release: a Warning event only (up to v7.3.2), marked Failed (from v26.0.1)
REFUSED = (Place("Reconcile", OP + "ascendjob_controller.go", AT["v7.3.2"]),
           Place("Reconcile", OP + "ascendjob_controller.go", AT["v26.0.1"]))
#: MindCluster's own Volcano install: scheduler and controllers, no admission webhook
NO_WEBHOOK = (Place("", PL + "build/volcano-v1.9.0.yaml (no vc-webhook-manager)", AT["v26.0.1"]),
              Place("", PL + "build/volcano-v1.12.0.yaml (no vc-webhook-manager)", AT["v26.1.0"]))
