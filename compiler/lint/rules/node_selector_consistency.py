"""Replicas or tasks of one job set different values for the same nodeSelector key.

**What.** Every pod template of a job must use the same value for each
``nodeSelector`` key it sets (``accelerator-type``, ``host-arch``, ...).

**Why.** The Volcano plugin builds one job selector from the union of all tasks'
selectors and joins differing values with ``|``, so the handler it picks for the
job follows the joined value, while each pod is still placed on the nodes its
own selector names. One value containing ``card`` picks the card handler and the
simulated cluster runs such jobs, so this is |severity|: the job runs, but under
handler rules and on servers you probably did not intend. With no ``card`` among
the ``accelerator-type`` values no handler has the joined name and the job is
refused: AC306 reports that.

**How to fix.** Give the Master/Scheduler/Chief the same node selector as the Workers.

Failing::

    Master:  {... nodeSelector: {accelerator-type: module-910b-16}}
    Worker:  {... nodeSelector: {accelerator-type: module-910b-8}}

Passing::

    Master:  {... nodeSelector: {accelerator-type: module-910b-8}}
    Worker:  {... nodeSelector: {accelerator-type: module-910b-8}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL
from ...releases import PLUGIN_STACKS
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("getJobSelectorFromVcJob", PL + "plugin/job.go", MC)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    pod_sets = obj.pod_sets()
    if len(pod_sets) < 2:
        return  # one template: nothing to disagree with
    first = {}
    for pod_set in pod_sets:
        for key, value in pod_set.node_selector.items():
            if key not in first:
                first[key] = (value, pod_set)
                continue
            expected, owner = first[key]
            if value != expected:
                yield Problem(pod_set.spec_path + ("nodeSelector", key),
                              f"{pod_set.role} selects {key}={value} but {owner.role} selects {key}={expected}; "
                              "the scheduler joins them into one selector for the handler choice")
