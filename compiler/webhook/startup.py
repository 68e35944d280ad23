"""What the server judges with, made once when it starts: the inventory (none, a snapshot, or the watched cluster),
the session over it, and the judge, warmed up so that the first request is answered as fast as the others."""
from __future__ import annotations

from typing import Any, Callable, Optional

from ..vocabulary import ASCEND_JOB, ASCEND_JOB_API_VERSION, VOLCANO_JOB_API_VERSION, VOLCANO_JOB_KIND
from .judge import Judge
from .logs import Log
from .settings import ServeSettings

#: objects linted once before the server is ready: every rule unit and schema the jobs use is loaded then
_WARM_UP = ({"apiVersion": ASCEND_JOB_API_VERSION, "kind": ASCEND_JOB, "metadata": {"name": "warm-up"}},
            {"apiVersion": VOLCANO_JOB_API_VERSION, "kind": VOLCANO_JOB_KIND, "metadata": {"name": "warm-up"}},
            {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "warm-up"}})


def preparer(settings: ServeSettings, session_for: Callable[[Any], Any], log: Log, *,
             snapshot: Optional[str] = None, kubeconfig: Optional[str] = None,
             context: Optional[str] = None) -> Callable[[Any], Judge]:
    """What :func:`~.server.run` calls to get its judge: ``session_for(inventory)`` makes the session (the command
    line's config, profiles and target) over the inventory of ``--no-inventory`` (none), ``snapshot`` (a file, fixed)
    or, else, the cluster (``kubeconfig`` and ``context``, or the pod's service account), watched."""

    def prepare(server: Any) -> Judge:
        current: Optional[Callable[[], Any]] = None
        if settings.no_inventory:
            inventory = None
        elif snapshot:
            from ..inventory.snapshot import load

            inventory = load(snapshot)
        else:
            from .source import ClientSource
            from .watch import InventoryWatch

            watch = InventoryWatch(ClientSource.connect(kubeconfig, context), log.event, name=context or "")
            inventory = watch.sync()
            current = watch.current
            log.event("inventory-synced", nodes=len(inventory.nodes or ()), lists=watch.lists)
        judge = Judge(session_for(inventory), settings, current)
        linter = judge.session.linter()
        linter.run(objects=[(dict(obj), "") for obj in _WARM_UP])
        return judge

    return prepare
