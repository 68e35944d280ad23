"""The parts of docs/spec.md that are not field reference: what compile emits, the upstream sources of the
fault-tolerance fields, and what the spec deliberately does not say.

Names come from ``ascend_compile.vocabulary`` and the generated-key tables of ``ascend_compile.jobspec.
generated``, so the page names exactly the objects, containers, volumes, ports, labels and annotations the
compiler writes.  Used by ``scripts/gen_spec_docs.py``.
"""
from __future__ import annotations

from typing import List

from _checkout import use_checkout

use_checkout()

from ascend_compile import vocabulary as v  # noqa: E402
from ascend_compile.jobspec import generated  # noqa: E402


def header_rule(header: str) -> str:
    return "|" + "---|" * (header.count("|") - 1)


def emitted() -> str:
    objects = [
        "| Object | When | Name |",
        "| `Namespace` | `createNamespace: true` | the job's namespace |",
        f"| `ConfigMap` (ranktable) | `ranktable: file` (a Volcano Job's default) | "
        f"`{v.RANKTABLE_CONFIGMAP_PREFIX}<job>`, label `{v.RING_LABEL}`, data `{v.RANKTABLE_KEY}: "
        f"'{v.RANKTABLE_INITIAL}'` |",
        f"| `ConfigMap` (reset information) | `podRescheduling`, `processRecovery`, `subHealthyStrategy: "
        f"{v.SUB_HEALTHY_GRACE_EXIT}`, or `resetConfig` given | `{v.RESET_CONFIGMAP_PREFIX}<job>`, label `{v.RESET_LABEL}: \"true\"`, data "
        f"`{v.RESET_KEY}: '{v.RESET_INITIAL}'` and `{v.RESET_CHECK_CODE_KEY}: \"\"` |",
        f"| `AscendJob` (`{v.ASCEND_JOB_API_VERSION}`) or Volcano `Job` (`{v.VOLCANO_JOB_API_VERSION}`) | always | "
        "the spec's `metadata.name` |",
    ]
    replicas = [
        "| Framework | AscendJob replica types | Volcano Job |",
        f"| pytorch | `{v.MASTER}` (an NPU pod) + `{v.WORKER}` x (pods - 1) | one task `{v.VOLCANO_TASK_NAME}` "
        "(or `taskName`) x pods |",
        f"| tensorflow | `{v.CHIEF}` (an NPU pod) + `{v.WORKER}` x (pods - 1) | one task `{v.VOLCANO_TASK_NAME}` "
        "(or `taskName`) x pods |",
        f"| mindspore | `{v.SCHEDULER}` (**an extra pod without NPUs**) + `{v.WORKER}` x pods; with "
        f"`schedulerHoldsNpus` the Scheduler is an NPU pod + `{v.WORKER}` x (pods - 1); one NPU: one `{v.WORKER}` | "
        f"one task `{v.VOLCANO_TASK_NAME}` (or `taskName`) x pods |",
    ]
    volumes = [
        "| Volume | Source | Mounted at | On |",
        f"| `{v.DRIVER_VOLUME}` | hostPath `/usr/local/Ascend/driver` | `/usr/local/Ascend/driver` | every pod |",
        f"| `{v.SHM_VOLUME}` | emptyDir, medium Memory (`resources.shm` its sizeLimit) | `/dev/shm` | every pod |",
        f"| `{v.LOCALTIME_VOLUME}` | hostPath `/etc/localtime` | `/etc/localtime` | every pod |",
        f"| `{v.RANKTABLE_CONFIGMAP_VOLUME}` | ConfigMap `{v.RANKTABLE_CONFIGMAP_PREFIX}<job>` | "
        f"`{v.RANKTABLE_MOUNT_PATH}` | NPU pods, `ranktable: file` |",
        f"| `{v.RANKTABLE_HOSTPATH_VOLUME}` | hostPath `{v.RANKTABLE_SHARED_DIR}/<namespace>.<job>` (type Directory), "
        f"or `ranktableVolume` | `{v.RANKTABLE_MOUNT_PATH}` | NPU pods, `ranktable: hostPath` |",
        f"| `{v.RESET_VOLUME}` | hostPath `{v.RESET_SHARED_DIR}/<namespace>.{v.RESET_CONFIGMAP_PREFIX}<job>`, or the "
        f"ConfigMap (`resetConfig`) | `{v.RESET_MOUNT_PATH}` (read-only) | NPU pods, with the "
        "reset ConfigMap |",
        "| the spec's `volumes` | as written | as written | every pod (and `replicaTypes.<type>.volumes` on that "
        "type's) |",
    ]
    ports = [
        "| Port | Number | On |",
        f"| `{v.PORT_NAME}` | {v.DEFAULT_PORT} | every AscendJob pod (the operator's Service for the leader uses it) |",
        f"| `{v.TASKD_PORT_NAME}` | {v.TASKD_PORT} | every pod, with `podRescheduling`, `processRecovery` or "
        f"`subHealthyStrategy: {v.SUB_HEALTHY_HOT_SWITCH}` |",
        f"| `{v.TTP_PORT_NAME}` | {v.TTP_PORT} | every pod, with the `{v.DUMP_STRATEGY}` recovery strategy |",
        "| the spec's `ports` | as written | every pod (and `replicaTypes.<type>.ports` on that type's) |",
    ]
    env = [
        "| Env | Value | On |",
        f"| `{v.VISIBLE_DEVICES_ENV}` | fieldRef `metadata.annotations['<resource>']` | NPU pods |",
        f"| `{v.XDL_IP_ENV}` | fieldRef `{v.HOST_IP_FIELD}` | PyTorch pods, and NPU pods with a ranktable file |",
        f"| `{v.POD_UID_ENV}` | fieldRef `{v.POD_UID_FIELD}` | NPU pods with a ranktable file |",
        f"| `{v.FRAMEWORK_ENV}`, `<job name>` | `PyTorch`/`MindSpore`/`Tensorflow`; fieldRef `metadata.name` | Volcano "
        "Job pods with a ranktable |",
        f"| `{v.HCCL_IF_IP_ENV}` | fieldRef `{v.HOST_IP_FIELD}` | every pod, with `hostNetwork` |",
        f"| `{v.POD_IP_ENV}` | fieldRef `{v.POD_IP_FIELD}` | every pod, with TaskD (see ports) |",
        f"| `{v.TTP_PORT_ENV}` | `\"{v.TTP_PORT}\"` | every pod, with `{v.DUMP_STRATEGY}` |",
    ]
    keys = ["| Key | Where | Set by |"]
    for where, table in (("job label", generated.JOB_LABELS), ("job annotation", generated.JOB_ANNOTATIONS),
                         ("pod label", generated.POD_LABELS), ("Volcano Job pod label", generated.VOLCANO_DEFAULT_POD_LABELS)):
        keys += [f"| `{key}` | {where} | `{field}` |" for key, field in table.items()]
    return "\n".join([
        "## What `compile` emits", "",
        "Objects, in apply order:", "", "\n".join([objects[0], header_rule(objects[0])] + objects[1:]), "",
        "Pods (replica types of an AscendJob, the task of a Volcano Job):", "",
        "\n".join([replicas[0], header_rule(replicas[0])] + replicas[1:]), "",
        f"Every pod has one container, **`{v.CONTAINER_NAME}`** (the name ascend-operator looks for; a Volcano "
        f"Job's is `containerName` when given): patch it by that name. Its volumes:", "", "\n".join([volumes[0], header_rule(volumes[0])] + volumes[1:]), "",
        "Its ports:", "", "\n".join([ports[0], header_rule(ports[0])] + ports[1:]), "",
        "The env the compiler wires (a spec's `env` may not set these names; the spec's own env follows them):", "",
        "\n".join([env[0], header_rule(env[0])] + env[1:]), "",
        "Labels and annotations the compiler generates, and the field that sets each (the profile's own job "
        "labels, such as 310P's `duo`, too). The free-form `labels`, `annotations`, `podLabels` and "
        "`podAnnotations` only add keys: a generated key there is a compile error (AC024) naming the field; "
        "the one exception is a Volcano Job's pod label `app`, a default that `podLabels` may replace.", "",
        "\n".join([keys[0], header_rule(keys[0])] + keys[1:]), "",
    ])


