"""The shortest spec for a job: the base (profile, framework, NPUs, image) that compiles closest to the
manifest, then each field the manifest suggests, kept when it makes the remaining patch smaller."""
from __future__ import annotations

import copy
import json
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..errors import AscendCompileError, InternalError
from ..manifest.job import Manifest
from ..yamlio.locations import Document
from . import fields, harmless, replicas
from .mergediff import Uncarried, canonical, merge_diff

API_VERSION = "ascend-compile.io/v1alpha1"
KIND = "TrainingJob"
#: added to a candidate's size for each object compile writes differently from the manifest (no patch reaches it)
_OBJECT_MISMATCH = 1_000_000
#: what one accepted harmless difference adds to a candidate's size (about a patch line)
_ACCEPTED_WEIGHT = 40


class Attempt:
    """A spec, what it compiles to, and the job patch that would remain."""

    def __init__(self, spec: Dict[str, Any], objects: List[Dict[str, Any]], patch: Any, size: int,
                 accepted: Dict[str, Any], notes: List[str]):
        self.spec, self.objects, self.patch, self.size = spec, objects, patch, size
        #: the manifest with the harmless differences taken over (the manifest itself with --exact), and those
        self.accepted, self.notes = accepted, notes


def comparable(obj: Any) -> Any:
    """An object as import compares it: a ConfigMap's JSON data by value (pretty-printed and compact are the
    same ranktable to the operator and the pods)."""
    if not isinstance(obj, dict) or not isinstance(obj.get("data"), dict):
        return obj
    data = {}
    for key, value in obj["data"].items():
        try:
            parsed = json.loads(value) if isinstance(value, str) else value
        except ValueError:
            parsed = value
        data[key] = parsed if isinstance(parsed, (dict, list)) else value
    return {**obj, "data": data}


def skeleton(job: Manifest, namespace: Optional[str]) -> Dict[str, Any]:
    meta: Dict[str, Any] = {"name": job.name}
    if namespace:
        meta["namespace"] = namespace
    return {"apiVersion": API_VERSION, "kind": KIND, "metadata": meta, "spec": {}}


def attempt(spec: Dict[str, Any], original: Dict[str, Any], others: Dict[Tuple[str, str], Any],
            compile_one: Any, exact: bool, why: Optional[List[Uncarried]] = None) -> Optional[Attempt]:
    """Compile ``spec``; None if it does not compile, or the difference cannot be carried (then said in ``why``).

    Unless ``exact``, the difference is taken after the harmless ones are accepted (:mod:`.harmless`)."""
    try:
        objects = compile_one(Document("<import>", 0, spec, None))
    except (AscendCompileError, InternalError):  # a patch that reproduces an invalid manifest fails the self-check
        return None
    job = objects[-1]
    if job.get("kind") != original.get("kind"):
        return None
    accepted, notes = (original, []) if exact else harmless.accept(job, original)
    try:
        patch = merge_diff(job, accepted) if canonical(job) != canonical(accepted) else None
    except Uncarried as exc:
        if why is not None:
            why.append(exc)
        return None
    # a difference accepted weighs as a short patch line: a field that says what the manifest says is preferred
    size = (len(json.dumps(patch, sort_keys=True)) if patch else 0) + _ACCEPTED_WEIGHT * len(notes)
    written = set()
    for obj in objects[:-1]:
        meta = obj.get("metadata") or {}
        written.add((str(obj.get("kind")), str(meta.get("name"))))
        mine = others.get((str(obj.get("kind")), str(meta.get("name"))))
        if mine is not None and not exact:
            mine = harmless.accept_object(obj, mine)
        if mine is not None and canonical(comparable(mine)) != canonical(comparable(obj)):
            size += _OBJECT_MISMATCH
    size += _OBJECT_MISMATCH * len(set(others) - written)  # an object of the input that this spec does not write
    return Attempt(spec, objects, patch, size, accepted, notes)


def _with(spec: Dict[str, Any], changes: Dict[str, Any]) -> Dict[str, Any]:
    """``spec`` with the fields of ``changes`` set (a field changed to None is left out)."""
    out = copy.deepcopy(spec)
    out["spec"].update(copy.deepcopy(changes))
    for key in [k for k, v in changes.items() if v is None]:
        del out["spec"][key]
    return out


def base(job: Manifest, namespace: Optional[str], profiles: Sequence[str], original: Dict[str, Any],
         others: Dict[Tuple[str, str], Any], compile_one: Any, exact: bool, why: List[Uncarried]) -> Tuple[Optional[Attempt], List[str]]:
    """The best base spec, and the profiles that tie for it (more than one: ambiguous); what no spec can carry
    is collected in ``why``."""
    container = fields.main_container(job)
    image = container.get("image")
    best: Optional[Attempt] = None
    tied: List[str] = []
    for profile in profiles:
        mine: Optional[Attempt] = None
        for framework in fields.frameworks(job):
            for form in fields.npu_forms(job):
                changes = {"framework": framework, "target": fields.target_of(job), "profile": profile, **form}
                if isinstance(image, str):
                    changes["image"] = image
                found = attempt(_with(skeleton(job, namespace), changes), original, others, compile_one, exact, why)
                if found is not None and (mine is None or found.size < mine.size):
                    mine = found
        if mine is None:
            continue
        if best is None or mine.size < best.size:
            best, tied = mine, [profile]
        elif mine.size == best.size:
            tied.append(profile)
    return best, tied


