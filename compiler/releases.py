"""The MindCluster releases ascend-compile judges jobs for, and what upstream does differently in each.

A check is for one **target**: the MindCluster release the cluster runs (its Ascend plugin and
ascend-operator), the Volcano release under that plugin, and whether Volcano's admission webhook is
installed (MindCluster's own install ships none). Users run released versions, and those differ: a fact
holds for the releases it was shown on.

:data:`FACTS` is the one place for each fact that changed between supported releases: its value for each
span of releases (first and last, inclusive, in the order of :data:`RELEASES`) and where that was shown
(the file of each release's tree, and the simulated-cluster test that shows the releases at the ends of each
span). Rules ask the run's :class:`Target` for a fact's value; where no target was given they judge for
:data:`DEFAULT_RELEASE` and say, with :func:`qualifier`, for which releases a finding holds.

This module holds data and string functions only (no import of ours), so every floor may read it.
"""
from __future__ import annotations

import re
from collections import namedtuple
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Tuple

#: the supported MindCluster releases, oldest first (each built and run on the simulated cluster)
RELEASES: Tuple[str, ...] = ("v6.0.0", "v7.0.RC1", "v7.3.2", "v26.0.1", "v26.1.0")
#: the Volcano release each MindCluster release's plugin is built into (the plugin's own build/volcano-*.yaml)
VOLCANO_OF: Mapping[str, str] = {"v6.0.0": "v1.9.0", "v7.0.RC1": "v1.9.0", "v7.3.2": "v1.9.0",
                                 "v26.0.1": "v1.9.0", "v26.1.0": "v1.12.0"}
#: what a run judges for when nothing names a release: the newest supported one
DEFAULT_RELEASE = RELEASES[-1]

_ORDER = {name: index for index, name in enumerate(RELEASES)}
_DEFAULT_SOURCE = f"the default (the newest supported release, {DEFAULT_RELEASE})"


class Fact(namedtuple("Fact", "name about spans shown")):
    """A fact about upstream whose value depends on the release: ``spans`` are (first, last, value), covering
    every supported release once, oldest first; ``shown`` says where each span was shown."""

    __slots__ = ()
    name: str
    about: str
    spans: Tuple[Tuple[str, str, Any], ...]
    shown: str


def _facts(*facts: Fact) -> Dict[str, Fact]:
    return {fact.name: fact for fact in facts}


#: every release-dependent fact a check reads (tests/unit/test_releases.py checks each covers every release once)
FACTS: Dict[str, Fact] = _facts(
    # ------------------------------------------------------------------ fault handling, restarts, start scripts
    Fact("exit-code-fails-task",
         "with fault-retry-times, the plugin counts a task as failed when a container's last run ended with a "
         "non-zero exit code (the kubelet restarted it in place, the pod is still Running), not only when the pod "
         "is in phase Failed",
         (("v6.0.0", "v7.0.RC1", False), ("v7.3.2", "v26.1.0", True)),
         "component/ascend-for-volcano/internal/rescheduling: the pod-phase test in reschedule.go "
         "(getTaskHealthStateByPod) up to v7.0.RC1, isFailedTask in job.go from v7.3.2"),
    # ------------------------------------------------------------------ handlers, policies, NPU counts
)


def fact(name: str) -> Fact:
    return FACTS[name]


def value(name: str, release: str) -> Any:
    """The value of fact ``name`` on ``release`` (one of :data:`RELEASES`)."""
    at = _ORDER[release]
    for first, last, found in FACTS[name].spans:
        if _ORDER[first] <= at <= _ORDER[last]:
            return found
    raise KeyError(f"fact {name!r} says nothing of {release}")


def releases_where(name: str, test: Callable[[Any], bool]) -> Tuple[str, ...]:
    """The supported releases on which ``test(value of fact name)`` holds, oldest first."""
    return tuple(release for release in RELEASES if test(value(name, release)))


def span_text(releases: Iterable[str]) -> str:
    """``v7.3.2-v26.1.0`` for consecutive releases, ``v6.0.0, v26.1.0`` otherwise; "" for none."""
    chosen = sorted(set(releases), key=_ORDER.__getitem__)
    runs: list = []
    for release in chosen:
        if runs and _ORDER[runs[-1][-1]] + 1 == _ORDER[release]:
            runs[-1].append(release)
        else:
            runs.append([release])
    return ", ".join(run[0] if len(run) == 1 else f"{run[0]}-{run[-1]}" for run in runs)


