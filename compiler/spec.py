"""The compact job spec: loading, checking, and resolving defaults into a :class:`Spec`.

A spec is a Kubernetes-style object (``apiVersion: ascend-compile.io/v1alpha1``,
``kind: TrainingJob``) so kustomize and kpt can carry it.  Its JSON Schema is
``schemas/trainingjob-v1alpha1.json``; this module checks the schema, then the
rules a schema cannot say (one NPU form, one volume source, what the profile
allows), and fills in defaults: built-in < profile < project config < spec.

Every problem is a Finding at the line and column of the offending field.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from . import hardware
from .config import ProjectConfig
from .catalogue import PROFILE_UNKNOWN, PROFILE_UNSUPPORTED, SPEC_INVALID
from .errors import CompileError
from .findings import ERROR, Finding, PathElement
from .profiles import NODE_SELECTOR, SCHEDULE_POLICY, Profile, ProfileRegistry
from .vocabulary import (ASCEND_JOB, DRIVER_VOLUME, FRAMEWORK_ENV, HCCL_IF_IP_ENV, LOCALTIME_VOLUME, POD_UID_ENV,
                         RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_HOSTPATH_VOLUME, SHM_VOLUME, VISIBLE_DEVICES_ENV,
                         VOLCANO_JOB, XDL_IP_ENV)
from .yamlio import Document

API_VERSION = "ascend-compile.io/v1alpha1"
KIND = "TrainingJob"



@dataclass(frozen=True)
class Volume:
    name: str
    mount_path: str
    source: Dict[str, Any]  # the Kubernetes volume source, e.g. {"nfs": {...}}
    read_only: bool = False
    sub_path: Optional[str] = None


@dataclass(frozen=True)
class Spec:
    """A checked spec with every default resolved: all that emission needs."""

    name: str
    namespace: Optional[str]
    framework: str
    target: str
    profile: Profile
    pods: int
    npus_per_pod: int
    image: str
    image_pull_policy: str = "IfNotPresent"
    command: Tuple[str, ...] = ()
    args: Tuple[str, ...] = ()
    working_dir: Optional[str] = None
    env: Tuple[Dict[str, Any], ...] = ()
    cpu: Any = None
    memory: Any = None
    shm_size: Any = None  # sizeLimit of the /dev/shm tmpfs; None = unlimited (the node's memory)
    volumes: Tuple[Volume, ...] = ()
    queue: str = "default"
    host_arch: Optional[str] = None
    scheduling: str = NODE_SELECTOR
    ranktable: str = "env"
    tor_affinity: Optional[str] = None
    sp_block: Optional[int] = None
    ra_block: Optional[int] = None
    retries: Optional[int] = None
    fault_scheduling: Optional[str] = None
    fault_retry_times: Optional[int] = None
    host_network: bool = False
    create_namespace: bool = False
    labels: Mapping[str, str] = field(default_factory=dict)
    annotations: Mapping[str, str] = field(default_factory=dict)
    pod_labels: Mapping[str, str] = field(default_factory=dict)
    pod_annotations: Mapping[str, str] = field(default_factory=dict)
    pod_template_patch: Optional[Dict[str, Any]] = None
    source: str = ""

    @property
    def total_npus(self) -> int:
        return self.pods * self.npus_per_pod


def is_spec(data: Any) -> bool:
    return isinstance(data, dict) and data.get("kind") == KIND and str(data.get("apiVersion", "")).startswith(
        "ascend-compile.io/")


class _Problems:
    """Collects findings located in one spec document."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.findings: List[Finding] = []

    def add(self, rule: str, path: Sequence[PathElement], message: str, hint: str = "", key: bool = False) -> None:
        loc = self.doc.locate(tuple(path), key=key)
        self.findings.append(Finding(rule, ERROR, message, tuple(path), hint, loc.file, loc.line, loc.column,
                                     obj=f"{KIND}/{_name(self.doc.data)}"))


def _name(data: Any) -> str:
    try:
        return str(data["metadata"]["name"])
    except (KeyError, TypeError):
        return "?"


def _with_registry(image: str, registry: Optional[str]) -> str:
    """Prefix ``registry`` unless the image already names a registry host."""
    if not registry:
        return image
    first = image.split("/", 1)[0]
    if "/" in image and ("." in first or ":" in first or first == "localhost"):
        return image
    return registry.rstrip("/") + "/" + image


