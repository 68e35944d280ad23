"""The job-state model's reader on the kubectl path: ``kubectl get ... -o json`` and ``kubectl logs``.

Every run goes through :class:`~ascend_compile.kube.kubectl.Kubectl` (no shell, values checked, a
time limit on each run); a resource type the cluster does not have reads as nothing.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Tuple, Type

from .jobs import BY_RESOURCE
from .kubectl import Kubectl, KubectlError, check_name
from .objects import get_object

_NO_TYPE = "doesn't have a resource type"


class KubectlReader:
    """:class:`~ascend_compile.kube.jobview.Reader` over kubectl."""

    errors: Tuple[Type[BaseException], ...] = (KubectlError,)

    def __init__(self, kubectl: Kubectl):
        self.kubectl = kubectl

    def get(self, resource: str, name: str, namespace: Optional[str]) -> Optional[Dict[str, Any]]:
        return get_object(self.kubectl, resource, name, namespace, missing_type_ok=True)

    def list(self, resource: str, namespace: Optional[str], labels: str = "",
             fields: str = "") -> List[Dict[str, Any]]:
        args = [resource, "-o", "json"]
        if namespace is None:
            args.append("--all-namespaces")
        if labels:
            args.append(f"--selector={labels}")
        if fields:
            args.append(f"--field-selector={fields}")
        if resource in BY_RESOURCE:
            args.append("--show-managed-fields")  # who applied the job (``list`` shows ours)
        try:
            proc = self.kubectl.in_namespace(namespace).run("get", *args, what=f"list {resource}")
        except KubectlError as exc:
            if _NO_TYPE in (exc.stderr or ""):
                return []
            raise
        try:
            data = json.loads(proc.stdout or "{}")
        except ValueError:
            raise KubectlError(f"list {resource}: kubectl printed something that is not JSON") from None
        items = data.get("items") if isinstance(data, dict) else None
        return [item for item in items or [] if isinstance(item, dict)]

    def logs(self, pod: str, namespace: str, container: str, tail: int, previous: bool = False) -> str:
        check_name(pod, "pod name")
        args = [f"--container={check_name(container, 'container name')}"] if container else []
        if tail > 0:
            args.append(f"--tail={tail}")
        if previous:
            args.append("--previous")
        return self.kubectl.in_namespace(namespace).run("logs", *args, "--", pod, what=f"logs {namespace}/{pod}").stdout
