"""The steps that check a spec and work out what it asks for, each collecting located findings.

:func:`~ascend_compile.jobspec.resolve.resolve` runs them in order: the profile, the support check
(framework, target, dialect, ranktable on the profile), the NPU layout (a total, or pods x NPUs per
pod, against the profile), the volumes, the env.  Each step reports every problem it finds to one
:class:`Problems` collector, so a spec with several mistakes gets them all at once.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..hardware import arithmetic
from ..catalogue import PROFILE_UNKNOWN, PROFILE_UNSUPPORTED, SPEC_INVALID
from ..findings import ERROR, Finding, PathElement, describe_document
from ..hardware.profiles import NO_HARDWARE_NAMED, Profile, ProfileNotFoundError, ProfileRegistry
from ..records import record
from ..hardware.targeting import candidate_profiles, signals_of_profile
from ..vocabulary import ASCEND_JOB, VOLCANO_JOB
from ..yamlio.locations import Document
from .model import GENERATED_ENV, RESERVED_VOLUMES, Volume

_VOLUME_SOURCES = ("nfs", "hostPath", "pvc", "emptyDir", "configMap")


class Problems:
    """Collects findings located in one spec document."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.findings: List[Finding] = []

    def add(self, rule: str, path: Sequence[PathElement], message: str, hint: str = "", key: bool = False) -> None:
        loc = self.doc.locate(tuple(path), key=key)
        self.findings.append(Finding(rule, ERROR, message, tuple(path), hint, loc.file, loc.line, loc.column,
                                     obj=describe_document(self.doc.data)))


class Fields:
    """A spec's fields with the project's defaults under them: the spec wins, then the config, then ``fallback``."""

    def __init__(self, spec: Mapping[str, Any], defaults: Mapping[str, Any]):
        self.spec = spec
        self.defaults = defaults

    def pick(self, key: str, fallback: Any = None) -> Any:
        if key in self.spec:
            return self.spec[key]
        if key in self.defaults:
            return self.defaults[key]
        return fallback

    def where(self, key: str, otherwise: str) -> Tuple[str, str]:
        """The path to blame for a picked value: the field itself when the spec sets it."""
        return ("spec", key) if key in self.spec else ("spec", otherwise)


def profile(registry: ProfileRegistry, fields: Fields, problems: Problems) -> Optional[Profile]:
    try:
        return registry.require(fields.spec["profile"])
    except ProfileNotFoundError as exc:
        problems.add(PROFILE_UNKNOWN, ("spec", "profile"), exc.message, exc.findings[0].hint)
        return None


@record(frozen=True)
class Choices:
    """What a spec chose, with defaults applied: the target, the scheduling dialect, the ranktable mode."""

    target: str
    scheduling: str
    ranktable: str
    namespace: Optional[str]


def support(prof: Profile, fields: Fields, metadata: Mapping[str, Any], registry: ProfileRegistry,
            problems: Problems) -> Choices:
    """Does the profile support the framework, target and dialect asked for; is the ranktable mode possible."""
    framework = fields.spec["framework"]
    target = fields.pick("target", ASCEND_JOB)
    if framework not in prof.frameworks:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "framework"),
                     f"framework {framework!r} is not supported on profile {prof.name}",
                     f"allowed: {', '.join(prof.frameworks)}")
    if target not in prof.targets:
        problems.add(PROFILE_UNSUPPORTED, fields.where("target", "profile"),
                     f"target {target!r} is not supported on profile {prof.name}",
                     f"allowed: {', '.join(prof.targets)}")
    scheduling = fields.pick("scheduling", prof.default_dialect)
    if scheduling not in prof.dialects and scheduling != NO_HARDWARE_NAMED:
        problems.add(PROFILE_UNSUPPORTED, fields.where("scheduling", "profile"),
                     f"scheduling dialect {scheduling!r} is not supported on profile {prof.name}",
                     f"allowed: {', '.join(prof.dialects)}")
    else:
        _scheduler_picks(prof, scheduling, fields, registry, problems)
    ranktable = fields.pick("ranktable", "file" if target == VOLCANO_JOB else "env")
    if target == VOLCANO_JOB and ranktable not in ("file", "none"):
        problems.add(SPEC_INVALID, fields.where("ranktable", "target"),
                     "a Volcano Job can only get its ranktable from a file (the rings-config ConfigMap), or none",
                     "set ranktable: file (or none), or target: AscendJob")
    elif target != VOLCANO_JOB and ranktable == "none":
        problems.add(SPEC_INVALID, fields.where("ranktable", "target"),
                     "an AscendJob always gets ascend-operator's rank env: ranktable: none is for Volcano Jobs",
                     "set ranktable: env (the AscendJob default), or target: VolcanoJob")
    namespace = metadata.get("namespace") or fields.defaults.get("namespace")
    if ranktable == "hostPath" and not namespace:
        problems.add(SPEC_INVALID, ("spec", "ranktable"),
                     "ranktable: hostPath needs a namespace: the shared ranktable directory is named <namespace>.<job>",
                     "set metadata.namespace (or the project's namespace)")
    return Choices(target, scheduling, ranktable, namespace)


