"""A job with Pod-level or process-level recovery has no ``reset-config-<job>`` ConfigMap, or it is malformed.

**What.** A job labelled ``pod-rescheduling: "on"`` or
``subHealthyStrategy: graceExit``, or annotated ``recover-strategy``, needs a
ConfigMap ``reset-config-<job>`` in its namespace, with the key ``reset.json``
(upstream's samples: ``'{"status":"initializing"}'``, label ``reset: "true"``,
and ``checkCode: ""``). It is looked for among the linted files and the YAML
files beside the job's file.

**Why.** The Ascend plugin writes the restart type and the graceful-exit code
into that ConfigMap for the processes in the pods, and it only *updates* it: a
missing ConfigMap, or one without ``reset.json``, leaves the pods without the
information, and the device plugin has nothing to mirror into
``/user/restore/reset``. The resumable-training docs ask for it with every such
job, but the plugin carries on without it and some of upstream's own samples
(its verl RL job) leave it out, so a missing ConfigMap is reported as info; a
ConfigMap without ``reset.json``, which the plugin cannot update, as a warning.

**How to fix.** Add the ConfigMap as in upstream's samples (``ascend-compile``
emits it).

Failing::

    kind: AscendJob
    metadata:
      name: llm
      labels: {fault-scheduling: grace, pod-rescheduling: "on"}

Passing::

    kind: ConfigMap
    metadata: {name: reset-config-llm, labels: {reset: "true"}}
    data:
      reset.json: '{"status":"initializing"}'
      checkCode: ""
    ---
    kind: AscendJob
    metadata:
      name: llm
      labels: {fault-scheduling: grace, pod-rescheduling: "on"}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional

from ...catalogue.citations import Citation, MC, PL, Place
from ...findings import INFO
from ...vocabulary import (CONFIG_MAP, ENABLED, POD_RESCHEDULING_LABEL, RECOVER_STRATEGY_ANNOTATION,
                           RESET_CONFIGMAP_PREFIX, RESET_KEY, SUB_HEALTHY_GRACE_EXIT, SUB_HEALTHY_LABEL)
from ...manifest.values import as_dict
from ...releases import PLUGIN_STACKS
from ..rule import Problem
from ._resilience import job_label

if TYPE_CHECKING:
    from ..context import ObjectContext
    from ..index import CrossRun, ObjectRef
    from ...findings import Path

STACKS = PLUGIN_STACKS
CITATION = Citation("updateResetConfigMap", PL + "plugin/job.go", MC, "get reset cm err by reset.json is not exist",
                    also=(Place("updateResetConfigMapWithGraceExit", PL + "internal/rescheduling/reschedule.go", MC),
                          Place("", "docs/zh/scheduling/04_usage/04_resumable_training/01_solutions_principles.md", MC)))


def _needs_reset(obj: ObjectContext) -> Optional[Path]:
    """Where the job asks for a feature that reads reset-config, or None."""
    value, where = job_label(obj, POD_RESCHEDULING_LABEL)
    if value == ENABLED:
        return where
    if obj.annotations.get(RECOVER_STRATEGY_ANNOTATION):
        return ("metadata", "annotations", RECOVER_STRATEGY_ANNOTATION)
    value, where = job_label(obj, SUB_HEALTHY_LABEL)
    return where if value == SUB_HEALTHY_GRACE_EXIT else None


def facts(obj: ObjectContext) -> Any:
    """A reset ConfigMap without its key, or a job that needs its ConfigMap: (what, where); else None."""
    if obj.kind == CONFIG_MAP:
        if obj.name.startswith(RESET_CONFIGMAP_PREFIX) and RESET_KEY not in as_dict(obj.data.get("data")):
            return "configmap", ("data",) if "data" in obj.data else ()
        return None
    where = _needs_reset(obj)
    if where is None or not obj.name:
        return None
    return "job", where


def judge(ref: ObjectRef, fact: Any, run: CrossRun) -> Iterator[Problem]:
    what, where = fact
    if what == "configmap":
        yield Problem(where, f"ConfigMap {ref.name} has no {RESET_KEY}: the scheduler cannot update it",
                      key=bool(where))
        return
    wanted = RESET_CONFIGMAP_PREFIX + ref.name
    if run.find(CONFIG_MAP, wanted, ref.namespace, near=ref) or run.exists_beside(CONFIG_MAP, wanted, ref.namespace, ref):
        return
    yield Problem(where, f"no ConfigMap {wanted} among the linted files or beside the job's file: the scheduler "
                         "only updates it, so the pods never get their restart information", severity=INFO)