def _volume(raw: Dict[str, Any], path: Tuple[PathElement, ...], problems: _Problems) -> Optional[Volume]:
    sources = [k for k in ("nfs", "hostPath", "pvc", "emptyDir", "configMap") if k in raw]
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
            server, _, export = value.partition(":")
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


#: integer fields of the spec; JSON Schema lets ``16.0`` pass as an integer, emission needs ``16``
_INTEGER_FIELDS = ("npus", "pods", "npusPerPod", "retries", "faultRetryTimes")


def _integers_as_int(spec: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(spec)
    for key in _INTEGER_FIELDS:
        if isinstance(out.get(key), float):
            out[key] = int(out[key])
    if isinstance(out.get("superPod"), dict):
        out["superPod"] = {k: int(v) if isinstance(v, float) else v for k, v in out["superPod"].items()}
    return out


def _env(raw: Any) -> Tuple[Dict[str, Any], ...]:
    if raw is None:
        return ()
    if isinstance(raw, dict):
        return tuple({"name": k, "value": v} for k, v in raw.items())
    return tuple(dict(item) for item in raw)


def resolve(doc: Document, registry: ProfileRegistry, config: Optional[ProjectConfig] = None) -> Spec:
    """Check one TrainingJob document and resolve it into a :class:`Spec`.

    Raises :class:`CompileError` with every problem found, each located.
    """
    from . import schemas

    config = config or ProjectConfig()
    problems = _Problems(doc)
    schema_findings = [f for f in schemas.validate_document(doc) if f.severity == ERROR]
    if schema_findings:
        raise CompileError(schema_findings)
    data = doc.data
    spec: Dict[str, Any] = _integers_as_int(data["spec"])
    defaults = config.defaults

    def pick(key: str, fallback: Any = None) -> Any:
        if key in spec:
            return spec[key]
        if key in defaults:
            return defaults[key]
        return fallback

    profile = registry.get(spec["profile"])
    if profile is None:
        names = registry.names()
        from difflib import get_close_matches

        close = get_close_matches(spec["profile"], names, n=1)
        problems.add(PROFILE_UNKNOWN, ("spec", "profile"), f"unknown hardware profile {spec['profile']!r}",
                     (f"did you mean {close[0]!r}? " if close else "") + f"known profiles: {', '.join(names)}")
        raise CompileError(problems.findings)

    framework = spec["framework"]
    target = pick("target", ASCEND_JOB)
    if framework not in profile.frameworks:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "framework"),
                     f"framework {framework!r} is not supported on profile {profile.name}",
                     f"allowed: {', '.join(profile.frameworks)}")
    if target not in profile.targets:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "target") if "target" in spec else ("spec", "profile"),
                     f"target {target!r} is not supported on profile {profile.name}",
                     f"allowed: {', '.join(profile.targets)}")
    scheduling = pick("scheduling", profile.default_dialect)
    if scheduling not in profile.dialects:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "scheduling") if "scheduling" in spec else ("spec", "profile"),
                     f"scheduling dialect {scheduling!r} is not supported on profile {profile.name}",
                     f"allowed: {', '.join(profile.dialects)}")
    ranktable = pick("ranktable", "file" if target == VOLCANO_JOB else "env")
    if target == VOLCANO_JOB and ranktable != "file":
        problems.add(SPEC_INVALID, ("spec", "ranktable") if "ranktable" in spec else ("spec", "target"),
                     "a Volcano Job can only get its ranktable from a file (the rings-config ConfigMap)",
                     "set ranktable: file, or target: AscendJob")
    namespace = data["metadata"].get("namespace") or defaults.get("namespace")
    if ranktable == "hostPath" and not namespace:
        problems.add(SPEC_INVALID, ("spec", "ranktable"),
                     "ranktable: hostPath needs a namespace: the shared ranktable directory is named <namespace>.<job>",
                     "set metadata.namespace (or the project's namespace)")

    # NPUs: a total, or pods x NPUs per pod, never both.
    has_total = "npus" in spec
    has_split = "pods" in spec or "npusPerPod" in spec
    pods = npus_per_pod = 0
    if has_total and has_split:
        problems.add(SPEC_INVALID, ("spec", "npus"), "give either npus, or pods and npusPerPod, not both",
                     "remove npus, or remove pods and npusPerPod", key=True)
    elif has_total:
        split, violations = hardware.split_total(profile, spec["npus"])
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
    sp = spec.get("superPod") or {}
    if pods:
        path: Tuple[PathElement, ...] = ("spec", "npusPerPod") if "npusPerPod" in spec else ("spec", "npus")
        layout = hardware.NpuLayout.uniform(pods, npus_per_pod)
        for v in hardware.check_pods(profile, layout):
            if v.severity == ERROR:
                problems.add(v.rule, path, v.message, v.hint)
        for v in hardware.check_super_pod(profile, layout, sp.get("spBlock"), sp.get("raBlock")):
            problems.add(v.rule, ("spec", "superPod") if sp else path, v.message, v.hint)
    if sp and profile.super_pod is None:
        problems.add(PROFILE_UNSUPPORTED, ("spec", "superPod"),
                     f"profile {profile.name} is not a super-pod: superPod does not apply", "remove superPod", key=True)
    volumes: List[Volume] = []
    seen_names: Dict[str, int] = {}
    for i, raw in enumerate(spec.get("volumes") or []):
        vol = _volume(raw, ("spec", "volumes", i), problems)
        if vol is None:
            continue
        if vol.name in seen_names or vol.name in RESERVED_VOLUMES:
            problems.add(SPEC_INVALID, ("spec", "volumes", i, "name"),
                         f"volume name {vol.name!r} is used twice" if vol.name in seen_names
                         else f"volume name {vol.name!r} is reserved for a volume the compiler adds",
                         "rename the volume")
        seen_names[vol.name] = i
        volumes.append(vol)

    env = _env(spec.get("env"))
    for i, item in enumerate(env):
        if item["name"] in GENERATED_ENV:
            path = ("spec", "env", item["name"]) if isinstance(spec.get("env"), dict) else ("spec", "env", i)
            problems.add(SPEC_INVALID, path, f"env {item['name']} is set by the compiler",
                         "remove it; the compiler wires it to the right source", key=isinstance(spec.get("env"), dict))

    if problems.findings:
        raise CompileError(problems.findings)

    resources = spec.get("resources") or {}
    return Spec(
        name=data["metadata"]["name"],
        namespace=namespace,
        framework=framework,
        target=target,
        profile=profile,
        pods=pods,
        npus_per_pod=npus_per_pod,
        image=_with_registry(spec["image"], defaults.get("imageRegistry")),
        image_pull_policy=pick("imagePullPolicy", "IfNotPresent"),
        command=tuple(spec.get("command") or ()),
        args=tuple(spec.get("args") or ()),
        working_dir=spec.get("workingDir"),
        env=env,
        cpu=resources.get("cpu"),
        memory=resources.get("memory"),
        shm_size=resources.get("shm"),
        volumes=tuple(volumes),
        queue=pick("queue", "default"),
        # the schedule-policy dialect names the hardware by annotation; host-arch only when asked for
        host_arch=pick("hostArch", profile.host_arch if scheduling == NODE_SELECTOR else None),
        scheduling=scheduling,
        ranktable=ranktable,
        tor_affinity=spec.get("torAffinity"),
        sp_block=sp.get("spBlock"),
        ra_block=sp.get("raBlock"),
        retries=pick("retries"),
        fault_scheduling=pick("faultScheduling"),
        fault_retry_times=spec.get("faultRetryTimes"),
        host_network=bool(pick("hostNetwork", False)),
        create_namespace=bool(pick("createNamespace", False)),
        labels=dict(spec.get("labels") or {}),
        annotations=dict(spec.get("annotations") or {}),
        pod_labels=dict(spec.get("podLabels") or {}),
        pod_annotations=dict(spec.get("podAnnotations") or {}),
        pod_template_patch=spec.get("podTemplatePatch"),
        source=doc.source,
    )


#: volume names the compiler adds itself
RESERVED_VOLUMES = frozenset({DRIVER_VOLUME, SHM_VOLUME, LOCALTIME_VOLUME, RANKTABLE_CONFIGMAP_VOLUME,
                              RANKTABLE_HOSTPATH_VOLUME})
#: env names the compiler wires itself
GENERATED_ENV = frozenset({VISIBLE_DEVICES_ENV, XDL_IP_ENV, POD_UID_ENV, HCCL_IF_IP_ENV, FRAMEWORK_ENV})
