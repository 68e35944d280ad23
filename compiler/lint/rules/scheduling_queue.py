"""An AscendJob has ``runPolicy.schedulingPolicy`` but no queue.

**What.** When ``spec.runPolicy.schedulingPolicy`` is present,
``schedulingPolicy.queue`` must name a Volcano Queue (``default`` exists in
every Volcano install).

**Why.** With gang scheduling on (the operator's default), ascend-operator looks
the queue up and refuses the job when it is empty or missing (reason
``InvalidQueue``). Whether a named queue exists can only be checked against a
cluster.

**How to fix.** Set ``queue: default`` (or your team's queue).

Failing::

    spec:
      runPolicy:
        schedulingPolicy:
          minAvailable: 2

Passing::

    spec:
      runPolicy:
        schedulingPolicy:
          minAvailable: 2
          queue: default
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, REFUSED, VAL
from ...manifest.values import as_dict
from ..rule import Problem
from ._release import operator_refusal

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateBasicInfo", VAL, MC, "check queue<%s> failed, err: %v, maybe it is not create",
                    also=(*REFUSED,))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    run_policy = as_dict(obj.spec.get("runPolicy"))
    if "schedulingPolicy" not in run_policy:
        return
    policy = run_policy.get("schedulingPolicy")
    if policy is not None and not isinstance(policy, dict):
        return  # a type error the schema reports
    queue = as_dict(policy).get("queue")
    if not isinstance(queue, str) or not queue.strip():
        path = ("spec", "runPolicy", "schedulingPolicy", "queue") if "queue" in as_dict(policy) \
            else ("spec", "runPolicy", "schedulingPolicy")
        yield Problem(path, f"schedulingPolicy has no queue: {operator_refusal(run)}",
                      key="queue" not in as_dict(policy))
