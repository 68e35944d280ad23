"""The spec's fault tolerance: one consistent set of labels, annotations, objects and pod settings.

Upstream reads fault tolerance from a handful of job labels and annotations, and each feature needs others
to work (MindCluster's resumable-training docs, ``docs/zh/scheduling/04_usage/04_resumable_training/``, and
the YAML reference ``docs/zh/scheduling/06_api/15_yaml_configuration.md``; where they disagree with the code
at the pinned commit, the code wins):

* the Volcano plugin's rescheduling runs only for jobs labelled ``fault-scheduling`` grace or force
  (``ascend-for-volcano/internal/rescheduling/reschedule.go`` updateNewFaultJobAttr): without it
  ``fault-retry-times``, ``pod-rescheduling`` and ``subHealthyStrategy`` do nothing;
* ``fault-retry-times`` retries only tasks the plugin counts as failed: up to MindCluster v7.0.RC1 only pods in
  phase Failed, so there pods must not restart in place (``restartPolicy: Never``); from v7.3.2 also a container
  restarted after a non-zero exit (``rescheduling/job.go`` isFailedTask; fact ``exit-code-fails-task`` of
  :mod:`ascend_compile.releases`);
* process-level recovery (annotation ``recover-strategy``) is the operator's (``ascend-operator/pkg/
  controllers/v1/job.go`` addPgProcessRecoverLabel, ``env.go`` addProcessRecoverEnv): AscendJob only, and it
  raises business-plane faults, so it needs ``fault-retry-times``.

:func:`resilience` checks a spec against these rules (reporting the rule IDs lint uses for the same facts)
and resolves the defaults: ``fault-scheduling`` becomes grace with process-level recovery and force with the
other features, as upstream's docs and samples set it.
"""
from __future__ import annotations

from typing import Any, List, Mapping, Optional, Tuple

from ..catalogue import FAULT_RETRY_RESTART_POLICY, RESILIENCE_PREREQUISITES, SPEC_INVALID
from ..findings import PathElement
from ..vocabulary import (ASCEND_JOB, FAULT_SCHEDULING_FORCE, FAULT_SCHEDULING_GRACE, FAULT_SCHEDULING_OFF,
                          MINDSPORE, PYTORCH, SUB_HEALTHY_GRACE_EXIT, SUB_HEALTHY_HOT_SWITCH, VOLCANO_JOB)
from ..releases import DEFAULT_RELEASE, releases_where, span_text, value
from .model import Resilience

#: the restartPolicy values with which the kubelet restarts a failed container in place (ExitCode gives Never)
IN_PLACE = ("OnFailure", "Always")


def resilience(fields: Any, target: str, framework: str, namespace: Optional[str], problems: Any,
               release: str = DEFAULT_RELEASE) -> Resilience:
    """The spec's fault tolerance, checked for MindCluster ``release``, with its defaults."""
    spec = fields.spec
    recovery: Mapping[str, Any] = spec.get("processRecovery") or {}
    strategies = tuple(recovery.get("strategies") or ())
    retry = spec.get("faultRetryTimes")
    pod_rescheduling = bool(spec.get("podRescheduling", False))
    sub_healthy = spec.get("subHealthyStrategy")
    needs_rescheduling = [name for name, on in (
        ("faultRetryTimes", bool(retry)), ("podRescheduling", pod_rescheduling),
        ("processRecovery", bool(strategies)), ("subHealthyStrategy", sub_healthy not in (None, "ignore")))
        if on]
    scheduling = fields.pick("faultScheduling")
    if scheduling is None and needs_rescheduling:
        scheduling = FAULT_SCHEDULING_GRACE if strategies else FAULT_SCHEDULING_FORCE
    if scheduling is None and target == VOLCANO_JOB:
        scheduling = FAULT_SCHEDULING_FORCE  # upstream's Volcano Job samples
    if scheduling == FAULT_SCHEDULING_OFF and needs_rescheduling:
        problems.add(RESILIENCE_PREREQUISITES, fields.where("faultScheduling", needs_rescheduling[0]),
                     f"faultScheduling: off switches the scheduler's rescheduling off for the job, so "
                     f"{' and '.join(needs_rescheduling)} would do nothing",
                     "use faultScheduling: grace or force (or leave it out: the compiler picks one)")
    if strategies:
        _check_process_recovery(fields, target, bool(retry), problems)
    if sub_healthy == SUB_HEALTHY_HOT_SWITCH:
        _check_hot_switch(target, framework, problems)
    _check_restart_policies(fields, retry, release, problems)
    reset = _reset_config(spec, strategies, pod_rescheduling, sub_healthy, namespace, problems)
    return Resilience(
        fault_scheduling=scheduling, fault_retry_times=retry, pod_rescheduling=pod_rescheduling,
        recover_strategies=strategies, wait_reschedule_timeout=recovery.get("waitRescheduleTimeout"),
        reset_config=reset, sub_healthy_strategy=sub_healthy,
        termination_grace_period=spec.get("terminationGracePeriodSeconds"))


