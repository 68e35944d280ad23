"""What a cluster command does to which objects: its targets, their namespaces, the order of deletion.

``apply``, ``diff``, ``status`` and ``delete`` (``cli/kubectl_cmds.py``) read their arguments and
print; the decisions are made here, without click, so they can be tested and reused: which
namespaces a run creates itself, whether a spec's namespace agrees with ``--namespace``, which job a
bare NAME is, and what ``delete`` removes in which order.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..vocabulary import CONFIG_MAP, NAMESPACE
from .jobs import BY_RESOURCE, JOB_TYPES, find_job_type, job_type_of
from .kubectl import EXIT_REJECTED, Kubectl, KubectlError, KubectlUsageError, check_name
from .objects import ObjectRef, get_object, object_ref, ranktable_ref


@dataclass(frozen=True)
class Target:
    """One job a command acts on: from a compiled spec or a manifest file, or named on the command line."""

    resource: Optional[str]  # None: look the name up as either job kind
    name: str
    namespace: Optional[str]
    #: what the spec compiles to or the manifest file holds (``delete`` removes these); empty for a NAME
    objects: Tuple[Dict[str, Any], ...] = ()


def is_spec_path(target: str) -> bool:
    """A SPEC argument (file, directory, '-') rather than a job NAME: decided by its spelling alone.

    A SPEC is ``-``, or has a path separator or a ``.yaml``/``.yml`` ending; any other word is a job
    NAME, even when a file or folder of that name exists here (``delete training`` must never delete
    what the folder ``training/`` compiles to).  Write ``./training`` for the folder.
    """
    separators = (os.sep, os.altsep) if os.altsep else (os.sep,)
    return target == "-" or target.endswith((".yaml", ".yml")) or any(sep in target for sep in ("/", *separators))


def shadowed_names(names: Sequence[str]) -> List[str]:
    """The NAME arguments that also name a local file or folder (worth a note: they are taken as names)."""
    return [name for name in names if not is_spec_path(name) and os.path.exists(name)]


def planned_namespaces(jobs: Sequence[Any]) -> Set[str]:
    """Namespaces this run creates itself (their objects cannot be checked before they exist)."""
    return {obj["metadata"]["name"] for job in jobs for obj in job.objects if obj.get("kind") == NAMESPACE}


def check_namespaces(jobs: Sequence[Any], namespace: Optional[str]) -> None:
    """A spec's namespace and -n must agree (kubectl would refuse it later, less clearly)."""
    if not namespace:
        return
    for job in jobs:
        for obj in job.objects:
            theirs = (obj.get("metadata") or {}).get("namespace")
            if obj.get("kind") != NAMESPACE and theirs and theirs != namespace:
                raise KubectlUsageError(
                    f"{job.source}: job {job.spec.name!r} is in namespace {theirs!r} but --namespace is "
                    f"{namespace!r}; drop --namespace or change metadata.namespace in the spec")


def job_object(job: Any) -> Dict[str, Any]:
    """The AscendJob or Volcano Job among a compiled job's objects."""
    return next(obj for obj in job.objects if object_ref(obj).resource in BY_RESOURCE)


def resource_for_kind(kind: str) -> Optional[str]:
    """``--kind``: None for "auto" (look for both), else the job type's resource."""
    if kind == "auto":
        return None
    found = find_job_type(kind)
    if found is None:
        raise KubectlUsageError(f"unknown job kind {kind!r}")
    return found.resource


def _described(obj: Any) -> str:
    if not isinstance(obj, dict):
        return f"a {type(obj).__name__}"
    meta = obj.get("metadata")
    meta = meta if isinstance(meta, dict) else {}
    name = meta.get("name")
    return f"{obj.get('kind') or 'an object without kind'}" + (f" {name}" if isinstance(name, str) and name else "")


