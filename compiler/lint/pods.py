"""The pod templates of an object as rules read them (:class:`PodSet`, :class:`Container`), and the small readers
they share: a field of the wrong type reads as absent (the schema check reports the type error).

Answers that rules ask for again and again are worked out once and kept (:class:`once`, and the
``_``-prefixed slots): the data of a run never changes while it is linted.
"""
from __future__ import annotations

import re
from typing import AbstractSet, Any, Callable, Dict, Generic, List, Optional, Tuple, TypeVar

from ..findings import Path
from ..quantity import parse as parse_quantity
from ..vocabulary import HAMI_COMPANION_SUFFIXES, HAMI_RESOURCE_PREFIX, NPU_RESOURCE_PREFIX

T = TypeVar("T")


def hami_companions(names) -> frozenset:
    """The names among ``names`` (one container's ``huawei.com/*`` resources) that are HAMi vNPU companions
    of another of them: ``huawei.com/Ascend910B3-memory`` or ``-core`` beside ``huawei.com/Ascend910B3``."""
    present = set(names)
    return frozenset(n for n in present if n.startswith(HAMI_RESOURCE_PREFIX) and any(
        n.endswith(suffix) and n[:-len(suffix)] in present for suffix in HAMI_COMPANION_SUFFIXES))


class once(Generic[T]):
    """A property computed on first use and then kept in the instance (rules ask the same things many times).

    Like :func:`functools.cached_property` without its lock (taken on every first use before Python 3.12:
    a few percent of a bulk lint).  An object of the run is read by one thread.
    """

    def __init__(self, compute: Callable[[Any], T]):
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __set_name__(self, owner: Any, name: str) -> None:
        self._name = name

    def __get__(self, instance: Any, owner: Any = None) -> T:
        if instance is None:
            return self  # type: ignore[return-value]
        value = instance.__dict__[self._name] = self._compute(instance)
        return value


def as_dict(value: Any) -> Dict[str, Any]:
    return value if isinstance(value, dict) else {}


def as_list(value: Any) -> List[Any]:
    return value if isinstance(value, list) else []