def _check_process_recovery(fields: Any, target: str, retry: bool, problems: Any) -> None:
    if target != ASCEND_JOB:
        problems.add(RESILIENCE_PREREQUISITES, ("spec", "processRecovery"),
                     "process-level recovery is ascend-operator's: a Volcano Job gets neither the "
                     "process-recover-enable label nor the recovery env", "use target: AscendJob", key=True)
    if not retry:
        problems.add(RESILIENCE_PREREQUISITES, ("spec", "processRecovery"),
                     "process-level recovery raises business-plane faults, which the scheduler handles only with "
                     "fault-retry-times (upstream's YAML reference: it must be set)",
                     "set faultRetryTimes (e.g. 3)", key=True)


def _check_hot_switch(target: str, framework: str, problems: Any) -> None:
    if target != ASCEND_JOB or framework not in (PYTORCH, MINDSPORE):
        problems.add(RESILIENCE_PREREQUISITES, ("spec", "subHealthyStrategy"),
                     "subHealthyStrategy: hotSwitch needs an AscendJob with PyTorch or MindSpore: the operator "
                     "injects its env (ascend-operator env.go addSubHealthyEnv)",
                     "use target: AscendJob, or another strategy")


def _check_restart_policies(fields: Any, retry: Optional[int], release: str, problems: Any) -> None:
    """With fault-retry-times no replica may restart in place where the plugin counts only Failed pods: the pod must
    fail for the retry to start (lint's AC312 for the same release)."""
    if not retry or value("exit-code-fails-task", release):
        return
    places: List[Tuple[Tuple[PathElement, ...], Any]] = [(("spec", "restartPolicy"), fields.spec.get("restartPolicy"))]
    for rtype, settings in (fields.spec.get("replicaTypes") or {}).items():
        places.append((("spec", "replicaTypes", rtype, "restartPolicy"), (settings or {}).get("restartPolicy")))
    counted = span_text(releases_where("exit-code-fails-task", bool))
    for path, policy in places:
        if policy in IN_PLACE:
            problems.add(FAULT_RETRY_RESTART_POLICY, path,
                         f"restartPolicy {policy} with faultRetryTimes: the kubelet restarts a failed container "
                         f"in place, so the pod never reaches Failed, the only failure the scheduler of MindCluster "
                         f"{release} counts, and the job is never retried (upstream's YAML reference asks for Never)",
                         f"remove restartPolicy (the compiler sets Never), or remove faultRetryTimes; on MindCluster "
                         f"{counted} the pairing retries the job")


def _reset_config(spec: Mapping[str, Any], strategies: Tuple[str, ...], pod_rescheduling: bool,
                  sub_healthy: Optional[str], namespace: Optional[str], problems: Any) -> Optional[str]:
    """How pods read reset-config-<job>, or None when the job needs no reset ConfigMap.

    The plugin writes the restart type of Pod-level rescheduling and the exit code of a graceful exit into it
    (``ascend-for-volcano/plugin/job.go`` updateResetConfigMap, ``rescheduling/reschedule.go``
    updateResetConfigMapWithGraceExit), and process-level recovery reads it (upstream's samples).  A spec
    that names ``resetConfig`` gets the ConfigMap and its mount on their own too: real jobs keep them without
    any of those features (their scripts read the file).
    """
    if not (strategies or pod_rescheduling or sub_healthy == SUB_HEALTHY_GRACE_EXIT or "resetConfig" in spec):
        return None
    mode = str(spec.get("resetConfig", "hostPath"))
    if mode == "hostPath" and not namespace:
        problems.add(SPEC_INVALID, ("spec", "resetConfig") if "resetConfig" in spec else ("spec",),
                     "the reset information is mounted from the node directory /user/restore/reset/"
                     "<namespace>.reset-config-<job>, which needs a namespace",
                     "set metadata.namespace (or the project's namespace), or resetConfig: configMap")
    return mode
