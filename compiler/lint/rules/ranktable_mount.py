"""A ranktable volume is not mounted at ``/user/serverid/devindex/config``, or names another job's ConfigMap.

**What.** For a Volcano Job labelled ``ring-controller.atlas`` with several NPU pods (or
any ranktable volume), the
pod template needs a volume from ConfigMap ``rings-config-<job>`` and every
NPU container must mount it at ``/user/serverid/devindex/config``. The same
mount is required wherever a job (AscendJob too) has a ``rings-config-*``
ConfigMap volume or a volume named ``ranktable``. A ``rings-config-*`` volume
must name this job's ConfigMap.

**Why.** The operator writes ``hccl.json`` into ``rings-config-<job>`` only (in
every supported release; it never reads the job's volumes to find another), so
pods without that volume never see the ranktable: the job runs, very likely not
as intended (a warning). A ``rings-config-*`` volume that names another
ConfigMap (a job renamed in one place only) is worse. Where that ConfigMap does
not exist, the kubelet never starts the pods (``ContainerCreating``, the volume
cannot be mounted). Where it exists, it is never written and keeps what it was
created with (upstream's samples create it with status ``initializing``), so the
pods never get a ranktable: a start script that waits for ``status: completed``
waits in vain (how long, and what it does then, depends on the script's
revision). Either way the job never trains: an error. The mount path is a convention of upstream's sample scripts, which read
``/user/serverid/devindex/config/hccl.json`` (``RANK_TABLE_FILE``); another path works
with a script that reads it there, so a different path is a note (info), and only for a
container that runs upstream's ``train_start.sh`` (a container that runs anything else,
such as upstream's kwok test jobs that sleep, reads the file where its own command
says).

**How to fix.** Add the volume and the mount as in the samples.

Failing::

    volumeMounts:
    - name: ascend-910-config
      mountPath: /user/config

Passing::

    volumeMounts:
    - name: ascend-910-config
      mountPath: /user/serverid/devindex/config
    ...
    volumes:
    - name: ascend-910-config
      configMap: {name: rings-config-resnet}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Tuple

from ...catalogue.citations import AT, Citation, MC, MD, OP, Place, in_every_release
from ...findings import ERROR, INFO
from ...manifest.values import as_dict, as_list
from ...releases import MINDCLUSTER_DEVICE_STACKS
from ...vocabulary import RANKTABLE_CONFIGMAP_PREFIX, RANKTABLE_HOSTPATH_VOLUME, RANKTABLE_MOUNT_PATH, START_SCRIPT
from ..rule import Problem
from ._util import command_text, npu_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

STACKS = MINDCLUSTER_DEVICE_STACKS
CITATION = Citation("saveRankTableConfigmap", OP + "pod.go", MC,
                    also=(*in_every_release("writeRanktableToCm", OP + "ascendjob_controller.go"),
                          Place("", OP + "consts.go (configmapPrefix, every release)", AT["v26.1.0"]),
                          Place("", "samples/train/basic-training/ranktable/rank_table.sh (check_hccl_status: 60 tries "
                                    "5 s apart, then exit 1; every revision since 2023-06-01)", MD)))

#: the facts this rule's per-release claim rests on through the files compiler/releases.py cites, not a release
#: cluster, and why (lint/proofs.py)
CITED_FACTS = (
    ('ranktable-configmap',
     'the simulated cluster cannot show that the pods then wait for a ranktable, or exit after about 5 '
     "minutes: that is the start script's doing, and the simulated containers run none; that the operator "
     'writes only the ConfigMap named for the job is shown (claim renamed-ranktable)'),
)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    needs = obj.uses_file_ranktable()
    if not needs and not obj.ranktable_volumes():
        return  # nothing mounted to check, nothing missing
    wanted = RANKTABLE_CONFIGMAP_PREFIX + obj.name
    by_pod_set: Dict[int, List[Tuple[int, Dict[str, Any]]]] = {}
    for pod_set, i, volume in obj.ranktable_volumes():
        by_pod_set.setdefault(id(pod_set), []).append((i, volume))
    for pod_set in obj.pod_sets():
        ranktable_volumes = []
        for i, volume in by_pod_set.get(id(pod_set), ()):
            cm_name = as_dict(volume.get("configMap")).get("name")
            if isinstance(cm_name, str) and cm_name.startswith(RANKTABLE_CONFIGMAP_PREFIX):
                if obj.name and cm_name != wanted:
                    yield Problem(pod_set.spec_path + ("volumes", i, "configMap", "name"),
                                  f"volume {volume.get('name')!r} uses ConfigMap {cm_name}, but the operator "
                                  f"writes this job's ranktable only into {wanted}: where {cm_name} does not exist, "
                                  "the kubelet never starts the pods (ContainerCreating); where it exists, it keeps "
                                  "what it was created with (upstream's samples: status initializing), so the pods "
                                  "never get a ranktable", severity=ERROR, hint=f"name ConfigMap {wanted}")
                ranktable_volumes.append(volume.get("name"))
            else:  # the other kind of ranktable volume: named so
                ranktable_volumes.append(RANKTABLE_HOSTPATH_VOLUME)
        containers = npu_containers(pod_set)
        if not containers:
            continue
        if not ranktable_volumes:
            if needs:
                where = pod_set.spec_path + ("volumes",)
                yield Problem(where, f"the {pod_set.role} pods have no volume from ConfigMap {wanted}, so they "
                                     "cannot read the ranktable", key=True)
            continue
        for container in containers:
            mounts = as_list(container.data.get("volumeMounts"))
            if any(isinstance(m, dict) and m.get("name") in ranktable_volumes
                   and str(m.get("mountPath", "")).rstrip("/") == RANKTABLE_MOUNT_PATH for m in mounts):
                continue
            wrong = next(((j, m) for j, m in enumerate(mounts)  # j: its place among all the entries
                          if isinstance(m, dict) and m.get("name") in ranktable_volumes), None)
            if wrong is not None:
                if START_SCRIPT not in command_text(container):  # a path only upstream's script insists on
                    continue
                yield Problem(container.path + ("volumeMounts", wrong[0], "mountPath"),
                              f"the ranktable volume is mounted at {wrong[1].get('mountPath')!r}; the scripts "
                              f"read {RANKTABLE_MOUNT_PATH}/hccl.json", severity=INFO)
            else:
                where = container.path + ("volumeMounts",) if "volumeMounts" in container.data \
                    else container.path + ("name",)
                yield Problem(where, f"container {container.name!r} does not mount the ranktable volume at "
                                     f"{RANKTABLE_MOUNT_PATH}", key="volumeMounts" in container.data)
