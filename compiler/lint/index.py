"""The run as cross-object rules see it: a compact record of every object, looked up by kind and name.

Objects are read file by file (in several processes for a large run); what the rest of the
run needs to know about each one is an :class:`ObjectRef`, small and picklable.  Once every file
is read, :class:`CrossRun` indexes the refs, and the ``judge`` of each cross-object rule asks it
for other objects (``find``, in constant time) and for objects in YAML files beside the job's file
that the run does not include (``exists_beside``, see :mod:`.beside`).
"""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from ..findings import Path
from .context import RunContext


class ObjectRef:
    """One object of the run: what other objects' rules may ask about it, and where it is."""

    __slots__ = ("kind", "name", "namespace", "source", "labels", "obj", "prefix", "entry", "origin", "order",
                 "ignored", "api_version")

    def __init__(self, kind: str, name: str, namespace: Optional[str], source: str, labels: Dict[str, Any],
                 obj: str, prefix: Path, entry: int, origin: Optional[Tuple[int, int, int]], order: Any,
                 ignored: FrozenSet[str], api_version: str = ""):
        self.kind = kind
        self.name = name
        self.namespace = namespace
        self.source = source
        self.labels = labels
        self.obj = obj  # "Kind/namespace/name", as findings name it
        self.prefix = prefix  # its path inside its document (items of a List)
        self.entry = entry  # which document of its file it is in (counting the documents that were linted)
        self.origin = origin  # (offset, end, line) of that document in its file, when the fast path read it
        self.order = order  # its place in the run: lookups answer in this order
        self.ignored = ignored  # rules its ascend-compile.io/ignore annotation suppresses
        self.api_version = api_version  # with obj, which object it is (findings carry it)

    def __reduce__(self) -> Tuple[Any, ...]:  # a worker sends one per object: rebuilt by one call
        return ObjectRef, (self.kind, self.name, self.namespace, self.source, self.labels, self.obj, self.prefix,
                           self.entry, self.origin, self.order, self.ignored, self.api_version)

    def __repr__(self) -> str:
        return f"<ObjectRef {self.obj} in {self.source}>"


class CrossRun(RunContext):
    """Every object of the run, indexed by kind and name, for the ``judge`` of cross-object rules."""

    def __init__(self, refs: Sequence[ObjectRef], profiles: Any, config: Any = None, beside: Any = None,
                 inventory: Any = None):
        super().__init__(profiles, config, inventory=inventory)
        self._by_name: Dict[Tuple[str, str], List[ObjectRef]] = {}
        self._kinds_named: Dict[str, Set[str]] = {}  # the kinds of the objects of each name
        self._by_file: Dict[Tuple[str, str], List[ObjectRef]] = {}  # (source, kind): its objects of that kind
        for ref in sorted(refs, key=_order):
            self._by_name.setdefault((ref.kind, ref.name), []).append(ref)
            self._kinds_named.setdefault(ref.name, set()).add(ref.kind)
            self._by_file.setdefault((ref.source, ref.kind), []).append(ref)
        self._beside = beside  # a beside.Beside, or None: nothing is looked up outside the run

    def find(self, kind: str, name: str, namespace: Optional[str], near: Any = None) -> List[ObjectRef]:
        """Objects of ``kind`` named ``name`` in the same namespace (an unset namespace matches any).

        With ``near``, objects from the same file as ``near`` come first and hide
        same-named objects elsewhere (a directory of samples reuses names).
        """
        named = self._by_name.get((kind, name))
        if named is None:
            return []  # most lookups (a ConfigMap's job is looked for under every workload kind)
        found = [ref for ref in named if namespace is None or ref.namespace is None or ref.namespace == namespace]
        if near is not None:
            same_file = [ref for ref in found if ref.source == near.source]
            if same_file:
                return same_file
        return found

    def find_any(self, kinds: Sequence[str], name: str, namespace: Optional[str], near: Any = None) -> List[ObjectRef]:
        """:meth:`find` for each of ``kinds`` in turn, joined (one lookup when no object has the name)."""
        present = self._kinds_named.get(name)
        if present is None:
            return []
        return [ref for kind in kinds if kind in present for ref in self.find(kind, name, namespace, near)]

    def in_file(self, kind: str, near: Any) -> List[ObjectRef]:
        """The objects of ``kind`` in ``near``'s file and namespace (an unset namespace matches any), in order."""
        return [ref for ref in self._by_file.get((near.source, kind), ())
                if near.namespace is None or ref.namespace is None or ref.namespace == near.namespace]

    def exists_beside(self, kind: str, name: str, namespace: Optional[str], near: Any) -> bool:  # type: ignore[override]
        """Whether a YAML file next to ``near``'s file, not linted in this run, defines the object.

        pre-commit passes only the changed files: a job whose ConfigMap lives in an
        unchanged file beside it must not be reported as missing it.
        """
        return self._beside is not None and self._beside.exists(kind, name, namespace, near.source)


def _order(ref: ObjectRef) -> Any:
    return ref.order
