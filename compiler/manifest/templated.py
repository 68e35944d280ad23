"""The pod sets of a kind from the pod template table (:mod:`ascend_compile.podtemplates`): a Deployment's one
template, a RayCluster's head and worker groups, a LeaderWorkerSet's leader and workers, a kind the config adds.
"""
from __future__ import annotations

from typing import Any, Iterator, List, Tuple

from ..podtemplates import PodTemplateKind, TemplatePath, bound, walk, wildcards
from .pods import PodSet
from .values import as_dict, as_int


def template_pod_sets(data: Any, entry: PodTemplateKind, kind: str) -> Iterator[PodSet]:
    """One pod set per template ``entry`` finds in ``data``, in the table's order and then the document's.  A kind
    with one template and no wildcard (a Deployment) names its pods by its kind, as its only pod set."""
    single = len(entry.paths) == 1 and not wildcards(entry.paths[0].template)
    for where in entry.paths:
        for path, template in walk(data, where.template):
            if not isinstance(template, dict):
                continue
            role, role_path = (kind, ()) if single else (_role(data, path), path[:-1])
            yield PodSet(role, role_path, _count(data, where, path), path + ("spec",),
                         as_dict(template.get("spec")), as_dict(template.get("metadata")))


def _count(data: Any, where: TemplatePath, path: Tuple[Any, ...]) -> int:
    """The pods the template at ``path`` makes: its replica field when that is a whole number, else 1."""
    if not where.replicas:
        return 1
    value = data
    for step in bound(where.template, where.replicas, path):
        if isinstance(step, int):
            value = value[step] if isinstance(value, list) and 0 <= step < len(value) else None
        else:
            value = value.get(step) if isinstance(value, dict) else None
    count = as_int(value)
    return 1 if count is None else count


def _role(data: Any, path: Tuple[Any, ...]) -> str:
    """How a message names the template at ``path``: its fields below ``spec`` (``workerGroupSpecs[0]``,
    ``pytorchReplicaSpecs.Worker``), then the names of the list items it is in (``(small-group)``)."""
    text = ""
    names: List[str] = []
    node = data
    parts = list(path)
    while len(parts) > 1 and parts[-1] in ("template", "spec"):
        parts.pop()
    for index, step in enumerate(path):
        node = node[step]
        if index >= len(parts) or (index == 0 and step == "spec" and len(parts) > 1):
            continue
        if isinstance(step, int):
            text += f"[{step}]"
            name = next((value for key in ("name", "groupName") if isinstance(value := as_dict(node).get(key), str)
                         and value), None)
            if name:
                names.append(name)
        else:
            text += ("." if text else "") + str(step)
    return text + (f" ({'/'.join(names)})" if names else "")
