"""From a TrainingJob document to a :class:`~ascend_compile.jobspec.model.Spec`: check, then fill in defaults.

The schema first, then the rules a schema cannot say (:mod:`ascend_compile.jobspec.steps`: the profile,
what it supports, the NPU layout, volumes, env), then defaults: built-in < profile < project config
< spec.  Every problem is a Finding at the line and column of the offending field.
"""
from __future__ import annotations

from typing import Any, Dict, Optional, Tuple

from ..config import ProjectConfig
from ..errors import CompileError
from ..findings import ERROR
from ..profiles import NODE_SELECTOR, Profile, ProfileRegistry
from ..yamlio import Document
from . import steps
from .model import Spec, Volume

#: integer fields of the spec; JSON Schema lets ``16.0`` pass as an integer, emission needs ``16``
_INTEGER_FIELDS = ("npus", "pods", "npusPerPod", "retries", "faultRetryTimes")


def resolve(doc: Document, registry: ProfileRegistry, config: Optional[ProjectConfig] = None) -> Spec:
    """Check one TrainingJob document and resolve it into a :class:`Spec`.

    Raises :class:`CompileError` with every problem found, each located.
    """
    from .. import schemas

    config = config or ProjectConfig()
    schema_findings = [f for f in schemas.validate_document(doc) if f.severity == ERROR]
    if schema_findings:
        raise CompileError(schema_findings)
    problems = steps.Problems(doc)
    fields = steps.Fields(_integers_as_int(doc.data["spec"]), config.defaults)
    profile = steps.profile(registry, fields, problems)
    if profile is None:
        raise CompileError(problems.findings)
    choices = steps.support(profile, fields, doc.data["metadata"], registry, problems)
    layout = steps.npu_layout(profile, fields.spec, problems)
    volumes = steps.volumes(fields.spec, problems)
    env = steps.env(fields.spec, problems)
    if problems.findings:
        raise CompileError(problems.findings)
    return _with_defaults(doc, fields, profile, choices, layout, volumes, env)


def _integers_as_int(spec: Dict[str, Any]) -> Dict[str, Any]:
    out = dict(spec)
    for key in _INTEGER_FIELDS:
        if isinstance(out.get(key), float):
            out[key] = int(out[key])
    if isinstance(out.get("superPod"), dict):
        out["superPod"] = {k: int(v) if isinstance(v, float) else v for k, v in out["superPod"].items()}
    return out


def _with_registry(image: str, registry: Optional[str]) -> str:
    """Prefix ``registry`` unless the image already names a registry host."""
    if not registry:
        return image
    first = image.split("/", 1)[0]
    if "/" in image and ("." in first or ":" in first or first == "localhost"):
        return image
    return registry.rstrip("/") + "/" + image


def _with_defaults(doc: Document, fields: steps.Fields, profile: Profile, choices: steps.Choices,
                   layout: Tuple[int, int], volumes: Tuple[Volume, ...], env: Tuple[Dict[str, Any], ...]) -> Spec:
    """The checked spec with every default resolved: built-in < profile < project config < spec."""
    spec, pick = fields.spec, fields.pick
    resources = spec.get("resources") or {}
    sp = spec.get("superPod") or {}
    return Spec(
        name=doc.data["metadata"]["name"],
        namespace=choices.namespace,
        framework=spec["framework"],
        target=choices.target,
        profile=profile,
        pods=layout[0],
        npus_per_pod=layout[1],
        image=_with_registry(spec["image"], fields.defaults.get("imageRegistry")),
        image_pull_policy=pick("imagePullPolicy", "IfNotPresent"),
        command=tuple(spec.get("command") or ()),
        args=tuple(spec.get("args") or ()),
        working_dir=spec.get("workingDir"),
        env=env,
        cpu=resources.get("cpu"),
        memory=resources.get("memory"),
        shm_size=resources.get("shm"),
        volumes=volumes,
        queue=pick("queue", "default"),
        # the schedule-policy dialect names the hardware by annotation; host-arch only when asked for
        host_arch=pick("hostArch", profile.host_arch if choices.scheduling == NODE_SELECTOR else None),
        scheduling=choices.scheduling,
        ranktable=choices.ranktable,
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
