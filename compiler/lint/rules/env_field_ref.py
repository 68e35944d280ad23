"""An env reads a pod field through ``fieldRef`` that Kubernetes does not expose to env.

**What.** ``env[].valueFrom.fieldRef.fieldPath`` of a container (or init
container) is not one of the paths Kubernetes gives env: ``metadata.name``,
``metadata.namespace``, ``metadata.uid``, ``metadata.labels['<key>']``,
``metadata.annotations['<key>']``, ``spec.nodeName``,
``spec.serviceAccountName``, ``status.hostIP``, ``status.hostIPs``,
``status.podIP``, ``status.podIPs``; or its ``apiVersion`` is not ``v1``.
Typical slips: ``metadata.annotation['huawei.com/Ascend910']`` (no s),
double quotes in the subscript (``metadata.annotations["..."]``), a
whole map (``metadata.annotations``), ``status.hostIp``.

**Why.** Kubernetes' pod validation refuses the pod ("Unsupported value",
"error converting fieldPath"). A Volcano Job is rejected by its admission
webhook, which validates each task's pod template the same way; an
AscendJob is accepted, but the API server refuses every pod the operator
creates from that template, so the job never runs. The simulated cluster
shows the AscendJob case. Only the path is checked, not the key inside the
brackets.

**How to fix.** Write the path as Kubernetes spells it, with single quotes
around an annotation or label key.

Failing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotation['huawei.com/Ascend910']"}}

Passing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotations['huawei.com/Ascend910']"}}
"""
from ..rule import Problem
from ._util import pod_containers

#: the plain paths Kubernetes exposes to env (validEnvDownwardAPIFieldPathExpressions; spec.host is the
#: old name of spec.nodeName, still converted)
ENV_FIELD_PATHS = frozenset({"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.host",
                             "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP",
                             "status.podIPs"})
#: the maps env may read one key of, as ``<map>['<key>']``
ENV_FIELD_MAPS = ("metadata.labels", "metadata.annotations")


def valid_env_field_path(path: str) -> bool:
    """Whether Kubernetes accepts ``path`` as an env fieldRef (the key inside brackets is not checked)."""
    if path.endswith("']") and "['" in path:
        return path.split("['", 1)[0] in ENV_FIELD_MAPS
    return path in ENV_FIELD_PATHS


def check(obj, run):
    for pod_set in obj.pod_sets():
        for where, container in pod_containers(pod_set):
            env = container.get("env")
            if not isinstance(env, list):
                continue
            for index, item in enumerate(env):
                source = item.get("valueFrom") if isinstance(item, dict) else None
                ref = source.get("fieldRef") if isinstance(source, dict) else None
                if not isinstance(ref, dict):
                    continue  # most env: a plain value
                path, version = ref.get("fieldPath"), ref.get("apiVersion", "v1")
                if isinstance(path, str) and path not in ENV_FIELD_PATHS and not valid_env_field_path(path):
                    yield Problem(where + ("env", index, "valueFrom", "fieldRef", "fieldPath"),
                                  f"env {item.get('name')!r} of {pod_set.role} reads {path!r}, which "
                                  "Kubernetes does not expose to env: it refuses the pod")
                elif version != "v1" and isinstance(version, str):
                    yield Problem(where + ("env", index, "valueFrom", "fieldRef", "apiVersion"),
                                  f"env {item.get('name')!r} of {pod_set.role} reads a fieldRef of "
                                  f"apiVersion {version!r}; Kubernetes takes only v1 and refuses the pod")
