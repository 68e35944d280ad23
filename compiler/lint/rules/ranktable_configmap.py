"""A job that gets a file ranktable has no ``rings-config-<job>`` ConfigMap in the same lint run.

**What.** A Volcano Job labelled ``ring-controller.atlas`` that requests NPUs,
and any job that mounts a ``rings-config-*`` ConfigMap, needs the ConfigMap
``rings-config-<job name>`` in the same namespace, among the files linted
together (a Volcano Job in one file and its ConfigMap in another are matched;
an unset namespace matches any) or in a YAML file beside the job's file (so a
pre-commit run over the changed files only still finds it). It is an error when the job reads a
ranktable (several NPU pods, or a ranktable volume), and a warning for a
single-pod job that mounts none (an inference service, say: there, remove the
label if no ranktable is wanted).

**Why.** ascend-operator writes the ranktable (``hccl.json``) for such jobs
into the ConfigMap of exactly that name, and only if it exists; the pods
mount it and the start scripts wait for ``status: completed`` (60 × 5 s)
before failing. Without it training never starts. Source:
``MC: component/ascend-operator/pkg/controllers/v1/consts.go``
(``configmapPrefix``), ``pod.go`` (saveRankTableConfigmap),
``MD: samples/train/basic-training/ranktable/rank_table.sh``

**How to fix.** Add the ConfigMap (``ascend-compile compile`` emits it), and lint
it together with the job. If it lives elsewhere, suppress with a reason.

Failing::

    kind: Job                      # batch.volcano.sh/v1alpha1, alone in the run
    metadata:
      name: resnet
      labels: {ring-controller.atlas: ascend-910b}

Passing::

    apiVersion: v1
    kind: ConfigMap
    metadata:
      name: rings-config-resnet
      labels: {ring-controller.atlas: ascend-910b}
    data:
      hccl.json: '{"status":"initializing"}'
    ---
    kind: Job
    metadata:
      name: resnet
      labels: {ring-controller.atlas: ascend-910b}
"""
from ...findings import WARNING
from ..context import as_dict
from ...vocabulary import CONFIG_MAP, RANKTABLE_CONFIGMAP_PREFIX, RING_LABEL, VOLCANO_JOB
from ..rule import Problem


def _configmap_volumes(obj):
    for pod_set, i, volume in obj.ranktable_volumes():
        name = as_dict(volume.get("configMap")).get("name")
        if isinstance(name, str):
            yield pod_set.spec_path + ("volumes", i, "configMap", "name"), name


def facts(obj):
    """The job needs its ConfigMap: (the path to report, at its key?, severity), else None."""
    if not obj.name:
        return None
    mounted = list(_configmap_volumes(obj))
    if obj.uses_file_ranktable() or mounted:
        severity = None
    elif obj.kind == VOLCANO_JOB and RING_LABEL in obj.labels and obj.requests_npus():
        severity = WARNING
    else:
        return None
    path = mounted[0][0] if mounted else ("metadata", "labels", RING_LABEL)
    return path, not mounted, severity


def judge(job, fact, run):
    path, key, severity = fact
    wanted = RANKTABLE_CONFIGMAP_PREFIX + job.name
    if run.find(CONFIG_MAP, wanted, job.namespace, near=job) or run.exists_beside(CONFIG_MAP, wanted, job.namespace, job):
        return
    where = f" in namespace {job.namespace}" if job.namespace else ""
    yield Problem(path, f"no ConfigMap {wanted}{where} among the linted files or beside the job's file: ascend-operator writes the "
                        "ranktable only into an existing ConfigMap, so the pods never get it",
                  key=key, severity=severity)
