"""The pods a manifest asks for: groups of identical pods (:class:`PodSet`) and their containers
(:class:`Container`), with the NPUs each asks for.

How NPUs are counted, the one reading lint, ``import`` and ``why`` share (upstream, read in
MindCluster's ``component/ascend-for-volcano/plugin/job.go``, ``getVCTaskReqNPUTypeFromTaskInfo``, and
``component/ascend-operator/pkg/controllers/v1/utils.go``, ``getContainerNPUResourceNameAndReq``): a pod's
NPU resource is a ``huawei.com/*`` name among its containers' requests, and its count is what the pod's
containers request of it (Volcano adds the containers' requests up into the pod's, ``GetPodResourceRequest``
in ``pkg/scheduler/api/pod_info.go``).  Requests win; a container that only sets limits gets them as requests
(Kubernetes defaults a missing request to its limit).  HAMi's ``huawei.com/<chip>-memory`` and ``-core``
beside ``huawei.com/<chip>`` are sizes of that NPU, not NPUs of their own.
"""
from __future__ import annotations

from typing import AbstractSet, Any, Dict, List, Mapping, Optional, Tuple

from ..findings import Path
from ..vocabulary import NPU_RESOURCE_PREFIX, POD
from .values import as_dict, as_list, hami_companions, npu_count


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


#: a node selector requirement: (key, operator, values); a node meets it as :meth:`ascend_compile.inventory.model.Node.affine` says
Requirement = Tuple[str, str, Tuple[str, ...]]
#: a node selector term: (requirements on the node's labels, requirements on its fields); a node must meet all of one
Term = Tuple[Tuple[Requirement, ...], Tuple[Requirement, ...]]
#: the operators of a node selector requirement, and how many values each takes (None: one or more)
AFFINITY_OPERATORS = {"In": None, "NotIn": None, "Exists": 0, "DoesNotExist": 0, "Gt": 1, "Lt": 1}
#: the one node field a term's matchFields may name (Kubernetes' validation)
NODE_NAME_FIELD = "metadata.name"
#: where a pod spec holds the required node affinity
NODE_AFFINITY_PATH = ("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")


def whole_number(text: Optional[str]) -> Optional[int]:
    """A Gt/Lt value or node label read as the API server reads it (a 64-bit integer, ASCII digits), else None."""
    if text is None or not text or not text.lstrip("+-").isascii() or not text.lstrip("+-").isdigit() or \
            text[1:].startswith(("+", "-")):
        return None
    number = int(text)
    return number if -2 ** 63 <= number < 2 ** 63 else None


def required_node_affinity(spec: Mapping[str, Any]) -> Optional[Tuple[Term, ...]]:
    """The terms of a pod spec's ``affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution`` (a node
    must meet one), None when it sets none, or one the API server refuses (no term, an unknown operator, the wrong
    number of values, a field other than ``metadata.name``: another check's finding, not a node question)."""
    required = as_dict(as_dict(as_dict(spec.get("affinity")).get("nodeAffinity")).get(NODE_AFFINITY_PATH[2]))
    terms = as_list(required.get("nodeSelectorTerms"))
    if not terms:
        return None
    out = []
    for term in terms:
        if not isinstance(term, dict):
            return None
        labels = _requirements(term.get("matchExpressions"), fields=False)
        fields = _requirements(term.get("matchFields"), fields=True)
        if labels is None or fields is None:
            return None
        out.append((labels, fields))
    return tuple(out)


def _requirements(items: Any, fields: bool) -> Optional[Tuple[Requirement, ...]]:
    out = []
    for item in as_list(items):
        if not isinstance(item, dict):
            return None
        key, operator, values = item.get("key"), item.get("operator"), as_list(item.get("values"))
        if not isinstance(key, str) or not key or not isinstance(operator, str) or operator not in AFFINITY_OPERATORS or \
                not all(isinstance(v, str) for v in values):
            return None
        want = 1 if fields else AFFINITY_OPERATORS[str(operator)]
        if (want is None and not values) or (want is not None and len(values) != want):
            return None
        if fields and (key != NODE_NAME_FIELD or operator not in ("In", "NotIn")):
            return None
        if operator in ("Gt", "Lt") and whole_number(values[0]) is None:
            return None
        out.append((key, str(operator), tuple(str(v) for v in values)))
    return tuple(out)


class PodSet:
    """A group of identical pods: an AscendJob replica type, a Volcano task, a Deployment's template."""

    __slots__ = ("role", "role_path", "replicas", "spec_path", "spec", "metadata", "node_selector", "node_affinity",
                 "labels", "_containers", "_all_containers", "_npus", "_resource", "_volumes", "_volume_names", "_downward")

    def __init__(self, role: str, role_path: Path, replicas: int, spec_path: Path, spec: Dict[str, Any],
                 metadata: Dict[str, Any]):
        self.role = role  # "Master", "Worker", a task name, or the kind for single-template workloads
        self.role_path = role_path  # the replicaSpecs entry / task item / object root
        self.replicas = replicas
        self.spec_path = spec_path  # path of the PodSpec
        self.spec = spec
        self.metadata = metadata
        self.node_selector: Dict[str, Any] = as_dict(spec.get("nodeSelector"))
        #: the required node affinity's terms (:func:`required_node_affinity`), None when the pods set none
        self.node_affinity: Optional[Tuple[Term, ...]] = required_node_affinity(spec)
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
        """NPUs of :meth:`npu_resource` one pod of this set requests (all its containers')."""
        if self._npus is None:
            resource = self.npu_resource()
            self._npus = sum([count for name, count in (c.npu_request() for c in self.containers())
                              if name == resource]) if resource else 0
        return self._npus

    def npus_by_resource(self) -> Dict[str, int]:
        """NPUs one pod of this set requests, by resource (a pod whose containers name different ``huawei.com/*``
        resources holds some of each)."""
        out: Dict[str, int] = {}
        for container in self.containers():
            name, count = container.npu_request()
            if name:
                out[name] = out.get(name, 0) + count
        return out

    def npu_resource(self) -> Optional[str]:
        """The first NPU resource a container of the set asks for, None if none does."""
        if self._resource is False:
            self._resource = None
            for container in self.containers():
                name = container.npu_request()[0]
                if name:
                    self._resource = name
                    break
        return self._resource if isinstance(self._resource, str) else None

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


def pod_of(pod: Mapping[str, Any]) -> PodSet:
    """A pod (as the cluster stores it, or a manifest's ``kind: Pod``) read as a set of one."""
    return PodSet(POD, (), 1, ("spec",), as_dict(pod.get("spec")), as_dict(pod.get("metadata")))
