"""Where the workload kinds keep their pod templates: one table of data, read by the manifest model
(:mod:`ascend_compile.manifest.job`) so the pod rules run on the pods of every kind in it, and extended by the
project config's ``podTemplates`` (:mod:`ascend_compile.config`).

A path is the fields from the object's root to a pod template (a ``metadata`` and ``spec`` pair), dotted:
``spec.template``; ``[*]`` after a field stands for every item of that list (``spec.workerGroupSpecs[*].template``)
and a field ``*`` for every key of a mapping (``spec.pytorchReplicaSpecs.*.template``).  A template's replica
path, with the same wildcards, is the field that says how many pods it makes (read for the items the template's
own wildcards took, in order); a template without one, or whose count is not a whole number, counts as one pod.
The API group is matched, the version is not (a kind's versions keep their templates where they were).

AscendJob, Volcano Job and Pod are not in the table: the manifest model reads them itself (their replica defaults
and roles are the operator's and Volcano's).
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

from .records import NamedTuple

#: a parsed path: field names, with ITEMS for every item of a list and KEYS for every key of a mapping
Steps = Tuple[str, ...]
ITEMS = "[*]"
KEYS = "*"
_FIELD = re.compile(r"(?:[A-Za-z0-9_-]+|\*)((?:\[\*\])*)")


class TemplatePath(NamedTuple):
    """One pod template of a kind (a pattern when it has wildcards) and the field with its pod count."""

    template: Steps
    replicas: Steps = ()


class PodTemplateKind(NamedTuple):
    """A kind with pod templates: its API groups ("" for the core group), its kind, where its templates are."""

    groups: Tuple[str, ...]
    kind: str
    paths: Tuple[TemplatePath, ...]


def parse(text: Any) -> Tuple[Optional[Steps], str]:
    """(the steps of a dotted path, "") or (None, what is wrong with it)."""
    if not isinstance(text, str) or not text:
        return None, "a path is a non-empty string of dotted field names, e.g. spec.workerGroupSpecs[*].template"
    steps: List[str] = []
    for part in text.split("."):
        match = _FIELD.fullmatch(part)
        if match is None:
            return None, (f"{part!r} is not a field name (letters, digits, '_' or '-'), '*' (every key of a mapping) "
                          "or either followed by [*] (every item of a list)")
        name = part[:len(part) - len(match.group(1))]
        steps.append(name)
        steps.extend([ITEMS] * (len(match.group(1)) // 3))
    return tuple(steps), ""


def render(steps: Steps) -> str:
    """A parsed path written as the config writes it (``spec.workerGroupSpecs[*].template``)."""
    return ".".join(steps).replace("." + ITEMS, ITEMS)


def described(kinds: Tuple[PodTemplateKind, ...]) -> List[Dict[str, Any]]:
    """The config's kinds as ``--show-config`` prints them."""
    return [{"group": entry.groups[0], "kind": entry.kind,
             "paths": [{"template": render(path.template), "replicas": render(path.replicas) or None}
                       for path in entry.paths]} for entry in kinds]


def wildcards(steps: Steps) -> int:
    return sum(1 for step in steps if step in (ITEMS, KEYS))


def _paths(*pairs: Tuple[str, str]) -> Tuple[TemplatePath, ...]:
    out = []
    for template, replicas in pairs:
        steps, _ = parse(template)
        counted, _ = parse(replicas) if replicas else ((), "")
        assert steps is not None and counted is not None, (template, replicas)
        out.append(TemplatePath(steps, counted))
    return tuple(out)


def _ray(prefix: str) -> Tuple[Tuple[str, str], ...]:
    """A Ray cluster spec's head and worker groups, below ``prefix``."""
    return ((f"{prefix}headGroupSpec.template", ""),
            (f"{prefix}workerGroupSpecs[*].template", f"{prefix}workerGroupSpecs[*].replicas"))


def _kubeflow(kind: str, field: str) -> PodTemplateKind:
    return PodTemplateKind(("kubeflow.org",), kind, _paths((f"spec.{field}.*.template", f"spec.{field}.*.replicas")))


