"""What a job manifest says, read once and defensively: its kind, metadata, pod sets (:mod:`.pods`), the
NPUs they ask for, and what it tells the scheduler about the hardware it wants (:meth:`Manifest.signals`).

lint's rules (through :class:`~ascend_compile.lint.context.ObjectContext`), ``import`` and the cluster
commands (``why``, its node fit, ``status``) all read a job here, so they count its pods and NPUs the same way.
A field of the wrong type reads as absent.
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

from ..hardware import arithmetic
from ..findings import Path
from ..hardware.targeting import HardwareSignals
from ..podtemplates import BUILTIN_TABLE, Table, find
from ..vocabulary import (ACCELERATOR_TYPE_LABEL, ASCEND_JOB, ASCEND_JOB_API_GROUP, DEFAULT_QUEUE, FRAMEWORK_LABEL,
                          FRAMEWORKS, JOBS, LABEL_DEFAULTS, OWN_ANNOTATIONS_READ, POD, RANKTABLE_CONFIGMAP_PREFIX,
                          RANKTABLE_HOSTPATH_VOLUME, RING_LABEL, SCHEDULE_POLICY_ANNOTATION, SCHEDULER_NAME,
                          SP_BLOCK_ANNOTATION, TEMPLATED, VOLCANO_JOB, VOLCANO_JOB_API_GROUP, VOLCANO_JOB_KIND, WORKLOADS)
from .pods import PodSet
from .templated import template_pod_sets
from .values import as_dict, as_int, as_list, once


def kind_of(data: Mapping[str, Any]) -> str:
    api = data.get("apiVersion")
    kind = data.get("kind")
    if not isinstance(kind, str):
        return ""
    api = api if isinstance(api, str) else ""
    if kind == ASCEND_JOB and api.startswith(ASCEND_JOB_API_GROUP + "/"):
        return ASCEND_JOB
    if kind == VOLCANO_JOB_KIND and api.startswith(VOLCANO_JOB_API_GROUP + "/"):
        return VOLCANO_JOB
    return kind


def _ranktable_config_map(config_map: Any) -> bool:
    """Whether a volume's ``configMap`` names a ranktable ConfigMap (``rings-config-*``)."""
    return isinstance(config_map, dict) and isinstance(name := config_map.get("name"), str) \
        and name.startswith(RANKTABLE_CONFIGMAP_PREFIX)


def joined_label(values: List[Tuple[Path, Any]]) -> Optional[str]:
    """The job label the plugin ends up with from ``values`` (:meth:`Manifest.label_values`), None when none is set: the
    PodGroup's (the job's) first, then each pod's not already in it, compared ignoring case, joined with ``|``
    (``getJobLabelFromVcJob``, ``isSelectorContains`` in ``plugin/job.go``).  The plugin takes the pods in map
    order; this takes them in document order."""
    joined: Optional[str] = None
    for _, value in values:
        value = str(value)
        if joined is None:
            joined = value
        elif value.lower() not in joined.lower().split("|"):
            joined += "|" + value
    return joined