class Target(namedtuple("Target", "release given source volcano_webhook",
                        defaults=(DEFAULT_RELEASE, False, _DEFAULT_SOURCE, None))):
    """What a run judges jobs for.  ``given``: a flag, the config or a cluster named the release (else it is
    :data:`DEFAULT_RELEASE`, and findings that differ between releases say for which they hold); ``source``:
    why this release, for ``--show-config``; ``volcano_webhook``: whether Volcano's admission webhook is
    installed (None: not said; MindCluster's install has none)."""

    __slots__ = ()
    release: str
    given: bool
    source: str
    volcano_webhook: Optional[bool]

    @property
    def volcano(self) -> str:
        return VOLCANO_OF[self.release]

    def value(self, name: str) -> Any:
        return value(name, self.release)

    def qualifier(self, name: str, test: Callable[[Any], bool]) -> str:
        """"" when the target was given or ``test`` holds on every supported release; else
        ``" (MindCluster v7.3.2-v26.1.0)"``: the releases on which it holds, for a finding's message."""
        where = releases_where(name, test)
        if self.given or len(where) == len(RELEASES):
            return ""
        return f" (MindCluster {span_text(where)})" if where else ""

    def describe(self) -> str:
        webhook = {None: "Volcano's admission webhook not said (MindCluster's install has none)",
                   True: "with Volcano's admission webhook", False: "without Volcano's admission webhook"}
        return (f"MindCluster {self.release} (its plugin in Volcano {self.volcano}), "
                f"{webhook[self.volcano_webhook]}: {self.source}")


_VERSION = re.compile(r"v?(\d+)\.(\d+)\.(\d+|RC\d+)", re.IGNORECASE)


def release_of(text: str) -> Optional[str]:
    """The supported release a version text names (``7.3.2``, ``v7.3.2``, an image tag ``v7.3.2-arm64``, a plugin
    name ``volcano-npu_v7.3.2``); None when it names none of :data:`RELEASES`."""
    match = _VERSION.search(text or "")
    if not match:
        return None
    major, minor, patch = match.groups()
    name = f"v{int(major)}.{int(minor)}.{patch.upper() if patch[:2].upper() == 'RC' else int(patch)}"
    return name if name in _ORDER else None


def choose(flag: Optional[str] = None, configured: Optional[str] = None, config_path: Optional[str] = None,
           cluster_versions: Optional[Mapping[str, str]] = None, cluster_source: str = "",
           volcano_webhook: Optional[bool] = None) -> Target:
    """The run's target: ``--mindcluster`` (``flag``) over the config's ``cluster.mindcluster`` (``configured``) over
    the cluster's recorded plugin or operator version (``cluster_versions``: an inventory's ``versions``) over the
    default.  ``flag`` and ``configured`` are checked by their readers (:func:`release_of` is not None); a cluster
    version that names no supported release is said in ``source`` and the default is used."""
    if flag:
        return Target(release_of(flag) or DEFAULT_RELEASE, True, f"--mindcluster {flag}", volcano_webhook)
    if configured:
        return Target(release_of(configured) or DEFAULT_RELEASE, True,
                      f"cluster.mindcluster in {config_path or 'the project config'}", volcano_webhook)
    unknown = []
    for component in ("ascend-plugin", "ascend-operator"):
        text = (cluster_versions or {}).get(component)
        if not text:
            continue
        found = release_of(text)
        if found:
            return Target(found, True, f"the {component} version {text!r} of {cluster_source or 'the cluster'}",
                          volcano_webhook)
        unknown.append(f"{component} {text!r}")
    if unknown:
        return Target(volcano_webhook=volcano_webhook,
                      source=f"the default, {DEFAULT_RELEASE}: {cluster_source or 'the cluster'} records "
                             f"{' and '.join(unknown)}, not a supported release ({', '.join(RELEASES)})")
    return Target(volcano_webhook=volcano_webhook)
