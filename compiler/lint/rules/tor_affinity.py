"""The ``tor-affinity`` label is not ``large-model-schema``, ``normal-schema`` or ``null``.

**What.** Where set, the job label ``tor-affinity`` (switch affinity) must be
``large-model-schema``, ``normal-schema`` or ``null`` (off).

**Why.** ascend-for-volcano refuses other values of the switch-affinity label.
(The cluster also needs the ``basic-tor-node-cm`` ConfigMap, which only a
cluster can tell.)

Given as an annotation of the job (and not as a label) it is a warning: the
plugin reads the job's labels only, so the job runs without switch affinity.

**How to fix.** Use one of the three values, or remove the label; make an
annotation ``tor-affinity`` a label.

Failing::

    metadata:
      labels:
        tor-affinity: large-model

Passing::

    metadata:
      labels:
        tor-affinity: large-model-schema
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL, Place
from ...findings import WARNING
from ...releases import PLUGIN_STACKS
from ...vocabulary import TOR_AFFINITY_LABEL
from ..rule import Problem
from ._resilience import annotated_only

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("ValidNPUJob", PL + "internal/nslb/frame.go", MC,
                    "job tor affinity label check failed,tor-affinity label value is %s",
                    also=(Place("getJobLabelFromVcJob", PL + "plugin/job.go", MC),))

ALLOWED = ("large-model-schema", "normal-schema", "null")


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if TOR_AFFINITY_LABEL not in obj.labels:
        if TOR_AFFINITY_LABEL in obj.annotations and annotated_only(obj, (TOR_AFFINITY_LABEL,)):
            yield Problem(("metadata", "annotations", TOR_AFFINITY_LABEL),
                          f"{TOR_AFFINITY_LABEL} is given as an annotation: the scheduler reads the job's labels only, "
                          "so the job runs without switch affinity", severity=WARNING, key=True)
        return
    value = obj.labels.get(TOR_AFFINITY_LABEL)
    if value not in ALLOWED:
        yield Problem(("metadata", "labels", TOR_AFFINITY_LABEL),
                      f"{TOR_AFFINITY_LABEL} {value!r} is not one of {', '.join(ALLOWED)}: the scheduler refuses the job")