def _scheduler_picks(prof: Profile, scheduling: str, fields: Fields, registry: ProfileRegistry,
                     problems: Problems) -> None:
    """The job as compiled must reach the profile's own handler (a custom profile's data can say otherwise)."""
    sp_block = (fields.spec.get("superPod") or {}).get("spBlock") is not None
    candidates = candidate_profiles(registry.all(), signals_of_profile(prof, scheduling, sp_block))
    if prof.name not in {p.name for p in candidates} and scheduling == NO_HARDWARE_NAMED:
        others = ", ".join(p.name for p in candidates) or "no handler at all"
        problems.add(PROFILE_UNSUPPORTED, fields.where("scheduling", "profile"),
                     f"a job that names no hardware (scheduling: none) goes to the scheduler's default handler"
                     f"{' for super-pod blocks' if sp_block else ''}, the rules of {others}, not of {prof.name}",
                     f"use scheduling: {' or '.join(prof.dialects)}")
    elif prof.name not in {p.name for p in candidates}:
        others = ", ".join(p.name for p in candidates) or "no handler at all"
        problems.add(PROFILE_UNSUPPORTED, fields.where("scheduling", "profile"),
                     f"a job compiled for profile {prof.name} in the {scheduling} dialect would be scheduled by the "
                     f"rules of {others}, not of {prof.name}",
                     "give the profile an acceleratorType or schedulePolicy of its own, or use another dialect")


def npu_layout(prof: Profile, spec: Mapping[str, Any], problems: Problems) -> Tuple[int, int]:
    """(pods, NPUs per pod): from a total, or from pods and npusPerPod, never both; checked against the profile."""
    has_total = "npus" in spec
    has_split = "pods" in spec or "npusPerPod" in spec
    pods = npus_per_pod = 0
    if has_total and has_split:
        problems.add(SPEC_INVALID, ("spec", "npus"), "give either npus, or pods and npusPerPod, not both",
                     "remove npus, or remove pods and npusPerPod", key=True)
    elif has_total:
        split, violations = arithmetic.split_total(prof, spec["npus"])
        for v in violations:
            problems.add(v.rule, ("spec", "npus"), v.message, v.hint)
        if split:
            pods, npus_per_pod = split
    elif "pods" in spec and "npusPerPod" in spec:
        pods, npus_per_pod = spec["pods"], spec["npusPerPod"]
    else:
        missing = "npusPerPod" if "pods" in spec else "pods" if has_split else "npus"
        problems.add(SPEC_INVALID, ("spec", "npusPerPod" if missing == "pods" else "pods") if has_split else ("spec",),
                     f"the spec does not say how many NPUs: {missing} is missing",
                     "give npus (a total), or both pods and npusPerPod")
    if pods:
        _check_layout(prof, spec, pods, npus_per_pod, problems)
    if spec.get("superPod") and prof.super_pod is None:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "superPod"),
                     f"profile {prof.name} is not a super-pod: superPod does not apply", "remove superPod", key=True)
    return pods, npus_per_pod


