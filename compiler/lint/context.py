"""What a rule sees: one object (:class:`ObjectContext`, a :class:`~ascend_compile.manifest.job.Manifest` with
its place in the run) and the run's profiles and config (:class:`RunContext`).

The manifest model reads an object defensively: a field of the wrong type is treated as absent (the schema
check reports the type error), so rules never report the same typo twice.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from .. import releases
from ..findings import Path, describe_object
from ..manifest.job import Manifest
from ..manifest.values import T, once
from ..podtemplates import BUILTIN_TABLE, Table
from ..hardware.targeting import HardwareSignals, candidate_profiles
from ..vocabulary import SCHEDULE_POLICY_ANNOTATION, SP_BLOCK_ANNOTATION

#: what a rule lists in KINDS to see every object
ALL = ("*",)


class ObjectContext(Manifest):
    """One Kubernetes object of the run (a :class:`~ascend_compile.manifest.job.Manifest`) and where it comes from."""

    def __init__(self, data: Dict[str, Any], doc: Any = None, prefix: Path = (), source: str = "",
                 index: int = 0, kinds: Table = BUILTIN_TABLE):
        super().__init__(data, kinds)
        self.doc = doc  # ascend_compile.yamlio.locations.Document or None (objects without source)
        self.prefix = prefix  # path of this object inside its document (List items)
        self.source = source
        self.index = index
        self._candidates: Optional[Tuple[Any, ...]] = None  # RunContext.candidate_profiles
        #: what rules that share one computation keep for each other (keyed by the helper that computes it)
        self.shared: Dict[str, Any] = {}

    def __repr__(self) -> str:
        return f"<ObjectContext {self.describe()}>"

    def describe(self) -> str:
        return self._description

    @once
    def _description(self) -> str:
        return describe_object(self.data.get("kind"), self.namespace, self.name)

    @property
    def api_version(self) -> str:
        """The apiVersion as written ("" when it is not a string): with :meth:`describe`, which object it is."""
        value = self.data.get("apiVersion")
        return value if isinstance(value, str) else ""


class RunContext:
    """What a rule sees besides its object: the hardware profiles and the project config of the run.

    Rules that look at other objects get a :class:`~ascend_compile.lint.index.CrossRun` in their
    ``judge`` (see :mod:`ascend_compile.lint.rule`); ``check`` sees one object at a time.
    """

    def __init__(self, profiles: Any, config: Any = None, volcano_version: Optional[str] = None,
                 inventory: Any = None, target: Any = None):
        self.profiles = profiles  # ascend_compile.hardware.profiles.ProfileRegistry
        self.config = config
        #: what the jobs are judged for (:class:`ascend_compile.releases.Target`): the MindCluster release, its
        #: Volcano, Volcano's admission webhook; a rule whose truth differs between releases asks it
        self.target = target
        #: the cluster the jobs will run on (:class:`ascend_compile.inventory.model.Inventory`), None without
        #: ``--cluster``/``--cluster-snapshot``: the cluster-aware rules (AC9xx) then say nothing
        self.inventory = inventory
        #: what the cluster-aware rules work out once per run (nodes per selector, ...), by key
        self.cluster_memo: Dict[Any, Any] = {}
        #: the cluster's Volcano release as ``--volcano-version`` names it ('1.9', '1.15'), None when not given
        self.volcano_version = volcano_version
        self._by_signals: Dict[HardwareSignals, Tuple[Any, ...]] = {}  # candidates: jobs repeat their signals
        self._from_profiles: Dict[Any, Any] = {}  # from_profiles() and by_signals(), by their function

    def from_profiles(self, compute: Callable[[List[Any]], T]) -> T:
        """``compute(every profile)``, worked out once per run (the profiles never change during one)."""
        try:
            return self._from_profiles[compute]  # type: ignore[no-any-return]
        except KeyError:
            found = self._from_profiles[compute] = compute(self.profiles.all())
            return found

    def by_signals(self, compute: Callable[..., T], obj: ObjectContext, *args: Any) -> T:
        """``compute(run, obj, *args)``, worked out once for each distinct :meth:`signals` of the run and ``args``:
        for answers that depend on nothing but those and the profiles (jobs repeat their signals)."""
        key = (compute, self.signals(obj), *args)
        try:
            return self._from_profiles[key]  # type: ignore[no-any-return]
        except KeyError:
            found = self._from_profiles[key] = compute(self, obj, *args)
            return found

    def find(self, kind: str, name: str, namespace: Optional[str], near: Any = None) -> List[Any]:
        raise RuntimeError("check() sees one object: a rule that looks at other objects defines facts() and "
                           "judge() (see ascend_compile.lint.rule)")

    exists_beside = find_any = find

    @property
    def release(self) -> str:
        """The MindCluster release the run judges for (the target's; the newest when there is none)."""
        return self.target.release if self.target is not None else releases.DEFAULT_RELEASE

    def signals(self, obj: ObjectContext) -> HardwareSignals:
        """What ``obj`` tells the scheduler of the target release about the hardware it wants: a schedule policy
        or sp-block on a pod template only counts where the plugin reads the first pod's (``pod-annotations-read``)."""
        found = obj.signals()
        if not (found.schedule_policy or found.sp_block):
            return found
        read = releases.value("pod-annotations-read", self.release)
        unread = [key for key in (SCHEDULE_POLICY_ANNOTATION, SP_BLOCK_ANNOTATION)
                  if key.rpartition("/")[2] not in read and (obj.job_annotation(key) or (None, ("metadata",)))[1][0] != "metadata"]
        if not unread:
            return found
        return found._replace(schedule_policy=None if SCHEDULE_POLICY_ANNOTATION in unread else found.schedule_policy,
                              sp_block=found.sp_block and SP_BLOCK_ANNOTATION not in unread)

    def candidate_profiles(self, obj: ObjectContext) -> Tuple[Any, ...]:
        """Every profile whose handler the scheduler of the target release could give ``obj`` (empty: no handler,
        a handler no profile describes, or no NPUs).

        A check that holds for every candidate holds whatever the job's servers really are; see
        :mod:`ascend_compile.hardware.targeting`.
        """
        if obj._candidates is None:
            if self.profiles is None:
                obj._candidates = ()
            else:
                signals = self.signals(obj)
                found = self._by_signals.get(signals)
                if found is None:
                    found = self._by_signals[signals] = candidate_profiles(self.profiles.all(), signals, self.release)
                obj._candidates = found
        return obj._candidates

    def profile_for(self, obj: ObjectContext) -> Any:
        """The first candidate profile (None if the scheduler has no handler for ``obj``)."""
        candidates = self.candidate_profiles(obj)
        return candidates[0] if candidates else None
