"""A job's generated pod or Service names would be longer than 63 characters.

**What.** Volcano names pods ``<job>-<task>-<index>``, and these must fit in
63 characters. ascend-operator names pods ``<job>-<replica type, lower
case>-<index>`` and the leader's Service (Master, Scheduler or Chief)
``<job>-<leader>-0``; that Service name must fit in 63 characters (a Worker
pod's name may be longer: a pod name is a DNS subdomain).

**Why.** Volcano's admission webhook rejects the job when a pod name exceeds a
DNS label (pod names become host names with the ``svc`` plugin); a Service name
must be a DNS label, so the operator cannot create the leader's Service and the
workers never learn MASTER_ADDR. The operator creates no other Service (only the
master role gets one) and sets no host name on its pods.

**How to fix.** Shorten the job (or task) name.

Failing::

    metadata:
      name: resnet50-imagenet-full-precision-baseline-run-2024-11-28-a
    spec:
      tasks:
      - name: default-test
        replicas: 16

Passing::

    metadata:
      name: resnet50-baseline-1128
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, OP, Place, VC, VCJ
from ...vocabulary import ASCEND_JOB, VOLCANO_JOB, WORKER
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateK8sPodNameLength", VCJ, VC, "create pod with name %s validate failed %v;",
                    also=(Place("getOrCreateSvc", OP + "jobinfo.go", MC),
                          Place("", OP + "service.go", MC)))

LIMIT = 63


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.name:
        return
    for pod_set in obj.pod_sets():
        if pod_set.replicas <= 0 or (obj.kind == ASCEND_JOB and pod_set.role == WORKER):
            continue
        middle = pod_set.role.lower() if obj.kind == ASCEND_JOB else pod_set.role
        longest = f"{obj.name}-{middle}-{pod_set.replicas - 1}"
        if len(longest) <= LIMIT:
            continue
        what = "pod name" if obj.kind == VOLCANO_JOB else "pod and Service name"
        path = pod_set.role_path + ("name",) if obj.kind == VOLCANO_JOB else ("metadata", "name")
        yield Problem(path, f"generated {what} {longest!r} has {len(longest)} characters, more than {LIMIT}")