_APPS = ("apps", "extensions")
#: the kinds ascend-compile knows the pod templates of (sources: Kubernetes' apps/v1 and batch/v1 types; KubeRay's
#: ray.io/v1 RayCluster, RayService and RayJob; LeaderWorkerSet v1; JobSet v1alpha2; kthena's ModelServing
#: (``pkg/apis/workload/v1alpha1/servinggroup_types.go``); Kubeflow's training operator v1).  Where a kind's pods
#: multiply over two fields (a LeaderWorkerSet's workers: replicas x (size - 1); a JobSet's: replicas x parallelism;
#: a ModelServing's: its replicas x its roles') the count is one of the fields, a lower bound.
BUILTIN: Tuple[PodTemplateKind, ...] = (
    PodTemplateKind(_APPS, "Deployment", _paths(("spec.template", "spec.replicas"))),
    PodTemplateKind(_APPS, "ReplicaSet", _paths(("spec.template", "spec.replicas"))),
    PodTemplateKind(("apps",), "StatefulSet", _paths(("spec.template", "spec.replicas"))),
    PodTemplateKind(_APPS, "DaemonSet", _paths(("spec.template", ""))),
    PodTemplateKind(("batch",), "Job", _paths(("spec.template", "spec.parallelism"))),
    PodTemplateKind(("batch",), "CronJob", _paths(("spec.jobTemplate.spec.template",
                                                   "spec.jobTemplate.spec.parallelism"))),
    PodTemplateKind(("ray.io",), "RayCluster", _paths(*_ray("spec."))),
    PodTemplateKind(("ray.io",), "RayService", _paths(*_ray("spec.rayClusterConfig."))),
    PodTemplateKind(("ray.io",), "RayJob", _paths(*_ray("spec.rayClusterSpec."), ("spec.submitterPodTemplate", ""))),
    PodTemplateKind(("leaderworkerset.x-k8s.io",), "LeaderWorkerSet",
                    _paths(("spec.leaderWorkerTemplate.leaderTemplate", "spec.replicas"),
                           ("spec.leaderWorkerTemplate.workerTemplate", "spec.replicas"))),
    PodTemplateKind(("jobset.x-k8s.io",), "JobSet", _paths(("spec.replicatedJobs[*].template.spec.template",
                                                            "spec.replicatedJobs[*].replicas"))),
    PodTemplateKind(("workload.serving.volcano.sh",), "ModelServing",
                    _paths(("spec.template.roles[*].entryTemplate", "spec.template.roles[*].replicas"),
                           ("spec.template.roles[*].workerTemplate", "spec.template.roles[*].workerReplicas"))),
    _kubeflow("PyTorchJob", "pytorchReplicaSpecs"),
    _kubeflow("TFJob", "tfReplicaSpecs"),
    _kubeflow("MPIJob", "mpiReplicaSpecs"),
)

#: (API group, kind) -> its entry
Table = Mapping[Tuple[str, str], PodTemplateKind]


def table(extra: Tuple[PodTemplateKind, ...] = ()) -> Table:
    """The built-in kinds and ``extra`` (the config's), an extra entry replacing a built-in one of its group and kind."""
    out: Dict[Tuple[str, str], PodTemplateKind] = {}
    for entry in BUILTIN + extra:
        for group in entry.groups:
            out[(group, entry.kind)] = entry
    return out


BUILTIN_TABLE: Table = table()


def group_of(api_version: Any) -> Optional[str]:
    """The API group of an apiVersion ("" for the core group's ``v1``), None when it is no string."""
    if not isinstance(api_version, str):
        return None
    group, slash, _ = api_version.rpartition("/")
    return group if slash else ""


def find(data: Mapping[str, Any], kinds: Table) -> Optional[PodTemplateKind]:
    """The entry of the object's group and kind, None when its kind has no pod templates the table knows."""
    group, kind = group_of(data.get("apiVersion")), data.get("kind")
    return kinds.get((group, kind)) if group is not None and isinstance(kind, str) else None


def walk(data: Any, steps: Steps, at: Tuple[Any, ...] = ()) -> Iterator[Tuple[Tuple[Any, ...], Any]]:
    """(path, value) of every field ``steps`` reaches in ``data``, in document order; a field of the wrong type
    reaches nothing."""
    if not steps:
        yield at, data
        return
    step, rest = steps[0], steps[1:]
    if step == ITEMS:
        for index, item in enumerate(data if isinstance(data, list) else ()):
            yield from walk(item, rest, at + (index,))
    elif step == KEYS:
        for key, value in (data.items() if isinstance(data, dict) else ()):
            yield from walk(value, rest, at + (key,))
    elif isinstance(data, dict) and step in data:
        yield from walk(data[step], rest, at + (step,))


def bound(template: Steps, replicas: Steps, path: Tuple[Any, ...]) -> Tuple[Any, ...]:
    """The replica field of the template at ``path`` (reached by ``template``): ``replicas`` with its wildcards
    replaced, in order, by the items and keys the template's wildcards took."""
    taken = [element for step, element in zip(template, path) if step in (ITEMS, KEYS)]
    return tuple(taken.pop(0) if step in (ITEMS, KEYS) and taken else step for step in replicas)


#: the kinds the manifest model reads itself (API group, kind): not for the config to say where their pods are
_OWN_KINDS = {("mindxdl.gitee.com", "AscendJob"), ("batch.volcano.sh", "Job"), ("", "Pod")}
_KIND = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_API_VERSION = re.compile(r"(?:[a-z0-9]([a-z0-9.-]*[a-z0-9])?/)?[a-z0-9]+")
_ENTRY_KEYS = ("apiVersion", "kind", "paths")
_PATH_KEYS = ("template", "replicas")
EXAMPLE = "e.g. podTemplates: [{apiVersion: example.com/v1, kind: TrainingRun, paths: [spec.template]}]"
#: a problem of the config's podTemplates: (where below podTemplates, what is wrong, how to fix it, at the key)
Problem = Tuple[Tuple[Any, ...], str, str, bool]


