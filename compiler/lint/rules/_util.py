"""Small helpers shared by the rule units (no rule lives here)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ...findings import Path
from ...vocabulary import CONTAINER_NAME, FRAMEWORK_LABEL, FRAMEWORKS, JOBS, LEADERS
from ..context import ObjectContext
from ...manifest.pods import Container, PodSet


def framework(obj: ObjectContext) -> Optional[str]:
    value = obj.labels.get(FRAMEWORK_LABEL)
    return value if isinstance(value, str) and value in FRAMEWORKS else None


def ascend_container(pod_set: PodSet) -> Optional[Container]:
    for container in pod_set.containers():
        if container.name == CONTAINER_NAME:
            return container
    return None


def npu_containers(pod_set: PodSet):
    return [c for c in pod_set.containers() if c.npu_request()[0]]


def npu_request_path(pod_set: PodSet, one: Optional[Container] = None) -> Path:
    """Where a pod set (or one of its containers) asks for NPUs: the first ``resources.requests.huawei.com/*``
    (or limits)."""
    for container in ([one] if one else pod_set.containers()):
        for section in ("requests", "limits"):
            for name in container.npu_amounts(section):
                return container.path + ("resources", section, name)
    return pod_set.spec_path + ("containers",)


def first_npu_path(obj: ObjectContext) -> Path:
    for pod_set in obj.pod_sets():
        if pod_set.npus() > 0:
            return npu_request_path(pod_set)
    return ("spec",)


def fmt(values) -> str:
    return ", ".join(str(v) for v in values)


def replica_key(obj: ObjectContext, rtype: str) -> Path:
    return ("spec", "replicaSpecs", rtype)


def leader_of(obj: ObjectContext) -> Tuple[Optional[str], Optional[str]]:
    fw = framework(obj)
    return fw, (LEADERS.get(fw) if fw else None)


def pod_containers(pod_set: PodSet):
    """(path, container mapping) of every init container and container of a pod set's pods."""
    return pod_set.all_containers()


#: the job label that picks an Atlas 300 / 300I Duo handler, and the values the plugin has one for
STRATEGY_310 = "npu-310-strategy"
STRATEGIES_310 = ("chip", "card")
#: the job label that asks for an Atlas 300I Duo handler (when it is exactly "true")
DUO_LABEL = "duo"
#: the value the plugin takes for a handler-picking job label that no one sets (``init310CardPolicyHandler``,
#: ``get310PCardHandlerName``: the chip strategy)
LABEL_DEFAULTS = {STRATEGY_310: "chip"}


def label_holders(obj: ObjectContext) -> List[Tuple[Path, Dict[str, Any]]]:
    """(path, labels) of every label set the scheduler plugin reads for a job: the job's own (its PodGroup gets
    them) and its pod templates' (``getJobLabelFromVcJob`` merges the pods' labels in)."""
    holders = [(("metadata", "labels"), obj.labels)] if obj.kind in JOBS else []
    holders += [(pod_set.spec_path[:-1] + ("metadata", "labels"), pod_set.labels) for pod_set in obj.pod_sets()]
    return holders


def label_values(obj: ObjectContext, key: str) -> List[Tuple[Path, Any]]:
    """(path, value) of each label ``key`` the plugin reads for a job, the job's own first (as it joins them)."""
    return [(path + (key,), labels[key]) for path, labels in label_holders(obj) if key in labels]


def joined_label(values: List[Tuple[Path, Any]]) -> Optional[str]:
    """The job label the plugin ends up with from ``values`` (:func:`label_values`), None when none is set: the
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


def handler_labels(obj: ObjectContext, keys: Tuple[str, ...]) -> Tuple[Tuple[str, Optional[str]], ...]:
    """(key, value) of the job labels ``keys`` as the plugin reads them to pick a handler: joined
    (:func:`joined_label`), with its default where none is set (``LABEL_DEFAULTS``)."""
    out = []
    for key in keys:
        value = joined_label(label_values(obj, key))
        out.append((key, LABEL_DEFAULTS.get(key) if value is None else value))
    return tuple(out)
