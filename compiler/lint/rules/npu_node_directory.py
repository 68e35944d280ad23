"""A pod without NPUs mounts a directory that only NPU nodes have.

**What.** Pods that request no NPUs (a MindSpore ``Scheduler``, say) should not
mount the operator's ranktable directory (a ``hostPath`` volume named
``ranktable``) or the reset information the device plugin mirrors under
``/user/restore/reset`` (a ``hostPath`` volume named ``reset-config``).

**Why.** These directories exist on the nodes of the job's NPU pods: the
operator writes ``<namespace>.<job>`` under its shared
``/user/mindx-dl/ranktable`` the device plugin of each NPU node writes
``/user/restore/reset/<namespace>. reset-config-<job>``. An NPU-less pod may
land on a node without them: with ``type: Directory`` it then never starts
(ContainerCreating), without a type the runtime may fail to mount it. Upstream's
samples mount the ranktable on the Workers only, and only the training processes
read either file.

**How to fix.** Remove the volume and its mount from the pods without NPUs.

Failing::

    Scheduler:
      template:
        spec:
          containers: [{name: ascend, image: ms:2.3}]
          volumes:
          - name: ranktable
            hostPath: {path: /user/mindx-dl/ranktable/team.job, type: Directory}

Passing::

    Scheduler:
      template:
        spec:
          containers: [{name: ascend, image: ms:2.3}]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, Optional

from ...catalogue.citations import Citation, MC, Place
from ...vocabulary import RANKTABLE_HOSTPATH_VOLUME, RESET_SHARED_DIR, RESET_VOLUME
from ...manifest.values import as_dict
from ..rule import Problem

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("GenRankTableDir", "component/ascend-operator/pkg/ranktable/utils/util.go", MC,
                    also=(Place("GenResetDirName", "component/ascend-device-plugin/pkg/common/file_manager.go", MC),))


def _node_directory(volume: Dict[str, Any]) -> Optional[str]:
    host_path = as_dict(volume.get("hostPath"))
    if not host_path:
        return None
    if volume.get("name") == RANKTABLE_HOSTPATH_VOLUME:
        return "the ranktable directory"
    path = str(host_path.get("path", ""))
    if volume.get("name") == RESET_VOLUME or path.startswith(RESET_SHARED_DIR + "/"):
        return "the reset information"
    return None


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    if not obj.requests_npus():
        return
    for pod_set in obj.pod_sets():
        if pod_set.npus() > 0:
            continue
        for i, volume in pod_set.volumes():
            what = _node_directory(volume)
            if what:
                yield Problem(pod_set.spec_path + ("volumes", i),
                              f"the {pod_set.role} pods request no NPUs but mount {what} ({volume.get('name')}), "
                              "a directory only the job's NPU nodes have: the pod may never start")
