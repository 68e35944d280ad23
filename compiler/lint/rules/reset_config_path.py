"""A reset-information ``hostPath`` names another job's (or namespace's) folder than the job's own.

**What.** A job's pods read their restart information from the node folder
``/user/restore/reset/<namespace>.reset-config-<job>``. Where an AscendJob or Volcano Job
mounts a ``hostPath`` under ``/user/restore/reset/`` of that form, ``<job>`` is the job's own
name and ``<namespace>`` its own namespace (when the manifest sets one).

**Why.** The scheduler writes a job's restart information into its ConfigMap
``reset-config-<job>`` only, and the device plugin of each NPU node mirrors that ConfigMap
into ``/user/restore/reset/<namespace>.<ConfigMap name>``. A path naming another job (a
manifest copied from another job and renamed) reads that job's information or, with no
``type``, an empty folder the runtime creates: the processes never learn of a restart or a
grace exit, very likely not as meant. A warning. Upstream's own test jobs mount it so
(namespace ``trjob``, path ``/user/restore/reset/trjob.reset-config-<job>``).

**How to fix.** Write the path with the job's namespace and name.

Failing::

    metadata: {name: llama-2x8, namespace: trjob}
    ...
      volumes:
      - name: reset-config
        hostPath: {path: /user/restore/reset/trjob.reset-config-default-test-2x8}

Passing::

    metadata: {name: llama-2x8, namespace: trjob}
    ...
      volumes:
      - name: reset-config
        hostPath: {path: /user/restore/reset/trjob.reset-config-llama-2x8}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ...catalogue.citations import Citation, MC, PL, Place
from ...manifest.values import as_dict
from ...releases import PLUGIN_STACKS
from ...vocabulary import RESET_CONFIGMAP_PREFIX, RESET_SHARED_DIR
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = PLUGIN_STACKS
CITATION = Citation("updateResetConfigMap", PL + "plugin/job.go", MC,
                    also=(Place("", PL + "plugin/type.go (ResetInfoCMNamePrefix)", MC),
                          Place("GenResetDirName", "component/ascend-device-plugin/pkg/common/file_manager.go", MC),
                          Place("", "tests/st/testcases/basic_schedule/training_910b/resources_0001/job_llama-2x8.yaml", MC)))

_FOLDER = RESET_SHARED_DIR + "/"
_MARK = "." + RESET_CONFIGMAP_PREFIX


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.name:
        return
    for pod_set in obj.pod_sets():
        for i, volume in pod_set.volumes():
            path = as_dict(volume.get("hostPath")).get("path")
            if not isinstance(path, str) or not path.startswith(_FOLDER):
                continue
            folder = path[len(_FOLDER):].rstrip("/")
            namespace, mark, job = folder.partition(_MARK)
            if not mark or not namespace or "/" in folder:
                continue  # not a reset folder of the form <namespace>.reset-config-<job>
            wrong = []
            if job != obj.name:
                wrong.append(f"job {job!r}")
            if obj.namespace and namespace != obj.namespace:
                wrong.append(f"namespace {namespace!r}")
            if wrong:
                own = f"{obj.namespace or namespace}{_MARK}{obj.name}"
                yield Problem(pod_set.spec_path + ("volumes", i, "hostPath", "path"),
                              f"the reset folder {path} is for {' and '.join(wrong)}, not this one: the device plugin "
                              f"mirrors this job's restart information into {_FOLDER}{own}, so the pods never read it")
