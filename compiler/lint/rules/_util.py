"""Small helpers shared by the rule units (no rule lives here)."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Tuple

from ...findings import Path
from ...vocabulary import CONTAINER_NAME, LEADERS
from ..context import ObjectContext
from ...manifest.pods import Container, PodSet


def ascend_container(pod_set: PodSet) -> Optional[Container]:
    for container in pod_set.containers():
        if container.name == CONTAINER_NAME:
            return container
    return None


def npu_containers(pod_set: PodSet) -> List[Container]:
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


def fmt(values: Iterable[Any]) -> str:
    return ", ".join(str(v) for v in values)


def replica_key(obj: ObjectContext, rtype: str) -> Path:
    return ("spec", "replicaSpecs", rtype)


def leader_of(obj: ObjectContext) -> Tuple[Optional[str], Optional[str]]:
    fw = obj.framework()
    return fw, (LEADERS.get(fw) if fw else None)


def pod_containers(pod_set: PodSet) -> List[Tuple[Path, Dict[str, Any]]]:
    """(path, container mapping) of every init container and container of a pod set's pods."""
    return pod_set.all_containers()


def command_text(container: Container) -> str:
    """A container's ``command`` and ``args`` as one line of text ("" when it gives neither): what a rule reads
    to see whether the command itself sets a variable or runs a script."""
    words: List[str] = []
    for key in ("command", "args"):
        value = container.data.get(key)
        if isinstance(value, list):
            words += [str(item) for item in value]
    return " ".join(words)


def on_other_releases(where: Iterable[str], text: str) -> str:
    """A finding about releases other than the one judged, for a run that named none: ``on MindCluster
    v6.0.0-v26.0.1 <text>; set cluster.mindcluster ...``."""
    from ...releases import span_text

    return (f"on MindCluster {span_text(where)} {text}; set cluster.mindcluster in .ascend-compile.yaml or "
            "--mindcluster to judge for your release")
