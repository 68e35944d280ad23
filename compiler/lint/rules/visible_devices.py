"""``ASCEND_VISIBLE_DEVICES`` reads the annotation of a different resource than the container requests.

**What.** When a container sets ``ASCEND_VISIBLE_DEVICES`` from
``metadata.annotations['huawei.com/<X>']``, ``<X>`` must be the NPU resource
the container requests (``huawei.com/Ascend910`` →
``metadata.annotations['huawei.com/Ascend910']``, ``huawei.com/npu`` →
``['huawei.com/npu']``, ...).

**Why.** The Volcano plugin writes the allocated device IDs into the annotation
named after the requested resource, and Ascend Docker Runtime mounts the devices
listed in the env. A mismatched key leaves the env empty: the container starts
without NPUs, or with all of them. The job is accepted and scheduled (the
simulated cluster runs it), so |severity|. The samples' comments ask for the
same value as the resource request.


**How to fix.** Use the requested resource's name in the fieldPath.

Failing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotations['huawei.com/Ascend910']"}}
    resources:
      requests: {huawei.com/npu: 8}

Passing::

    env:
    - name: ASCEND_VISIBLE_DEVICES
      valueFrom: {fieldRef: {fieldPath: "metadata.annotations['huawei.com/npu']"}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Optional, Sequence, Union
import re

from ...catalogue.citations import Citation, MC, MD, OP, Place
from ...manifest.values import as_dict
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import VISIBLE_DEVICES_ENV, visible_devices_field_path
from ..rule import Problem
from .env_field_ref import valid_env_field_path

if TYPE_CHECKING:
    from ...findings import Finding
    from ..fixing import Fix
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("", "samples/train/basic-training (ASCEND_VISIBLE_DEVICES comments)", MD,
                    also=(Place("", OP + "env.go", MC),))

ENV = VISIBLE_DEVICES_ENV
_ANNOTATION = re.compile(r"""^metadata\.annotations\[['"]([^'"]+)['"]\]$""")
#: what each fieldPath reads (see _reads), by path: a run's jobs repeat theirs (bounded, whatever the input)
_READS: Dict[str, Union[str, None, bool]] = {}


def _reads(field_path: str) -> Union[str, None, bool]:
    """The annotation key ``field_path`` reads (None: another pod field), or False when Kubernetes refuses the path
    (AC708's finding)."""
    found = _READS.get(field_path)
    if found is None and field_path not in _READS:
        if len(_READS) >= 4096:
            _READS.clear()
        if not valid_env_field_path(field_path):
            found = False
        else:
            match = _ANNOTATION.match(field_path.strip())
            found = match.group(1) if match else None
        _READS[field_path] = found
    return found


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for container in pod_set.containers():
            resource = container.npu_request()[0]
            found = container.env_named(ENV) if resource is not None else None
            if found is None or resource is None:
                continue
            index, item = found
            field_path = as_dict(as_dict(as_dict(item.get("valueFrom")).get("fieldRef"))).get("fieldPath")
            annotation = _reads(field_path) if isinstance(field_path, str) else False
            if annotation is False:
                continue  # AC708: Kubernetes refuses the pod
            if annotation != resource:
                yield Problem(container.path + ("env", index, "valueFrom", "fieldRef", "fieldPath"),
                              f"{ENV} reads {field_path!r} but the container requests {resource}: "
                              "the env stays empty", hint=f"use {visible_devices_field_path(resource)}",
                              fix=visible_devices_field_path(resource) if annotation else None)


def fix(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    """``lint --fix``: read the annotation of the resource the container requests (the finding names it), in the
    quoting the value was written in."""
    import json

    from .. import yamledit
    from ..fixing import Change, Fix, locate, value

    wanted, found = value(finding), locate(finding, docs)
    if wanted is None or found is None:
        return None
    doc, node = found
    if yamledit.written(text, node) is None:
        return None
    # in the quoting it was written in (the new value differs only in a resource name)
    new = {'"': json.dumps(wanted), "'": "'" + wanted.replace("'", "''") + "'"}.get(node.style or "", wanted)
    return Fix(finding, node.start_mark.index, node.end_mark.index, new,
               f"read the annotation of the requested resource: {wanted}", Change(doc, finding.path, wanted))