SOURCES = """\
## Fault tolerance: the fields and upstream

The fields follow MindCluster's resumable-training docs (`docs/zh/scheduling/04_usage/04_resumable_training/`,
`docs/zh/scheduling/06_api/15_yaml_configuration.md`) and, where they disagree, the code at the pinned
commit (`mind-cluster` 22bb3d98). `compile` emits the whole set consistently and refuses an
inconsistent one; `lint` reports the same rules on manifests (see [rules.md](rules.md)).

| Field | Emits | Upstream source | Rules |
|---|---|---|---|
| `faultScheduling` | label `fault-scheduling` | `ascend-for-volcano/internal/rescheduling/reschedule.go` updateNewFaultJobAttr: rescheduling runs for grace/force only | AC311, AC313 |
| `faultRetryTimes` | label `fault-retry-times`; `restartPolicy: Never`; a Volcano Job without policies | `rescheduling/job.go` setFaultRetryTimeOfJob, isFailedTask; `ascend-operator/pkg/controllers/v1/ascendjob_controller.go` setFaultRetryTimesToBackoffLimits; YAML reference rows `spec.policies`, `restartPolicy` | AC311, AC312, AC408 |
| `podRescheduling` | label `pod-rescheduling: "on"`, TaskD port and `POD_IP`, `reset-config-<job>`; a Volcano Job without policies | `ascend-common/api/consts.go` PodScheduleLabel; `ascend-for-volcano/plugin/job.go` updateResetConfigMap | AC311, AC408, AC505 |
| `processRecovery` | annotations `recover-strategy`, `wait-reschedule-timeout`; `reset-config-<job>` and its mount; TaskD port and `POD_IP`; with `dump` MindIO's `ttp-port` and `TTP_PORT` | `ascend-operator/pkg/controllers/v1/job.go` addPgProcessRecoverLabel, `env.go` addProcessRecoverEnv; `ascend-device-plugin/pkg/common/file_manager.go` GenResetDirName; `taskd/.../constant/const.go` ResetConfigPath | AC311, AC313, AC505 |
| `subHealthyStrategy` | label `subHealthyStrategy` (hotSwitch: TaskD port and `POD_IP`; graceExit: `reset-config-<job>`) | `plugin/job.go` setJobSubHealthyStrategy; `ascend-operator/.../env.go` addSubHealthyEnv; `rescheduling/reschedule.go` updateResetConfigMapWithGraceExit | AC311, AC313 |
| `terminationGracePeriodSeconds` | pod `terminationGracePeriodSeconds` | YAML reference: effective with grace, below the scheduler's `grace-over-time` (900 in `ascend-for-volcano/build/volcano-v*.yaml`) | |
| `restartPolicy`, `replicaTypes.<type>.restartPolicy` | replica / pod `restartPolicy` | kubeflow common `ReplicaSpec` (the operator's); ExitCode is not for Volcano Jobs | AC312 |

`fault-scheduling` defaults: force on a Volcano Job (upstream's samples) and whenever `faultRetryTimes`,
`podRescheduling` or `subHealthyStrategy` is set; grace with `processRecovery` (the YAML reference asks
grace for process-level recovery; its samples also run force, which the code accepts).

A Volcano Job with `faultRetryTimes` gets no policies. Upstream's YAML reference asks for the policy
`PodFailed -> Ignore`, but `Ignore` is no Volcano action: Volcano's admission webhook refuses the job, and
on MindCluster's own Volcano v1.12 and v1.15 (deployed without the webhook) it is the same as no policy,
since the edit of `ascend-for-volcano/build/build.sh` that teaches the job controller `Ignore` matches
only Volcano v1.9's code. On the simulated cluster the job without policies runs and a failed pod is
retried by the plugin (new pods, one retry fewer, Volcano's `retryCount` untouched). When all the job's
pods fail at once, Volcano marks the job Failed before the plugin can retry it, with or without
`Ignore`, except on MindCluster's Volcano v1.9, whose job controller does act on `Ignore` and leaves the
job to the plugin; on such a cluster add the policy with `jobPatch`. A `RestartJob` policy on `PodEvicted`
or `PodFailed` (the samples' `PodEvicted -> RestartJob`) would make every failure a Volcano restart too,
counted against `maxRetry` (lint AC408).
"""

