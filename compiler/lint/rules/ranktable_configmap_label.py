"""A job's ``rings-config-<job>`` ConfigMap lacks the ``ring-controller.atlas`` label or ``hccl.json``.

**What.** The ranktable ConfigMap of a job in the same run should carry the
label ``ring-controller.atlas`` with the job's value, and a ``hccl.json`` key
(initially ``{"status":"initializing"}``).

**Why.** The operator finds the ConfigMap by name, but the upstream docs and
samples require the label ("The value cannot be modified. Service operations
will be performed based on this label"), and the training scripts read
``hccl.json`` and poll its ``status``; a missing key makes them fail before the
operator has written it.

**How to fix.** Copy the job's ``ring-controller.atlas`` label onto the
ConfigMap and add ``data: {hccl.json: '{"status":"initializing"}'}``.

Failing::

    kind: ConfigMap
    metadata:
      name: rings-config-resnet
    data: {}

Passing::

    kind: ConfigMap
    metadata:
      name: rings-config-resnet
      labels: {ring-controller.atlas: ascend-910b}
    data:
      hccl.json: '{"status":"initializing"}'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ...catalogue.citations import Citation, MC, MD, OP, Place
from ...manifest.values import as_dict
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import RANKTABLE_KEY, RANKTABLE_CONFIGMAP_PREFIX, RING_LABEL, WORKLOADS
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("", "samples/train/basic-training/ranktable/yaml (rings-config ConfigMaps)", MD,
                    also=(Place("", OP + "consts.go (configmapKey)", MC),))


def facts(obj: ObjectContext) -> Any:
    """A ranktable ConfigMap: (its label value, where to report a missing label, lacks hccl.json?, where)."""
    if not obj.name.startswith(RANKTABLE_CONFIGMAP_PREFIX):
        return None
    label_path = ("metadata", "labels") if "labels" in obj.metadata else ("metadata",)
    data_path = ("data",) if "data" in obj.data else ("metadata", "name")
    return obj.labels.get(RING_LABEL), label_path, RANKTABLE_KEY not in as_dict(obj.data.get("data")), data_path


def judge(configmap: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    value, label_path, no_key, data_path = fact
    name = configmap.name
    job_name = name[len(RANKTABLE_CONFIGMAP_PREFIX):]
    jobs = run.find_any(WORKLOADS, job_name, configmap.namespace, near=configmap)
    same_file = [j for j in jobs if j.source == configmap.source]
    jobs = same_file or jobs
    if not jobs:
        return
    expected = jobs[0].labels.get(RING_LABEL)
    if value is None:
        yield Problem(label_path, f"ConfigMap {name} has no {RING_LABEL} label"
                                  + (f" (the job has {expected})" if expected else ""), key=True)
    elif expected is not None and value != expected:
        yield Problem(("metadata", "labels", RING_LABEL),
                      f"ConfigMap {name} is labelled {RING_LABEL}={value} but job {job_name} "
                      f"has {expected}")
    if no_key:
        yield Problem(data_path, f"ConfigMap {name} has no hccl.json key; the training scripts read and poll it",
                      key=True)