def _check_layout(prof: Profile, spec: Mapping[str, Any], pods: int, npus_per_pod: int, problems: Problems) -> None:
    sp = spec.get("superPod") or {}
    path: Tuple[PathElement, ...] = ("spec", "npusPerPod") if "npusPerPod" in spec else ("spec", "npus")
    layout = arithmetic.NpuLayout.uniform(pods, npus_per_pod)
    for v in arithmetic.check_pods(prof, layout):
        if v.severity == ERROR:
            problems.add(v.rule, path, v.message, v.hint)
    for v in arithmetic.check_super_pod(prof, layout, sp.get("spBlock"), sp.get("raBlock")):
        problems.add(v.rule, ("spec", "superPod") if sp else path, v.message, v.hint)


def volumes(spec: Mapping[str, Any], problems: Problems) -> Tuple[Volume, ...]:
    """The spec's volumes as Kubernetes volume sources; names unique and not the compiler's own."""
    return volume_list(spec.get("volumes"), ("spec", "volumes"), problems)


def volume_list(raw_list: Any, base: Tuple[PathElement, ...], problems: Problems,
                taken: Mapping[str, Any] = MappingProxyType({})) -> Tuple[Volume, ...]:
    """Volumes in shorthand at ``base``; a name in ``taken`` (the shared volumes) or used twice is refused."""
    out: List[Volume] = []
    seen_names: Dict[str, int] = {}
    for i, raw in enumerate(raw_list or []):
        vol = _volume(raw, base + (i,), problems)
        if vol is None:
            continue
        if vol.name in seen_names or vol.name in taken or vol.name in RESERVED_VOLUMES:
            problems.add(SPEC_INVALID, base + (i, "name"),
                         f"volume name {vol.name!r} is used twice" if vol.name in seen_names or vol.name in taken
                         else f"volume name {vol.name!r} is reserved for a volume the compiler adds",
                         "rename the volume")
        seen_names[vol.name] = i
        out.append(vol)
    return tuple(out)


def _volume(raw: Dict[str, Any], path: Tuple[PathElement, ...], problems: Problems) -> Optional[Volume]:
    sources = [k for k in _VOLUME_SOURCES if k in raw]
    if len(sources) != 1:
        problems.add(SPEC_INVALID, path,
                     f"volume {raw.get('name')!r} needs exactly one source, found "
                     f"{', '.join(sources) if sources else 'none'}",
                     "give one of nfs, hostPath, pvc, emptyDir or configMap")
        return None
    kind = sources[0]
    value = raw[kind]
    if kind == "nfs":
        if isinstance(value, str):
            server, sep, export = value.partition(":")
            if not (sep and server and export.startswith("/")):
                problems.add(SPEC_INVALID, (*path, "nfs"), f"nfs {value!r} is not SERVER:/PATH",
                             'write the server and the exported path, e.g. nfs: "10.0.0.5:/data/code"')
                return None
            value = {"server": server, "path": export}
        source = {"nfs": {"server": value["server"], "path": value["path"]}}
    elif kind == "hostPath":
        source = {"hostPath": {"path": value}}
    elif kind == "pvc":
        source = {"persistentVolumeClaim": {"claimName": value}}
    elif kind == "emptyDir":
        source = {"emptyDir": dict(value or {})}
    else:
        source = {"configMap": {"name": value}}
    return Volume(raw["name"], raw["mountPath"], source, bool(raw.get("readOnly", False)), raw.get("subPath"))


def env(spec: Mapping[str, Any], problems: Problems) -> Tuple[Dict[str, Any], ...]:
    """The spec's env as a list of env entries; names the compiler wires itself are refused."""
    return env_list(spec.get("env"), ("spec", "env"), problems)


def env_list(raw: Any, base: Tuple[PathElement, ...], problems: Problems,
             generated: Sequence[str] = ()) -> Tuple[Dict[str, Any], ...]:
    """Env at ``base`` (a map or a list of EnvVars); names the compiler wires (and ``generated``) are refused."""
    if raw is None:
        entries: Tuple[Dict[str, Any], ...] = ()
    elif isinstance(raw, dict):
        entries = tuple({"name": k, "value": v} for k, v in raw.items())
    else:
        entries = tuple(dict(item) for item in raw)
    for i, item in enumerate(entries):
        if item["name"] in GENERATED_ENV or item["name"] in generated:
            path = base + ((item["name"],) if isinstance(raw, dict) else (i,))
            problems.add(SPEC_INVALID, path, f"env {item['name']} is set by the compiler",
                         "remove it; the compiler wires it to the right source", key=isinstance(raw, dict))
    return entries
