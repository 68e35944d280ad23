"""The ``ring-controller.atlas`` label has an unknown value, differs between the job and its pods, or is missing.

**What.** Where set, ``ring-controller.atlas`` must be one of ``ascend-910``,
``ascend-910b``, ``ascend-310``, ``ascend-310P``, ``ascend-npu``; the pod
templates must carry the same value as the job; and it should match the
hardware profile the job lands on (e.g. ``ascend-910b`` for every A2/A3 profile)
when the job names its hardware (``accelerator-type``, a schedule policy or
``sp-block``). A ``huawei.com/Ascend910`` job that names none gets the default
Atlas 800 handler but may land on any node offering the resource, so its label
is not compared with that handler's (``accelerator-type-missing`` notes the
missing selector). A value the API server refuses as a label value
(``ascend 910b``, with a space) is AC712's error; this rule says nothing of it.

A Volcano Job that mounts a ``rings-config-*`` ConfigMap needs the label (a
warning: without it, or a volume named ``ranktable``, the operator writes no
ranktable, and the pods wait for one that never comes).

**Why.** ascend-operator writes the ranktable for jobs labelled with it (for a
Volcano Job: the label, or a volume named ``ranktable``), and the Volcano plugin
uses it to pick the chip family (v6.0.0 910B handlers *required*
``ascend-910b``: "%s label:%s not right(%s)"). The samples' comments say the
value "cannot be modified".

**How to fix.** Use the value of your hardware profile
(``ascend-compile profiles show <name>``) on the job and every pod template.

Failing::

    metadata:
      labels:
        ring-controller.atlas: ascend-910B

Passing::

    metadata:
      labels:
        ring-controller.atlas: ascend-910b
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

from ...catalogue.citations import Citation, MC, PL, Place
from ... import releases
from ...manifest.job import joined_label
from ...manifest.values import as_dict
from ...findings import ERROR, WARNING
from ...hardware.targeting import hardware_unnamed
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import (RANKTABLE_CONFIGMAP_PREFIX, RANKTABLE_HOSTPATH_VOLUME, RING_CONTROLLER_VALUES, RING_LABEL,
                           VOLCANO_JOB)
from ..rule import Problem
from ._labels import value_problem

if TYPE_CHECKING:
    from ...findings import Finding
    from ..fixing import Fix
    from ..context import ObjectContext, RunContext
    from ...findings import Path

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("ShouldGenerateRankTable", "component/ascend-operator/pkg/ranktable/plugins.go", MC,
                    also=(Place("", PL + "common/util/job.go", MC),))

KNOWN = RING_CONTROLLER_VALUES


def _refused(value: Any) -> bool:
    """Whether the API server refuses ``value`` as a label value (AC712's error, which says all there is to say)."""
    return isinstance(value, str) and value_problem(value) is not None


def _unlabelled_ranktable_volume(obj: ObjectContext) -> Optional[Path]:
    """The path of a rings-config volume of a Volcano Job the operator writes no ranktable for, else None."""
    if obj.kind != VOLCANO_JOB or RING_LABEL in obj.labels:
        return None
    found: Optional[Path] = None
    for pod_set in obj.pod_sets():
        for i, volume in pod_set.volumes():
            if volume.get("name") == RANKTABLE_HOSTPATH_VOLUME:
                return None  # the operator's other trigger
            name = as_dict(volume.get("configMap")).get("name")
            if found is None and isinstance(name, str) and name.startswith(RANKTABLE_CONFIGMAP_PREFIX):
                found = pod_set.spec_path + ("volumes", i, "configMap", "name")
    return found


#: the value the 910B and super-pod handlers of the releases in ``ring-controller-910b-required`` demand
_910B = "ascend-910b"


def _required(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    """The target's handlers that refuse a job not labelled ring-controller.atlas: ascend-910b (v6.0.0's 910B and
    super-pod handlers), as the plugin joins the job's and the pods' labels."""
    required = releases.value("ring-controller-910b-required", run.release)
    candidates = run.candidate_profiles(obj)
    if not required or not candidates or not all(p.name in required for p in candidates):
        return
    values = obj.label_values(RING_LABEL)
    if values and all(_refused(v) for _, v in values):
        return  # only values the API server refuses (AC712): the plugin never judges the job by them
    values = [(path, v) for path, v in values if not _refused(v)]
    value = joined_label(values)
    if value == _910B:
        return
    names = ", ".join(p.name for p in candidates)
    said = "has no label" if value is None else f"is labelled {RING_LABEL}={value}, not"
    yield Problem(values[0][0] if values else ("metadata",),
                  f"the job {said} {RING_LABEL}={_910B}: the handler of MindCluster {run.release} for {names} refuses "
                  "it (\"label ... not right(ascend-910b)\"); it stays Pending",
                  hint=f"label the job and its pod templates {RING_LABEL}: {_910B}", severity=ERROR,
                  key=value is None)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    unlabelled = _unlabelled_ranktable_volume(obj)
    if unlabelled:
        values = {p.ring_controller for p in run.candidate_profiles(obj)}
        value = values.pop() if len(values) == 1 else None  # what lint --fix writes: the hardware's, when certain
        yield Problem(unlabelled, f"the pods mount a ranktable ConfigMap but the job has no {RING_LABEL} label: "
                                  "ascend-operator writes no ranktable for it", severity=WARNING,
                      hint=f"label the job and its pod templates {RING_LABEL}="
                           f"{value or '<the value of your hardware profile>'}", fix=value)
    yield from _required(obj, run)
    job_value = obj.labels.get(RING_LABEL)
    if job_value is None or _refused(job_value):
        return  # nothing to compare the pod templates' labels or the hardware with (a refused value: AC712's)
    if job_value not in KNOWN:
        yield Problem(("metadata", "labels", RING_LABEL),
                      f"{RING_LABEL} {job_value!r} is not one of {', '.join(KNOWN)}")
    for pod_set in obj.pod_sets():
        value = pod_set.labels.get(RING_LABEL)
        if value is not None and value != job_value and not _refused(value):
            meta = pod_set.spec_path[:-1] + ("metadata", "labels", RING_LABEL)
            yield Problem(meta, f"the {pod_set.role} pods are labelled {RING_LABEL}={value} "
                                f"but the job {job_value}")
    if job_value not in KNOWN:
        return
    candidates = run.candidate_profiles(obj)
    if candidates and job_value not in [p.ring_controller for p in candidates] \
            and not hardware_unnamed(candidates, run.signals(obj)):
        expected = sorted({p.ring_controller for p in candidates})
        names = ", ".join(p.name for p in candidates)
        yield Problem(("metadata", "labels", RING_LABEL),
                      f"{RING_LABEL} is {job_value} but the job runs on {names}, "
                      f"which uses {' or '.join(expected)}")


def fix(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    """``lint --fix`` of a Volcano Job mounting a ranktable ConfigMap without the label: the label on the job, with
    the value every hardware profile the job could land on uses (the finding names it; with no single value
    there is no fix)."""
    from .. import yamledit
    from ..fixing import Change, Fix, locate, value
    from ...yamlio.locations import child

    wanted, found = value(finding), locate(finding, docs)
    if wanted is None or found is None or "spec" not in finding.path:
        return None
    doc = found[0]
    job_path = finding.path[:finding.path.index("spec")]
    metadata = yamledit.walk(docs[doc], job_path + ("metadata",))
    labels, labels_key = child(metadata, "labels")
    if labels is None and labels_key is None:
        edit = yamledit.insert_entry(text, metadata, "labels", [(RING_LABEL, wanted)])
    else:
        edit = yamledit.insert_entry(text, labels, RING_LABEL, wanted)
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text, f"label the job {RING_LABEL}: {wanted}",
               Change(doc, job_path + ("metadata", "labels", RING_LABEL), wanted))