def from_config(value: Any) -> Tuple[Tuple[PodTemplateKind, ...], List[Problem]]:
    """The config's ``podTemplates`` read: (the kinds, the problems, each located below ``podTemplates``)."""
    if value is None:
        return (), []
    if not isinstance(value, list):
        return (), [((), "podTemplates must be a list of kinds, each with apiVersion, kind and paths", EXAMPLE, True)]
    kinds: List[PodTemplateKind] = []
    problems: List[Problem] = []
    seen: Dict[Tuple[str, str], int] = {}
    for index, item in enumerate(value):
        entry = _entry(item, (index,), problems)
        if entry is None:
            continue
        key = (entry.groups[0], entry.kind)
        if key in seen:
            problems.append(((index, "kind"), f"podTemplates names {entry.kind} of group {key[0] or 'core'!r} twice "
                                              f"(entries {seen[key]} and {index})", "keep one entry per kind", False))
        seen.setdefault(key, index)
        kinds.append(entry)
    return tuple(kinds), problems


def _entry(item: Any, at: Tuple[Any, ...], problems: List[Problem]) -> Optional[PodTemplateKind]:
    if not isinstance(item, dict):
        problems.append((at, "each podTemplates entry is a mapping with apiVersion, kind and paths", EXAMPLE, False))
        return None
    unknown = [key for key in item if key not in _ENTRY_KEYS]
    if unknown:
        problems.append((at + (unknown[0],), f"unknown key {unknown[0]!r} in a podTemplates entry",
                         f"keys: {', '.join(_ENTRY_KEYS)}", True))
        return None
    before = len(problems)
    api_version, kind = item.get("apiVersion"), item.get("kind")
    if not isinstance(api_version, str) or not _API_VERSION.fullmatch(api_version):
        problems.append((at + ("apiVersion",), f"apiVersion {api_version!r} is not an API version such as ray.io/v1",
                         "write the apiVersion the kind's objects carry (its group is matched, not its version)",
                         api_version is None))
    if not isinstance(kind, str) or not _KIND.fullmatch(kind):
        problems.append((at + ("kind",), f"kind {kind!r} is not a kind name such as RayCluster",
                         "write the kind the objects carry: letters and digits, a letter first", kind is None))
    elif isinstance(api_version, str) and (group_of(api_version), kind) in _OWN_KINDS:
        problems.append((at + ("kind",), f"{api_version} {kind} is read by ascend-compile's own rules, not from "
                                         "podTemplates", "remove this entry", False))
    paths = _template_paths(item.get("paths"), at + ("paths",), problems)
    if len(problems) > before or not isinstance(api_version, str) or not isinstance(kind, str):
        return None
    return PodTemplateKind((group_of(api_version) or "",), kind, paths)


def _template_paths(value: Any, at: Tuple[Any, ...], problems: List[Problem]) -> Tuple[TemplatePath, ...]:
    if not isinstance(value, list) or not value:
        problems.append((at, "paths must be a non-empty list of the paths to the kind's pod templates",
                         "e.g. paths: [spec.template, {template: \"spec.groups[*].template\", replicas: "
                         "\"spec.groups[*].replicas\"}]", value is None))
        return ()
    out: List[TemplatePath] = []
    for index, item in enumerate(value):
        where = at + (index,)
        if isinstance(item, dict):
            unknown = [key for key in item if key not in _PATH_KEYS]
            if unknown:
                problems.append((where + (unknown[0],), f"unknown key {unknown[0]!r} in a podTemplates path",
                                 "keys: template (the path to the pod template), replicas (the path to its count)",
                                 True))
                continue
            template, replicas = item.get("template"), item.get("replicas")
            where_template = where + ("template",)
        else:
            template, replicas, where_template = item, None, where
        steps, why = parse(template)
        if steps is None:
            problems.append((where_template, f"template path {template!r}: {why}", "e.g. spec.template", False))
            continue
        counted: Optional[Steps] = ()
        if replicas is not None:
            counted, why = parse(replicas)
            if counted is None or wildcards(counted) > wildcards(steps):
                why = why or (f"it has more wildcards than its template path {template!r} (its wildcards take the "
                              "template's items and keys, in order)")
                problems.append((where + ("replicas",), f"replicas path {replicas!r}: {why}",
                                 "e.g. spec.groups[*].replicas beside spec.groups[*].template", False))
                continue
        out.append(TemplatePath(steps, counted or ()))
    return tuple(out)