OUT_OF_SCOPE = """\
## Deliberately out of scope

What the spec does not say, and why; `podTemplatePatch` / `jobPatch` remain for one-off needs.

- **Graceful fault tolerance** (`-hotReset=1` in the device plugin): sunset upstream (PyTorch after 7.2.RC1,
  MindSpore after 7.1.RC1), and configured on the device plugin, not the job.
- **Soft-share devices** (`huawei.com/schedule_policy: chip1-softShareDev` with the
  `huawei.com/scheduler.softShareDev.*` labels): the NPU request then means an AI Core percentage, not
  NPUs, and the pods need the node's virtualisation runtime mounted; the NPU arithmetic of every profile
  would not apply. Write such jobs by hand and lint them: AC314 checks their labels, and the NPU-count
  rules leave their shares alone.
- **`elastic-scheduling: on` and `minReplicas`** of older Volcano Job samples: replaced upstream by the
  `elastic-training` recovery strategy (AscendJob), which `processRecovery` covers.
- **`huawei.com/recover_policy_path`, `huawei.com/schedule_minAvailable`, `podgroup-sched-enable`,
  `super-pod-affinity`, `customJobKey`**: niche scheduler hints without consistency rules of their own; set
  them with `annotations`/`labels` (they are not generated keys).
- **Several Volcano tasks with different pod templates**: a Volcano Job is one task of NPU pods; jobs with a
  separate head (Ray, say) are AscendJobs with `replicaTypes` settings for the leader.
- **Deployments and bare pods** (inference services): upstream's inference Deployments need no operator
  wiring; write them by hand and lint them.
"""


def sections() -> str:
    return "\n".join([emitted(), SOURCES, OUT_OF_SCOPE])