class Manifest:
    """One Kubernetes object and what its pods ask for; ``kinds`` says where the pod templates of kinds other
    than AscendJob, Volcano Job and Pod are (:mod:`ascend_compile.podtemplates`: the built-in table, or the one
    the project config extends)."""

    def __init__(self, data: Dict[str, Any], kinds: Table = BUILTIN_TABLE):
        self.data = data
        self.kind = kind_of(data)
        self.templates = find(data, kinds) if self.kind not in (ASCEND_JOB, VOLCANO_JOB, POD) else None
        self._read_metadata(data)  # every object's name, namespace, labels and annotations are read (its ref)
        self._pod_sets: Optional[List[PodSet]] = None
        self._signals: Optional[HardwareSignals] = None
        self._job_annotations: Dict[str, Optional[Tuple[Any, Path]]] = {}  # job_annotation(), by key

    # ---------------------------------------------------------------- metadata (read in __init__: every run asks)
    def _read_metadata(self, data: Dict[str, Any]) -> None:
        self.metadata: Dict[str, Any] = as_dict(data.get("metadata"))
        name = self.metadata.get("name")
        self.name: str = name if isinstance(name, str) else ""
        namespace = self.metadata.get("namespace")
        self.namespace: Optional[str] = namespace if isinstance(namespace, str) and namespace else None
        self.labels: Dict[str, Any] = as_dict(self.metadata.get("labels"))
        self.annotations: Dict[str, Any] = as_dict(self.metadata.get("annotations"))

    @once
    def spec(self) -> Dict[str, Any]:
        return as_dict(self.data.get("spec"))

    # ---------------------------------------------------------------- pods
    def pod_sets(self) -> List[PodSet]:
        if self._pod_sets is None:
            self._pod_sets = list(self._iter_pod_sets())
        return self._pod_sets

    def _iter_pod_sets(self) -> Iterator[PodSet]:
        spec = self.spec
        if self.kind == ASCEND_JOB:
            for rtype, rspec in as_dict(spec.get("replicaSpecs")).items():
                if not isinstance(rspec, dict):
                    continue
                replicas = as_int(rspec.get("replicas"))
                template = as_dict(rspec.get("template"))
                yield PodSet(str(rtype), ("spec", "replicaSpecs", rtype), 1 if replicas is None else replicas,
                             ("spec", "replicaSpecs", rtype, "template", "spec"),
                             as_dict(template.get("spec")), as_dict(template.get("metadata")))
        elif self.kind == VOLCANO_JOB:
            # A task without replicas runs none: the field is a plain int32 that neither Volcano's API types
            # (batch/v1alpha1 TaskSpec) nor its admission webhook (mutate_job.go) default, unlike an AscendJob
            # replica spec's, which the operator reads as 1.
            for i, task in enumerate(as_list(spec.get("tasks"))):
                if not isinstance(task, dict):
                    continue
                replicas = as_int(task.get("replicas"))
                template = as_dict(task.get("template"))
                name = task.get("name")
                yield PodSet(name if isinstance(name, str) else f"default{i}", ("spec", "tasks", i),
                             0 if replicas is None else replicas, ("spec", "tasks", i, "template", "spec"),
                             as_dict(template.get("spec")), as_dict(template.get("metadata")))
        elif self.kind == POD:
            yield PodSet(POD, (), 1, ("spec",), spec, self.metadata)
        elif self.templates is not None:
            yield from template_pod_sets(self.data, self.templates, self.kind)

    @property
    def rule_kind(self) -> str:
        """The kind lint chooses the object's rules by: its own, or :data:`~ascend_compile.vocabulary.TEMPLATED`
        for a kind of the pod template table beyond the workloads the rules name (a RayCluster, a CronJob, a kind
        the config adds), whose pods get the rules that hold for any pod."""
        return TEMPLATED if self.templates is not None and self.kind not in WORKLOADS else self.kind

    # Each answer below is worked out once per object: several rules ask, and the data never changes.
    def npu_pod_sets(self) -> List[PodSet]:
        return self._npu_pod_sets

    @once
    def _npu_pod_sets(self) -> List[PodSet]:
        return [p for p in self.pod_sets() if p.npus() > 0]

    def npu_layout(self) -> "arithmetic.NpuLayout":
        """How the job's pods request NPUs (pods without NPUs are not counted)."""
        return self._npu_layout

    @once
    def _npu_layout(self) -> "arithmetic.NpuLayout":
        return arithmetic.NpuLayout.from_pod_sets([(pod_set.replicas, pod_set.npus()) for pod_set in self.pod_sets()])

    def npu_resource(self) -> Optional[str]:
        return self._npu_resource

    @once
    def _npu_resource(self) -> Optional[str]:
        for pod_set in self.pod_sets():
            resource = pod_set.npu_resource()
            if resource:
                return resource
        return None

    def requests_npus(self) -> bool:
        return bool(self._npu_pod_sets)

    def volcano_places(self, pod_set: PodSet) -> bool:
        """Whether Volcano (so the Ascend plugin) places the pod set's pods. A job's pods default to it
        (ascend-operator and Volcano's job controller fill it in; a job naming another scheduler is
        AC409's finding); the pods of a Pod, Deployment, batch Job, ... go to Kubernetes' default
        scheduler unless their template says ``schedulerName: volcano``."""
        return self.kind in JOBS or pod_set.spec.get("schedulerName") == SCHEDULER_NAME

    # ---------------------------------------------------------------- scheduling hints
    def job_annotation(self, key: str) -> Optional[Tuple[Any, Path]]:
        """(value, where) of an annotation the scheduler plugin reads for the whole job (schedule_policy, sp-block,
        ra-block, affinity-config): the job's own (its PodGroup gets them; not a Deployment's, see
        :meth:`unread_annotation`), else a pod template's; None if none.

        The plugin takes a key the PodGroup lacks from a pod of the job (``getJobAnnotationFromJobInfo`` in
        ``plugin/job.go``, the keys of ``annotationKeysForPodGroup``): one task's pod, in map order; here the
        first pod template that carries it.
        """
        if key not in self._job_annotations:
            self._job_annotations[key] = self._find_job_annotation(key)
        return self._job_annotations[key]

    def _find_job_annotation(self, key: str) -> Optional[Tuple[Any, Path]]:
        if key in self.annotations and self.kind in OWN_ANNOTATIONS_READ:
            return self.annotations[key], ("metadata", "annotations", key)
        for pod_set in self.pod_sets():
            annotations = as_dict(pod_set.metadata.get("annotations"))
            if key in annotations:
                return annotations[key], pod_set.spec_path[:-1] + ("metadata", "annotations", key)
        return None

    def unread_annotation(self, key: str) -> Optional[Path]:
        """Where the object's own metadata sets ``key`` when the scheduler never reads it there (a Deployment's, a
        StatefulSet's, ...: :data:`~ascend_compile.vocabulary.OWN_ANNOTATIONS_READ`) and no pod template has it."""
        if key not in self.annotations or self.kind in OWN_ANNOTATIONS_READ or self.job_annotation(key) is not None:
            return None
        return ("metadata", "annotations", key)

    @property
    def schedule_policy(self) -> Optional[str]:
        found = self.job_annotation(SCHEDULE_POLICY_ANNOTATION)
        return found[0] if found is not None and isinstance(found[0], str) and found[0] else None

    def accelerator_type(self) -> Optional[str]:
        """The first ``accelerator-type`` node selector of any pod set."""
        types = self._accelerator_types
        return types[0] if types else None

    def accelerator_types(self) -> Tuple[str, ...]:
        """Every distinct ``accelerator-type`` the pod sets select, in order; values equal but for case count
        once, as when the scheduler joins them into the job's selector (``getJobSelectorFromVcJob``)."""
        return self._accelerator_types

    @once
    def _accelerator_types(self) -> Tuple[str, ...]:
        seen: Dict[str, str] = {}
        for pod_set in self.pod_sets():
            value = pod_set.node_selector.get(ACCELERATOR_TYPE_LABEL)
            if isinstance(value, str) and value:
                seen.setdefault(value.lower(), value)
        return tuple(seen.values())

    def block(self, name: str) -> Tuple[bool, Optional[int]]:
        """(annotation present, its integer value) for ``sp-block`` / ``ra-block`` (see :meth:`job_annotation`)."""
        found = self.job_annotation(name)
        return (False, None) if found is None else (True, as_int(found[0]))

    def ranktable_volumes(self) -> List[Tuple[PodSet, int, Dict[str, Any]]]:
        """Volumes that carry a ranktable: a ``rings-config-*`` ConfigMap, or a volume named ``ranktable``."""
        return self._ranktable_volumes

    @once
    def _ranktable_volumes(self) -> List[Tuple[PodSet, int, Dict[str, Any]]]:
        out = []
        for pod_set in self.pod_sets():
            for i, volume in pod_set.volumes():
                if volume.get("name") == RANKTABLE_HOSTPATH_VOLUME or ("configMap" in volume
                                                                       and _ranktable_config_map(volume["configMap"])):
                    out.append((pod_set, i, volume))
        return out

    def uses_file_ranktable(self) -> bool:
        """A Volcano Job whose pods read a ranktable file.

        It is labelled ``ring-controller.atlas``, requests NPUs, and either runs
        several NPU pods or already mounts a ranktable volume.  A single-pod job
        without such a volume (an inference service, say) needs no ranktable.
        """
        return self._uses_file_ranktable

    @once
    def _uses_file_ranktable(self) -> bool:
        if self.kind != VOLCANO_JOB or RING_LABEL not in self.labels or not self.requests_npus():
            return False
        npu_pods = sum(max(p.replicas, 0) for p in self.npu_pod_sets())
        return npu_pods > 1 or bool(self.ranktable_volumes())

    # ---------------------------------------------------------------- what the scheduler is told
    def signals(self) -> HardwareSignals:
        """What the job tells the scheduler about the hardware it wants: the inputs of the plugin's handler
        choice (:func:`~ascend_compile.hardware.targeting.candidate_profiles`)."""
        if self._signals is None:
            types = self.accelerator_types()
            self._signals = HardwareSignals(self.npu_resource(), self.accelerator_type(), self.schedule_policy,
                                            self.block(SP_BLOCK_ANNOTATION)[0], types if len(types) > 1 else ())
        return self._signals

    def label_holders(self) -> List[Tuple[Path, Dict[str, Any]]]:
        """(path, labels) of every label set the scheduler plugin reads for a job: the job's own (its PodGroup gets
        them) and its pod templates' (``getJobLabelFromVcJob`` merges the pods' labels in)."""
        holders: List[Tuple[Path, Dict[str, Any]]] = []
        if self.kind in JOBS:
            holders.append((("metadata", "labels"), self.labels))
        holders += [(pod_set.spec_path[:-1] + ("metadata", "labels"), pod_set.labels) for pod_set in self.pod_sets()]
        return holders

    def label_values(self, key: str) -> List[Tuple[Path, Any]]:
        """(path, value) of each label ``key`` the plugin reads for a job, the job's own first (as it joins them)."""
        return [(path + (key,), labels[key]) for path, labels in self.label_holders() if key in labels]

    def handler_labels(self, keys: Tuple[str, ...]) -> Tuple[Tuple[str, Optional[str]], ...]:
        """(key, value) of the job labels ``keys`` as the plugin reads them to pick a handler (310, 310P): joined
        (:func:`joined_label`), with its default where none is set (``LABEL_DEFAULTS``)."""
        out = []
        for key in keys:
            value = joined_label(self.label_values(key))
            out.append((key, LABEL_DEFAULTS.get(key) if value is None else value))
        return tuple(out)

    def framework(self) -> Optional[str]:
        """The framework the ``framework`` label names (the operator reads it), None unless it is one it knows."""
        value = self.labels.get(FRAMEWORK_LABEL)
        return value if isinstance(value, str) and value in FRAMEWORKS else None

    def min_available(self) -> Optional[int]:
        """The job's own ``minAvailable`` (an AscendJob's ``runPolicy.schedulingPolicy``), None when it sets none."""
        return as_int(self._scheduling().get("minAvailable"))

    def queue(self) -> str:
        """The Volcano queue the job names, ``default`` when it names none."""
        queue = self._scheduling().get("queue")
        return queue if isinstance(queue, str) and queue else DEFAULT_QUEUE

    def _scheduling(self) -> Dict[str, Any]:
        if self.kind == ASCEND_JOB:
            return as_dict(as_dict(self.spec.get("runPolicy")).get("schedulingPolicy"))
        return self.spec