def first_reason(job: Manifest, profiles: Sequence[str], compile_one: Any) -> str:
    """Why the first base spec does not compile (for a refusal's message), or ''."""
    forms = fields.npu_forms(job)
    if not profiles or not forms:
        return "it requests no NPUs" if not forms else ""
    changes = {"framework": fields.frameworks(job)[0], "target": fields.target_of(job), "profile": profiles[0],
               **forms[0], "image": "image"}
    try:
        compile_one(Document("<import>", 0, _with(skeleton(job, job.namespace), changes), None))
    except AscendCompileError as exc:
        return exc.findings[0].message if exc.findings else ""
    except InternalError:
        return ""
    return ""


def refine(best: Attempt, job: Manifest, original: Dict[str, Any], others: Dict[Tuple[str, str], Any],
           compile_one: Any, exact: bool) -> Attempt:
    """Add each field the manifest suggests while it shrinks what the patch must carry (a second round for
    fields that only help together, e.g. resetConfig once subHealthyStrategy is set). The fields that write
    the generated labels and annotations the job has come first, and stay whenever they compile: the patch
    must not write those keys."""
    for field, value in fields.owning_fields(job):
        changes = value if field == fields.TOGETHER else {field: value}
        found = attempt(_with(best.spec, changes), original, others, compile_one, exact)
        if found is not None and (len(generated_keys(found.patch)), found.size) < \
                (len(generated_keys(best.patch)), best.size):
            best = found
    for _round in range(2):
        start = best.size
        for field, value in _suggestions(best, job):
            if best.size == 0:
                return best
            changes = value if field == fields.TOGETHER else {field: value}
            if all(best.spec["spec"].get(k) == v for k, v in changes.items()):
                continue
            found = attempt(_with(best.spec, changes), original, others, compile_one, exact)
            if found is not None and found.size < best.size:
                best = found
        if best.size == start:
            break
    return best


def generated_keys(patch: Any) -> List[Tuple[str, ...]]:
    """The paths at which ``patch`` writes (or deletes) a label or annotation the compiler generates from a field."""
    from ..jobspec.generated import JOB_ANNOTATIONS, JOB_LABELS, POD_LABELS

    patch = patch if isinstance(patch, dict) else {}
    meta = patch.get("metadata") if isinstance(patch.get("metadata"), dict) else {}
    out: List[Tuple[str, ...]] = [
        ("metadata", part, key) for part, owned in (("labels", JOB_LABELS), ("annotations", JOB_ANNOTATIONS))
           for key in (meta.get(part) or {}) if isinstance(meta.get(part), dict) and key in owned]
    spec = patch.get("spec") if isinstance(patch.get("spec"), dict) else {}
    entries: List[Tuple[Tuple[str, ...], Any]] = []
    if isinstance(spec.get("replicaSpecs"), dict):
        entries = [(("spec", "replicaSpecs", str(k)), v) for k, v in spec["replicaSpecs"].items()]
    elif isinstance(spec.get("tasks"), list):
        entries = [(("spec", "tasks", str(t.get("name"))), t) for t in spec["tasks"] if isinstance(t, dict)]
    for where, entry in entries:
        template = entry.get("template") if isinstance(entry, dict) else None
        labels = ((template or {}).get("metadata") or {}).get("labels") if isinstance(template, dict) else None
        if isinstance(labels, dict):
            out += [where + ("template", "metadata", "labels", str(key)) for key in labels if key in POD_LABELS]
    return out


def _suggestions(best: Attempt, job: Manifest) -> List[Tuple[str, Any]]:
    generated = Manifest(best.objects[-1])
    gen_pod = fields.main_pod_set(generated)
    gen_container = fields.main_container(generated)
    gen_volumes = {v.get("name") for _, v in gen_pod.volumes()} if gen_pod else set()
    out = fields.container_fields(fields.main_container(job))
    env = fields.env_map(fields.main_container(job), gen_container.get("env"))
    if env:
        out.append(("env", env))
    volumes = fields.volumes(job, gen_volumes)
    if volumes:
        out.append(("volumes", volumes))
    out += fields.resources(job) + fields.metadata_fields(job, generated)
    out += replicas.per_replica(job, generated, best.spec["spec"])
    return out + fields.job_fields(job) + fields.owning_fields(job) + fields.pod_fields(job)
