"""Replicas or tasks of one job set different values for the same nodeSelector key.

**What.** Every pod template of a job must use the same value for each
``nodeSelector`` key it sets (``accelerator-type``, ``host-arch``, ...).

**Why.** The Volcano plugin builds one job selector from the union of all
tasks' selectors and joins differing values with ``|``; the result
(``module-910b-8|module-910b-16``) matches no handler, so the job is refused
or scheduled by the wrong rules. Source:
``MC: component/ascend-for-volcano/plugin/job.go`` (job selector),
``internal/npu/factory.go`` ("Use identical nodeSelectors on all
replicas").

**How to fix.** Give the Master/Scheduler/Chief the same node selector as the Workers.

Failing::

    Master:  {... nodeSelector: {accelerator-type: module-910b-16}}
    Worker:  {... nodeSelector: {accelerator-type: module-910b-8}}

Passing::

    Master:  {... nodeSelector: {accelerator-type: module-910b-8}}
    Worker:  {... nodeSelector: {accelerator-type: module-910b-8}}
"""
from ..rule import Problem


def check(obj, run):
    first = {}
    for pod_set in obj.pod_sets():
        for key, value in pod_set.node_selector.items():
            if key not in first:
                first[key] = (value, pod_set)
                continue
            expected, owner = first[key]
            if value != expected:
                yield Problem(pod_set.spec_path + ("nodeSelector", key),
                              f"{pod_set.role} selects {key}={value} but {owner.role} selects {key}={expected}; "
                              "the scheduler joins them into one selector that matches no handler")
