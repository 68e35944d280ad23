"""From a TrainingJob document to a :class:`~ascend_compile.jobspec.model.Spec`: check, then fill in defaults.

The schema first, then the rules a schema cannot say (:mod:`ascend_compile.jobspec.steps`: the profile,
what it supports, the NPU layout, volumes, env; :mod:`.resilience`; :mod:`.shapes`; :mod:`.replicas`;
:mod:`.generated`), then defaults: built-in < profile < project config < spec.  Every problem is a Finding
at the line and column of the offending field.
"""
from __future__ import annotations

import datetime as _dt
from typing import Any, Dict, Mapping, Optional, Tuple

from ..config import ProjectConfig, target_of
from ..errors import CompileError
from ..catalogue import WRONG_TYPE
from ..findings import ERROR, Finding
from ..hardware.profiles import NODE_SELECTOR, Profile, ProfileRegistry
from ..records import record
from ..vocabulary import (ASCEND_JOB, DEFAULT_PORT, PORT_NAME, POD_IP_ENV, TASKD_PORT, TASKD_PORT_NAME, TTP_PORT,
                          TTP_PORT_ENV, TTP_PORT_NAME)
from ..yamlio.locations import Document
from ..yamlio.locations import child
from . import generated, replicas, resilience, shapes, steps, volcano
from .model import Port, Replica, Resilience, Spec, Volume

#: integer fields of the spec; JSON Schema lets ``16.0`` pass as an integer, emission needs ``16``
_INTEGER_FIELDS = ("npus", "pods", "npusPerPod", "retries", "faultRetryTimes", "terminationGracePeriodSeconds")


@record(frozen=True)
class _Parts:
    """What the steps resolved, before the defaults are filled in."""

    choices: steps.Choices
    layout: Tuple[int, int]
    resilience: Resilience
    volumes: Tuple[Volume, ...]
    env: Tuple[Dict[str, Any], ...]
    ports: Tuple[Port, ...]
    replica_types: Mapping[str, Replica]
    ranktable_volume: Optional[Volume]
    scheduler_holds_npus: bool
    multi_level: Tuple[int, ...]
    plugins: Mapping[str, Tuple[str, ...]]
    names: Tuple[str, str]  # (task, container)


def resolve(doc: Document, registry: ProfileRegistry, config: Optional[ProjectConfig] = None,
            target: Any = None) -> Spec:
    """Check one TrainingJob document and resolve it into a :class:`Spec`, for the MindCluster release of ``target``
    (a :class:`~ascend_compile.releases.Target`; default: the config's).

    Raises :class:`CompileError` with every problem found, each located.
    """
    from ..schemacheck import check

    config = config or ProjectConfig()
    schema_findings = [_env_hint(f, doc.data) for f in check.validate_document(doc) if f.severity == ERROR]
    if schema_findings:
        raise CompileError(schema_findings)
    doc = Document(doc.source, doc.index, as_written(doc.data, doc.node), doc.node)
    problems = steps.Problems(doc)
    fields = steps.Fields(_integers_as_int(doc.data["spec"]), config.defaults)
    profile = steps.profile(registry, fields, problems)
    if profile is None:
        raise CompileError(problems.findings)
    parts = _parts(doc, fields, profile, registry, problems, (target or target_of(config)).release)
    if problems.findings:
        raise CompileError(problems.findings)
    return _with_defaults(doc, fields, profile, parts)


def _env_hint(finding: Finding, data: Any) -> Finding:
    """A map-form ``env`` entry written as an EnvVar (``NAME: {valueFrom: ...}``) gets the list form as its hint:
    the map form holds strings only, and the schema's own "expected a string, got an object" says no more."""
    path = finding.path
    in_env = len(path) >= 3 and path[-2] == "env" and path[0] == "spec" and isinstance(path[-1], str)
    if finding.rule != WRONG_TYPE or not in_env:
        return finding
    value: Any = data
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    if not isinstance(value, dict):
        return finding
    from dataclasses import replace  # only on this error path: compiling imports no dataclasses machinery

    fields = ", ".join(f"{key}: {{...}}" for key in value) or "valueFrom: {...}"
    return replace(finding, hint=(
        f"the map form of env holds string values only: write env as a list of EnvVars instead, "
        f"- {{name: {path[-1]}, {fields}}}, and each plain entry as - {{name: NAME, value: \"...\"}}"))


def _parts(doc: Document, fields: steps.Fields, profile: Profile, registry: ProfileRegistry,
           problems: steps.Problems, release: str) -> _Parts:
    spec = fields.spec
    choices = steps.support(profile, fields, doc.data["metadata"], registry, problems)
    layout = steps.npu_layout(profile, spec, problems)
    framework, target = spec["framework"], choices.target
    resolved = resilience.resilience(fields, target, framework, choices.namespace, problems, release)
    holds = shapes.scheduler_holds_npus(spec, framework, target, layout[0], problems)
    generated_env = ((POD_IP_ENV,) if resolved.taskd else ()) + ((TTP_PORT_ENV,) if resolved.mindio_ttp else ())
    generated_ports = _generated_ports(target, resolved)
    volumes = steps.volumes(spec, problems)
    shared_ports = replicas.ports(spec.get("ports"), ("spec", "ports"), problems, generated_ports)
    replicas.restart_policy(spec.get("restartPolicy"), ("spec", "restartPolicy"), target, problems)
    rtypes = replicas.replica_layout(framework, target, layout[0], layout[1], holds) if layout[0] else []
    per_replica = replicas.replica_types(spec, rtypes, target, (volumes, shared_ports),
                                         {"env": generated_env, "ports": generated_ports}, problems)
    generated.check(spec, profile, problems)
    return _Parts(
        choices=choices, layout=layout, resilience=resolved, volumes=volumes,
        env=steps.env_list(spec.get("env"), ("spec", "env"), problems, generated_env), ports=shared_ports,
        replica_types=per_replica,
        ranktable_volume=shapes.ranktable_volume(spec, choices.ranktable, doc.data["metadata"]["name"],
                                                 choices.namespace, problems),
        scheduler_holds_npus=holds, multi_level=shapes.multi_level(spec, profile, layout, problems),
        plugins=volcano.plugins(fields, target, choices.ranktable, problems),
        names=volcano.names(fields, target, problems))