def manifest_target(source: str, objects: Sequence[Any], namespace: Optional[str]) -> Target:
    """The job a compiled manifest file names: its one AscendJob or Volcano Job (beside it, its ConfigMaps).

    A file holding no job or several, or an object ``delete`` would not know how to remove, is a usage
    error naming the file and what it holds; so is a job whose namespace disagrees with ``--namespace``.
    """
    jobs = [obj for obj in objects if isinstance(obj, dict) and job_type_of(obj) is not None]
    if len(jobs) != 1:
        found = ", ".join(_described(obj) for obj in objects) or "no objects"
        raise KubectlUsageError(
            f"{source}: holds {len(jobs)} AscendJob or Volcano Job manifests ({found}); give a file with one job "
            "(and its ConfigMaps), a job spec, or the job's NAME")
    try:
        refs = [object_ref(obj) for obj in objects]
    except KubectlUsageError as exc:
        raise KubectlUsageError(f"{source}: {exc.message}; give a file with one job and its ConfigMaps, "
                                "or the job's NAME") from None
    ref = object_ref(jobs[0])
    for obj_ref in [ref, *refs]:
        if namespace and obj_ref.kind != NAMESPACE and obj_ref.namespace and obj_ref.namespace != namespace:
            raise KubectlUsageError(
                f"{source}: {obj_ref} is in namespace {obj_ref.namespace!r} but --namespace is {namespace!r}; "
                "drop --namespace or change metadata.namespace in the file")
    return Target(ref.resource, ref.name, ref.namespace, tuple(objects))


def targets(names: Sequence[str], jobs: Sequence[Any], kind: str, files: Sequence[Target] = ()) -> List[Target]:
    """The compiled jobs first, then the manifest files' jobs, then every NAME among ``names`` (SPEC paths were
    compiled into ``jobs`` or read into ``files``)."""
    out = []
    for job in jobs:
        ref = object_ref(job_object(job))
        out.append(Target(ref.resource, ref.name, ref.namespace, tuple(job.objects)))
    out += files
    for name in names:
        if not is_spec_path(name):
            out.append(Target(resource_for_kind(kind), check_name(name, "job name"), None))
    return out


def where(kubectl: Kubectl, namespace: Optional[str]) -> str:
    ns = namespace or kubectl.namespace
    return f"namespace {ns!r}" if ns else "the context's default namespace"


def job_namespace(kubectl: Kubectl) -> str:
    """The namespace a job that names none lands in, as kubectl decides: ``-n``, else the context's, else
    ``default``."""
    if kubectl.namespace:
        return kubectl.namespace
    found = kubectl.run("config", "view", "--minify", "-o", "jsonpath={..namespace}", what="kubectl config view",
                        relay_warnings=False).stdout.strip()
    return found or "default"


def find_jobs(kubectl: Kubectl, resource: Optional[str], name: str, namespace: Optional[str]) -> List[Dict[str, Any]]:
    """The job(s) called ``name``: of the given resource, or AscendJob and Volcano Job both when None."""
    resources = (resource,) if resource else tuple(t.resource for t in JOB_TYPES)
    found = []
    for res in resources:
        obj = get_object(kubectl, res, name, namespace, missing_type_ok=resource is None)
        if obj is not None:
            found.append(obj)
    return found


def not_found(kubectl: Kubectl, resource: Optional[str], name: str, namespace: Optional[str]) -> str:
    what = BY_RESOURCE[resource].label if resource else "AscendJob or Volcano Job"
    return f"no {what} named {name!r} in {where(kubectl, namespace)}"


def deletion_plan(kubectl: Kubectl, chosen: Sequence[Target], ignore_not_found: bool) -> List[Tuple[ObjectRef, bool]]:
    """(object, ignore when missing) in deletion order: each job before the ranktable ConfigMap its pods mount.

    A Namespace a spec creates is never deleted.  A NAME without ``--kind`` is looked up as both job
    kinds; finding both is a usage error, finding neither an error unless ``ignore_not_found``.
    """
    plan: List[Tuple[ObjectRef, bool]] = []
    for target in chosen:
        if target.objects:
            refs = [object_ref(obj) for obj in target.objects if obj.get("kind") != NAMESPACE]
            plan += [(ref, ignore_not_found) for ref in sorted(refs, key=lambda r: r.kind == CONFIG_MAP)]
            continue
        resource = target.resource
        if resource is None:
            found = find_jobs(kubectl, None, target.name, target.namespace)
            if len(found) > 1:
                raise KubectlUsageError(f"both an AscendJob and a Volcano Job are named {target.name!r} in "
                                        f"{where(kubectl, target.namespace)}: say which with --kind acjob|vcjob")
            if not found:
                if not ignore_not_found:
                    raise KubectlError(not_found(kubectl, None, target.name, target.namespace), EXIT_REJECTED)
                continue
            resource = object_ref(found[0]).resource
        job_ref = ObjectRef(resource, BY_RESOURCE[resource].kind, target.name, target.namespace)
        plan += [(job_ref, ignore_not_found), (ranktable_ref(job_ref), True)]
    return plan
