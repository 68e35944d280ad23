"""An env var or a downwardAPI volume file reads a pod field or resource in a way Kubernetes refuses.

**What.** Kubernetes checks every downward API reference of a pod:

- ``env[].valueFrom.fieldRef.fieldPath`` is one of ``metadata.name``, ``metadata.namespace``,
  ``metadata.uid``, ``metadata.labels['<key>']``, ``metadata.annotations['<key>']``,
  ``spec.nodeName``, ``spec.serviceAccountName``, ``status.hostIP``, ``status.hostIPs``,
  ``status.podIP``, ``status.podIPs``; a downwardAPI volume file's is one of ``metadata.name``,
  ``metadata.namespace``, ``metadata.uid``, ``metadata.labels``, ``metadata.annotations`` (the
  whole maps, volume only) or one key of the two maps (no ``spec.*`` or ``status.*`` in a volume);
  the ``apiVersion`` of a fieldRef is ``v1``;
- the key in ``['<key>']`` is a valid label key: an optional DNS subdomain and ``/``, then at
  most 63 letters, digits, ``-``, ``_``, ``.``, starting and ending with a letter or digit;
- a ``resourceFieldRef`` reads ``limits.`` or ``requests.`` of ``cpu``, ``memory``,
  ``ephemeral-storage`` (or ``hugepages-<size>``), with a ``divisor`` of ``1`` or ``1m`` for cpu,
  ``1``, ``1k`` ... ``1E``, ``1Ki`` ... ``1Ei`` for the others (as Kubernetes writes the quantity:
  ``1000m`` is ``1``, ``1024`` is not ``1Ki``); in a volume file it names its ``containerName``;
- an env var has one source: ``value``, or a ``valueFrom`` with exactly one of ``fieldRef``,
  ``resourceFieldRef``, ``configMapKeyRef``, ``secretKeyRef``;
- a downwardAPI volume file (in a ``downwardAPI`` or ``projected`` volume) has a relative
  ``path`` without a ``..`` element (nor starting with ``..``), and exactly one of ``fieldRef``
  and ``resourceFieldRef``.

Typical slips: ``metadata.annotation['huawei.com/Ascend910']`` (no s), double quotes in the
subscript (``metadata.annotations["..."]``), a whole map in env, ``status.podIP`` in a volume,
``limits.huawei.com/Ascend910`` as a resource, a ``value`` left beside a ``valueFrom``.

**Why.** Kubernetes' pod validation refuses the pod ("Unsupported value", "error
converting fieldPath", "may not be specified when `value` is not empty", "must
be a relative path"). A Volcano Job is rejected by its admission webhook, which
validates each task's pod template the same way; an AscendJob is accepted, but
the API server refuses every pod the operator creates from that template, so the
job never runs (both shown on the simulated cluster). Not checked: that a
``containerName`` names a container of the pod (the API server does not check
it).

**How to fix.** Write the path as Kubernetes spells it, with single quotes around an annotation
or label key; read one of the resources above; give each env var one source.

Failing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotation['huawei.com/Ascend910']"}}
    - name: CPU_MILLIS
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1k}}

Passing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotations['huawei.com/Ascend910']"}}
    - name: CPU_MILLIS
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1m}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Tuple

from ...catalogue.citations import Citation, K8S, K8V, Place
from ...manifest.values import as_str
from ..rule import Problem
from ._downward import ENV_FIELD_PATHS, field_path_problem, field_ref, resource_ref, volume_file, volume_files
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import PodSet
    from ...findings import Path

CITATION = Citation("validateObjectFieldSelector", K8V, K8S, "Unsupported value: %q: supported values: %v",
                    also=(Place("validateEnvVarValueFrom", K8V, K8S),
                          Place("validateContainerResourceFieldSelector", K8V, K8S),
                          Place("validateContainerResourceDivisor", K8V, K8S),
                          Place("validateDownwardAPIVolumeFile", K8V, K8S)))

#: the sources an env var's valueFrom may name, one at a time
SOURCES = ("fieldRef", "resourceFieldRef", "configMapKeyRef", "secretKeyRef")
_V1 = (None, "", "v1")  # an empty apiVersion is defaulted to v1
#: env fieldPaths known good: most env reads the same few (a run skips them without a second look)
_GOOD_PATHS = set(ENV_FIELD_PATHS)


def valid_env_field_path(path: str) -> bool:
    """Whether Kubernetes accepts ``path`` as an env fieldRef (its key included)."""
    return path in ENV_FIELD_PATHS or field_path_problem(path, ENV_FIELD_PATHS) is None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for where, container in pod_containers(pod_set):
            env = container.get("env")
            for index, item in enumerate(env if isinstance(env, list) else ()):
                if not isinstance(item, dict) or "valueFrom" not in item:
                    continue  # most env: a plain value
                source = item["valueFrom"]
                if not isinstance(source, dict):
                    continue
                ref = source.get("fieldRef") if len(source) == 1 else None
                if isinstance(ref, dict) and as_str(ref.get("fieldPath")) in _GOOD_PATHS and as_str(ref.get("apiVersion")) in _V1 \
                        and not item.get("value"):
                    continue  # the usual fieldRef
                yield from _env_problems(pod_set, where + ("env", index, "valueFrom"), item, source)
        for index, volume in pod_set.downward_volumes():
            for path, item in volume_files(volume):
                reader = f"downwardAPI file {item.get('path')!r} of volume {volume.get('name')!r} in {pod_set.role}"
                for below, message, hint in volume_file(item):
                    yield Problem(pod_set.spec_path + ("volumes", index) + path + below,
                                  f"{reader} {message}: Kubernetes refuses the pod", hint=hint)


def _env_problems(pod_set: PodSet, where: Path, item: Dict[str, Any], source: Dict[str, Any]) -> Iterator[Problem]:
    found = list(_env_source(item, source))
    for below, message, hint in found:
        yield Problem(where + below, f"env {item.get('name')!r} of {pod_set.role} {message}: Kubernetes refuses "
                                     "the pod", hint=hint)
    ref = source.get("fieldRef") if len(source) == 1 else None
    path = ref.get("fieldPath") if isinstance(ref, dict) else None
    if not found and isinstance(path, str) and len(_GOOD_PATHS) < 4096:
        _GOOD_PATHS.add(path)


def _env_source(item: Dict[str, Any], source: Dict[str, Any]) -> Iterator[Tuple[Path, str, str]]:
    named = [key for key in SOURCES if source.get(key) is not None]
    value = item.get("value")
    if not named:
        yield (), f"has a valueFrom without any of {', '.join(SOURCES)}", "name the one source to read"
    elif isinstance(value, str) and value:
        yield (), "has both a value and a valueFrom", "keep one of them"
    elif len(named) > 1:
        yield (), f"has a valueFrom with {' and '.join(named)}", "keep one source"
    if isinstance(source.get("fieldRef"), dict):
        for below, message, hint in field_ref(source["fieldRef"], ENV_FIELD_PATHS, "env"):
            yield ("fieldRef",) + below, message, hint
    if isinstance(source.get("resourceFieldRef"), dict):
        for below, message, hint in resource_ref(source["resourceFieldRef"], volume=False):
            yield ("resourceFieldRef",) + below, message, hint
