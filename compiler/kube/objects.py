"""The objects ascend-compile sends to a cluster, and the kubectl verbs that act on one of them.

Every call goes through :class:`~ascend_compile.kube.kubectl.Kubectl` (no shell, manifests on standard
input, user values checked); objects are named by fully qualified resource, so no other CRD's short
name can shadow them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any, Callable, Dict, Mapping, Optional, Tuple

from ..vocabulary import CONFIG_MAP, CORE_API_VERSION, NAMESPACE, ranktable_configmap_name
from .jobs import JOB_TYPES
from .kubectl import (FIELD_MANAGER, Kubectl, KubectlError, KubectlUsageError, check_duration, check_name,
                      check_namespace)

CONFIGMAP_RESOURCE = "configmaps"
NAMESPACE_RESOURCE = "namespaces"
#: (apiVersion, kind) -> resource, for everything ascend-compile emits.
RESOURCES: Dict[Tuple[str, str], str] = {
    **{(t.api_version, t.kind): t.resource for t in JOB_TYPES},
    (CORE_API_VERSION, CONFIG_MAP): CONFIGMAP_RESOURCE,
    (CORE_API_VERSION, NAMESPACE): NAMESPACE_RESOURCE,
}
#: where a verb streams kubectl's standard output (our stdout, sanitized)
Sink = Callable[[str], None]
_NAMESPACE_NOT_FOUND = re.compile(r'namespaces? "([^"]+)" not found')


@dataclass(frozen=True)
class ObjectRef:
    resource: str
    kind: str
    name: str
    namespace: Optional[str] = None

    def __str__(self) -> str:
        where = f"{self.namespace}/" if self.namespace else ""
        return f"{self.kind} {where}{self.name}"


def object_ref(obj: Mapping[str, Any]) -> ObjectRef:
    key = (str(obj.get("apiVersion", "")), str(obj.get("kind", "")))
    resource = RESOURCES.get(key)
    if resource is None:
        raise KubectlUsageError(f"ascend-compile does not manage {key[1]} ({key[0]}) objects")
    meta = obj.get("metadata") or {}
    return ObjectRef(resource, key[1], check_name(str(meta.get("name", "")), f"{key[1]} name"),
                     check_namespace(meta["namespace"]) if meta.get("namespace") else None)


def ranktable_ref(job: ObjectRef) -> ObjectRef:
    return ObjectRef(CONFIGMAP_RESOURCE, CONFIG_MAP, ranktable_configmap_name(job.name), job.namespace)


def is_job(ref: ObjectRef) -> bool:
    return any(ref.resource == t.resource for t in JOB_TYPES)


def _dump(obj: Mapping[str, Any]) -> str:
    from ..yamlio.dump import dump_documents

    return dump_documents([obj])


def apply_object(kubectl: Kubectl, obj: Mapping[str, Any], dry_run: str = "none",
                 force_conflicts: bool = False, sink: Optional[Sink] = None) -> str:
    """Server-side apply one object (field manager ``ascend-compile``); returns kubectl's output line
    (or streams it to ``sink``)."""
    ref = object_ref(obj)
    args = [f"--field-manager={FIELD_MANAGER}"]
    if dry_run == "client":
        # kubectl refuses --server-side with --dry-run=client: a client dry run is a plain apply that changes nothing
        # (it still reads the cluster: discovery, the OpenAPI document, the live object)
        args += ["--dry-run=client"]
    else:
        args.insert(0, "--server-side")
        if dry_run == "server":
            args.append("--dry-run=server")
        if force_conflicts:
            args.append("--force-conflicts")
    args += ["-f", "-"]
    proc = kubectl.in_namespace(ref.namespace).run("apply", *args, input=_dump(obj), what=f"apply {ref}", sink=sink)
    return proc.stdout


def diff_object(kubectl: Kubectl, obj: Mapping[str, Any], sink: Optional[Sink] = None) -> Tuple[bool, str]:
    """``kubectl diff --server-side``: (changed, unified diff; empty when streamed to ``sink``)."""
    ref = object_ref(obj)
    proc = kubectl.in_namespace(ref.namespace).run(
        "diff", "--server-side", f"--field-manager={FIELD_MANAGER}", "-f", "-",
        input=_dump(obj), ok=(0, 1), what=f"diff {ref}", sink=sink)
    return proc.returncode == 1, proc.stdout


def namespace_missing(error: KubectlError) -> Optional[str]:
    """The namespace named in a 'namespaces "x" not found' error, if that is what it is."""
    match = _NAMESPACE_NOT_FOUND.search(error.stderr or error.message)
    return match.group(1) if match else None


def get_object(kubectl: Kubectl, resource: str, name: str, namespace: Optional[str] = None,
               missing_type_ok: bool = False) -> Optional[Dict[str, Any]]:
    """The object as JSON, or None when it does not exist (or its type is not installed, if allowed)."""
    import json

    check_name(name)
    try:
        proc = kubectl.in_namespace(namespace).run(
            "get", resource, "--ignore-not-found", "-o", "json", "--", name, what=f"get {resource} {name}")
    except KubectlError as exc:
        if missing_type_ok and "doesn't have a resource type" in (exc.stderr or ""):
            return None
        raise
    text = proc.stdout.strip()
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        raise KubectlError(f"get {resource} {name}: kubectl printed something that is not JSON") from None
    return data if isinstance(data, dict) else None


def namespace_exists(kubectl: Kubectl, name: str) -> bool:
    return get_object(replace(kubectl, namespace=None), NAMESPACE_RESOURCE, name) is not None


def delete_object(kubectl: Kubectl, ref: ObjectRef, wait: bool = False, timeout: Optional[str] = None,
                  ignore_not_found: bool = False, dry_run: str = "none", sink: Optional[Sink] = None) -> str:
    """``kubectl delete``; returns kubectl's output ('' when absent and ignored)."""
    args = [ref.resource, f"--wait={'true' if wait else 'false'}"]
    if ignore_not_found:
        args.append("--ignore-not-found")
    if timeout:
        args.append(f"--timeout={check_duration(timeout)}")
    if dry_run != "none":
        args.append(f"--dry-run={dry_run}")
    args += ["--", ref.name]
    return kubectl.in_namespace(ref.namespace).run("delete", *args, what=f"delete {ref}", sink=sink).stdout