def as_int(value: Any) -> Optional[int]:
    """An int from an int or an integer string ("8"), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
        return int(value)
    return None


def npu_count(value: Any) -> int:
    """An NPU amount as Kubernetes reads the quantity: 8, "8", 8.0 and "8000m" are all 8 NPUs (the API server
    and the Volcano plugin see 8).  A fraction ("500m", :func:`refused_amount`), which the API server refuses for
    an extended resource, or a value that is no quantity reads as 0."""
    found = as_int(value)
    if found is not None:
        return found
    milli = _milli(value)
    return 0 if milli is None or milli % 1000 else milli // 1000


def refused_amount(value: Any) -> Optional[str]:
    """Why Kubernetes refuses this amount of an extended resource (``huawei.com/*``), or None: "negative", or
    "not a whole number" when its value in thousandths, rounded up (``Quantity.MilliValue``), is no multiple of
    1000 ("500m", 1.5, "1001m").  A value that is no quantity is the schema check's."""
    found = as_int(value)
    if found is not None:
        return "negative" if found < 0 else None
    milli = _milli(value)
    if milli is None:
        return None
    return "negative" if milli < 0 else "not a whole number" if milli % 1000 else None


def _milli(value: Any) -> Optional[int]:
    exact = parse_quantity(value)
    return None if exact is None else -((-exact * 1000) // 1)  # rounded up, as MilliValue does


class Container:
    """One container of a pod set: its path (relative to the object), its data, its index."""

    __slots__ = ("path", "data", "index", "_npu_request", "_amounts", "_env", "_hami")

    def __init__(self, path: Path, data: Dict[str, Any], index: int):
        self.path = path
        self.data = data
        self.index = index
        self._npu_request: Optional[Tuple[Optional[str], int]] = None
        self._amounts: Dict[str, Dict[str, Any]] = {}  # npu_amounts by section (rules ask often; never changed)
        self._env: Optional[List[Tuple[int, Dict[str, Any]]]] = None
        self._hami: Optional[Path] = None  # where the first HAMi companion resource is, once npu_request() ran

    @property
    def name(self) -> str:
        name = self.data.get("name")
        return name if isinstance(name, str) else ""

    def npu_amounts(self, section: str) -> Dict[str, Any]:
        """``huawei.com/*`` entries of ``resources.requests`` or ``resources.limits``."""
        found = self._amounts.get(section)
        if found is None:
            amounts = as_dict(as_dict(self.data.get("resources")).get(section))
            found = self._amounts[section] = {k: v for k, v in amounts.items()
                                              if isinstance(k, str) and k.startswith(NPU_RESOURCE_PREFIX)}
        return found

    def npu_request(self) -> Tuple[Optional[str], int]:
        """(first ``huawei.com/*`` resource requested, its count) as the operator reads it."""
        if self._npu_request is None:
            self._npu_request = self._first_npu_amount()
        return self._npu_request

    def hami_companion(self) -> Optional[Path]:
        """Where the container asks for a HAMi vNPU companion resource (``huawei.com/Ascend910B3-memory`` beside
        ``huawei.com/Ascend910B3``), the first in its requests, else in its limits; None if it does not."""
        self.npu_request()
        return self._hami

    def _first_npu_amount(self) -> Tuple[Optional[str], int]:
        for section in ("requests", "limits"):  # limits alone default the request
            amounts = self.npu_amounts(section)
            companions = hami_companions(amounts) if len(amounts) > 1 else ()
            if companions and self._hami is None:
                self._hami = self.path + ("resources", section, next(n for n in amounts if n in companions))
            for name, value in amounts.items():
                if name not in companions:  # HAMi's -memory/-core go with the resource they follow
                    return name, npu_count(value)
        return None, 0

    def env(self) -> List[Tuple[int, Dict[str, Any]]]:
        if self._env is None:
            self._env = [(i, e) for i, e in enumerate(as_list(self.data.get("env"))) if isinstance(e, dict)]
        return self._env

    def env_named(self, name: str) -> Optional[Tuple[int, Dict[str, Any]]]:
        for i, item in self.env():
            if item.get("name") == name:
                return i, item
        return None


class PodSet:
    """A group of identical pods: an AscendJob replica type, a Volcano task, a Deployment's template."""

    __slots__ = ("role", "role_path", "replicas", "spec_path", "spec", "metadata", "node_selector", "labels",
                 "_containers", "_all_containers", "_npus", "_resource", "_volumes", "_volume_names", "_downward")

    def __init__(self, role: str, role_path: Path, replicas: int, spec_path: Path, spec: Dict[str, Any],
                 metadata: Dict[str, Any]):
        self.role = role  # "Master", "Worker", a task name, or the kind for single-template workloads
        self.role_path = role_path  # the replicaSpecs entry / task item / object root
        self.replicas = replicas
        self.spec_path = spec_path  # path of the PodSpec
        self.spec = spec
        self.metadata = metadata
        self.node_selector: Dict[str, Any] = as_dict(spec.get("nodeSelector"))
        self.labels: Dict[str, Any] = as_dict(metadata.get("labels"))
        self._containers: Optional[List[Container]] = None
        self._all_containers: Optional[List[Tuple[Path, Dict[str, Any]]]] = None
        self._npus: Optional[int] = None  # computed once: rules ask often, and the data never changes
        self._resource: Any = False  # npu_resource(), once known
        self._volumes: Optional[List[Tuple[int, Dict[str, Any]]]] = None
        self._volume_names: Optional[AbstractSet[str]] = None
        self._downward: Optional[List[Tuple[int, Dict[str, Any]]]] = None

    def containers(self) -> List[Container]:
        if self._containers is None:
            self._containers = [Container(self.spec_path + ("containers", i), c, i)
                                for i, c in enumerate(as_list(self.spec.get("containers"))) if isinstance(c, dict)]
        return self._containers

    def all_containers(self) -> List[Tuple[Path, Dict[str, Any]]]:
        """(path, data) of every init container, then every container (the checks Kubernetes makes on all)."""
        if self._all_containers is None:
            self._all_containers = [(self.spec_path + (section, i), c) for section in ("initContainers", "containers")
                                    for i, c in enumerate(as_list(self.spec.get(section))) if isinstance(c, dict)]
        return self._all_containers

    def npus(self) -> int:
        """NPUs one pod of this set requests (all containers)."""
        if self._npus is None:
            self._npus = sum([c.npu_request()[1] for c in self.containers()])
        return self._npus

    def npu_resource(self) -> Optional[str]:
        """The first NPU resource a container of the set asks for, None if none does."""
        if self._resource is False:
            self._resource = None
            for container in self.containers():
                name = container.npu_request()[0]
                if name:
                    self._resource = name
                    break
        return self._resource

    def volumes(self) -> List[Tuple[int, Dict[str, Any]]]:
        if self._volumes is None:
            self._volumes = [(i, v) for i, v in enumerate(as_list(self.spec.get("volumes"))) if isinstance(v, dict)]
        return self._volumes

    def downward_volumes(self) -> List[Tuple[int, Dict[str, Any]]]:
        """(index, volume) of the downwardAPI and projected volumes: the ones whose files may read the downward
        API (few pods have any)."""
        if self._downward is None:
            self._downward = [(i, v) for i, v in self.volumes() if "downwardAPI" in v or "projected" in v]
        return self._downward

    def volume_names(self) -> AbstractSet[str]:
        """The names (strings) of the pod set's volumes.  Fewer names than :meth:`volumes` means a name is repeated
        or is no string."""
        if self._volume_names is None:
            self._volume_names = {name for _, v in self.volumes() if isinstance(name := v.get("name"), str)}
        return self._volume_names
