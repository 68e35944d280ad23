"""One invocation's session: the settings every check of the run is judged with, built once and passed down.

A :class:`Session` holds the project config, the profile registry, the release the jobs are judged for (the
target), the lowest severity that refuses (``--fail-on``, else the config's ``lint.failOn``, else error), the
cluster inventory (a snapshot, the live cluster, or none), the cache policy and whether ``compile`` lints its
output.  Every entry (each command, the Python API, the KRM function) makes one with :func:`open_session` and
hands it to what it runs: the compile pipeline (:mod:`ascend_compile.compiling.pipeline`), lint of manifests and
of specs, ``import``'s check of what it writes and ``why``'s lint of a stored job.  So a spec is refused by
the same findings whichever command reads it.

It stands on lint's floor because the linter reads it as the compiler does, and the linter stands lower.
"""
from __future__ import annotations

from typing import Any, Optional

from ..findings import ERROR, Finding, severity_at_least
from ..records import record
from ..yamlio.common import DEFAULT_MAX_BYTES


@record(frozen=True)
class Session:
    """What one invocation judges with (see the module doc); make it with :func:`open_session`."""

    #: the project config (:class:`ascend_compile.config.ProjectConfig`)
    config: Any
    #: the hardware profiles (:class:`ascend_compile.hardware.profiles.ProfileRegistry`)
    registry: Any
    #: the release and Volcano webhook the jobs are judged for (:class:`ascend_compile.releases.Target`)
    target: Any
    #: the lowest severity of a finding that refuses a spec and makes the exit code 1
    fail_on: str = ERROR
    #: the cluster the jobs are checked against (:class:`ascend_compile.inventory.model.Inventory`), None: no cluster
    inventory: Any = None
    #: the caches: True used (also in CI), False none, None the environment decides (:mod:`ascend_compile.datacache`)
    cache: Optional[bool] = None
    #: whether a compile lints its output (``compile --no-lint``: not)
    output_lint: bool = True
    #: input files larger than this are refused
    max_bytes: int = DEFAULT_MAX_BYTES

    def refuses(self, finding: Finding) -> bool:
        """Whether ``finding`` is at or above the fail-on level: it refuses its spec, and fails the run."""
        return severity_at_least(finding.severity, self.fail_on)

    def linter(self, **settings: Any) -> Any:
        """A :class:`~ascend_compile.lint.engine.Linter` of this session (its profiles, config, inventory and
        target), with the run's own ``settings`` (``schema``, ``strict``, ``disable``, ``specs``, ...)."""
        from .engine import Linter

        return Linter(self.registry, self.config, inventory=self.inventory, target=self.target, **settings)


def open_session(config: Any = None, registry: Any = None, *, fail_on: Optional[str] = None, inventory: Any = None,
                 mindcluster: Optional[str] = None, volcano_webhook: Optional[bool] = None, cluster_source: str = "",
                 target: Any = None, cache: Optional[bool] = None, output_lint: bool = True,
                 max_bytes: Optional[int] = None) -> Session:
    """The session of one invocation: ``config`` (default: none), ``registry`` (default: the built-in profiles and the
    config's ``profileDirs``), the target from ``mindcluster`` and ``volcano_webhook`` (the flags) over the config's
    ``cluster`` over the versions ``inventory`` records (read from ``cluster_source``) over the default; ``fail_on``
    over the config's ``lint.failOn`` over error.  A ``target`` given is taken as it is."""
    from ..config import ProjectConfig, target_of

    config = config or ProjectConfig()
    if registry is None:
        from ..hardware.profiles import ProfileRegistry

        registry = ProfileRegistry(config.profile_dirs)
    target = target or target_of(config, mindcluster, volcano_webhook, getattr(inventory, "versions", None), cluster_source,
                                 cluster_resources=inventory.offered() if inventory is not None else (),
                                 cluster_device_share=getattr(inventory, "device_share", None) or ())
    return Session(config, registry, target, fail_on or config.lint.fail_on or ERROR, inventory, cache, output_lint,
                   max_bytes or DEFAULT_MAX_BYTES)