def _generated_ports(target: str, resolved: Resilience) -> Dict[str, int]:
    """The container ports the compiler declares itself (names and numbers a spec may not reuse)."""
    out: Dict[str, int] = {PORT_NAME: DEFAULT_PORT} if target == ASCEND_JOB else {}
    if resolved.taskd:
        out[TASKD_PORT_NAME] = TASKD_PORT
    if resolved.mindio_ttp:
        out[TTP_PORT_NAME] = TTP_PORT
    return out


def as_written(data: Any, node: Any = None) -> Any:
    """``data`` with every unquoted date or time back to the text it was written as.

    YAML reads ``2024-01-01`` as a date; the schema lets it stand for a string, as Kubernetes does,
    so a spec field (``profile``, ``image``, an env value) holds the text as written, not the date
    rewritten (``2024-01-01T10:00:00Z`` stays exactly that).  Without a node (data from Python),
    the ISO form.
    """
    if isinstance(data, (_dt.date, _dt.datetime)):
        text = getattr(node, "value", None)
        return text if isinstance(text, str) else data.isoformat()
    if isinstance(data, dict):
        return {key: as_written(value, child(node, key)[0] if node is not None else None)
                for key, value in data.items()}
    if isinstance(data, list):
        return [as_written(value, child(node, i)[0] if node is not None else None) for i, value in enumerate(data)]
    return data


def _integers_as_int(spec: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(spec)
    for key in _INTEGER_FIELDS:
        if isinstance(out.get(key), float):
            out[key] = int(out[key])
    for key in ("superPod", "processRecovery"):
        if isinstance(out.get(key), dict):
            out[key] = {k: int(v) if isinstance(v, float) else v for k, v in out[key].items()}
    if isinstance(out.get("multiLevel"), list):
        out["multiLevel"] = [int(v) if isinstance(v, float) else v for v in out["multiLevel"]]
    out["ports"] = _ports_as_int(out.get("ports"))
    if isinstance(out.get("replicaTypes"), dict):
        out["replicaTypes"] = {k: dict(v or {}, ports=_ports_as_int((v or {}).get("ports")))
                               for k, v in out["replicaTypes"].items()}
    return out


def _ports_as_int(ports: Any) -> Any:
    if not isinstance(ports, list):
        return ports
    return [dict(p, containerPort=int(p["containerPort"])) if isinstance(p.get("containerPort"), float) else p
            for p in ports]


def _with_registry(image: str, registry: Optional[str]) -> str:
    """Prefix ``registry`` unless the image already names a registry host."""
    if not registry:
        return image
    first = image.split("/", 1)[0]
    if "/" in image and ("." in first or ":" in first or first == "localhost"):
        return image
    return registry.rstrip("/") + "/" + image


def _with_defaults(doc: Document, fields: steps.Fields, profile: Profile, parts: _Parts) -> Spec:
    """The checked spec with every default resolved: built-in < profile < project config < spec."""
    spec, pick, choices = fields.spec, fields.pick, parts.choices
    resources = spec.get("resources") or {}
    sp = spec.get("superPod") or {}
    return Spec(
        name=doc.data["metadata"]["name"],
        namespace=choices.namespace,
        framework=spec["framework"],
        target=choices.target,
        profile=profile,
        pods=parts.layout[0],
        npus_per_pod=parts.layout[1],
        image=_with_registry(spec["image"], fields.defaults.get("imageRegistry")),
        image_pull_policy=pick("imagePullPolicy", "IfNotPresent"),
        command=tuple(spec.get("command") or ()),
        args=tuple(spec.get("args") or ()),
        working_dir=spec.get("workingDir"),
        env=parts.env,
        cpu=resources.get("cpu"),
        memory=resources.get("memory"),
        shm_size=resources.get("shm"),
        volumes=parts.volumes,
        ports=parts.ports,
        restart_policy=spec.get("restartPolicy"),
        queue=pick("queue", "default"),
        # the schedule-policy dialect names the hardware by annotation; host-arch only when asked for
        host_arch=pick("hostArch", profile.host_arch if choices.scheduling == NODE_SELECTOR else None),
        scheduling=choices.scheduling,
        ranktable=choices.ranktable,
        ranktable_volume=parts.ranktable_volume,
        scheduler_holds_npus=parts.scheduler_holds_npus,
        tor_affinity=spec.get("torAffinity"),
        sp_block=sp.get("spBlock"),
        ra_block=sp.get("raBlock"),
        multi_level=parts.multi_level,
        retries=pick("retries"),
        resilience=parts.resilience,
        host_network=bool(pick("hostNetwork", False)),
        plugins=parts.plugins,
        task_name=parts.names[0],
        container_name=parts.names[1],
        create_namespace=bool(pick("createNamespace", False)),
        labels=dict(spec.get("labels") or {}),
        annotations=dict(spec.get("annotations") or {}),
        pod_labels=dict(spec.get("podLabels") or {}),
        pod_annotations=dict(spec.get("podAnnotations") or {}),
        replica_types=parts.replica_types,
        pod_template_patch=spec.get("podTemplatePatch"),
        job_patch=spec.get("jobPatch"),
        source=doc.source,
    )
