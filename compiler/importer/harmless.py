"""The differences between a compiled job and a hand-written one that the cluster does not act on differently,
accepted by ``import`` (unless ``--exact``) instead of being carried through ``jobPatch``.

:func:`accept` returns the hand-written job with each such difference taken over from the compiled one, and
one note per kind of difference (the comment at the top of the imported spec lists them). Each kind is
harmless for a reason named in its note: a default the API server, the Volcano webhook or the operator fills
in anyway, a mount or env value the Ascend runtime reads the same way, a path that names the same directory.
What is not in this list is carried, field or patch: nothing else is given up.
"""
from __future__ import annotations

import copy
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from ..vocabulary import (ASCEND_JOB, DEFAULT_NAMESPACE, DEFAULT_PORT, DEFAULT_QUEUE, DRIVER_VOLUME, HCCL_IF_IP_ENV,
                          LOCALTIME_VOLUME, POD_UID_ENV, PORT_NAME, RANKTABLE_CONFIGMAP_VOLUME, RANKTABLE_MOUNT_PATH,
                          RESET_VOLUME, RING_LABEL, SHM_VOLUME, TASKD_PORT_NAME, VISIBLE_DEVICES_ENV, WORKER,
                          XDL_IP_ENV)

Notes = List[str]

#: volumes the compiler mounts in every pod that change nothing a job relies on when it lacks them
_ADDED_VOLUMES = {
    SHM_VOLUME: "the /dev/shm memory volume (a larger /dev/shm than the container runtime's 64 MiB)",
    LOCALTIME_VOLUME: "the host's /etc/localtime (the pods' clock shows the node's time zone)",
    DRIVER_VOLUME: "the host's /usr/local/Ascend/driver (what Ascend Docker Runtime mounts anyway)",
    RANKTABLE_CONFIGMAP_VOLUME: f"the job's ranktable ConfigMap at {RANKTABLE_MOUNT_PATH} (the manifest has the "
                                "ConfigMap; the pods may read the file, nothing waits for it)",
    RESET_VOLUME: "the node's reset information for the job, read-only (TaskD reads it; nothing else does)",
}
#: env values the compiler writes that read what the pod already is (its node's IP, its UID, its devices)
_ADDED_ENV = {HCCL_IF_IP_ENV, XDL_IP_ENV, POD_UID_ENV, VISIBLE_DEVICES_ENV, "POD_IP"}
_VOLCANO_JOB_DEFAULTS = {"queue": DEFAULT_QUEUE, "maxRetry": 3, "schedulerName": "volcano"}


def _templates(generated: Dict[str, Any], original: Dict[str, Any]) -> Iterator[Tuple[str, Dict[str, Any],
                                                                                      Dict[str, Any]]]:
    """(replica type or task, compiled pod-set entry, hand-written pod-set entry) for each pod set of both:
    an AscendJob's replica specs by type, a Volcano Job's tasks in order (by name if they are not as many)."""
    gen_spec, orig_spec = _dict(generated.get("spec")), _dict(original.get("spec"))
    if generated.get("kind") == ASCEND_JOB:
        mine, theirs = _dict(gen_spec.get("replicaSpecs")), _dict(orig_spec.get("replicaSpecs"))
        for role, entry in theirs.items():
            if isinstance(entry, dict) and isinstance(mine.get(role), dict):
                yield str(role), mine[role], entry
        return
    made = [t for t in _list(gen_spec.get("tasks")) if isinstance(t, dict)]
    had = [t for t in _list(orig_spec.get("tasks")) if isinstance(t, dict)]
    if len(made) == len(had):
        yield from ((str(t.get("name")), m, t) for m, t in zip(made, had))
        return
    by_name = {m.get("name"): m for m in made}
    yield from ((str(t.get("name")), by_name[t.get("name")], t) for t in had if t.get("name") in by_name)


def _dict(value: Any) -> Dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> List[Any]:
    return value if isinstance(value, list) else []


def _pod(entry: Dict[str, Any]) -> Dict[str, Any]:
    return _dict(_dict(entry.get("template")).get("spec"))


def _first_container(entry: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    containers = _list(_pod(entry).get("containers"))
    return containers[0] if containers and isinstance(containers[0], dict) else None


def _by_name(items: Any) -> Dict[Any, Dict[str, Any]]:
    return {i.get("name"): i for i in _list(items) if isinstance(i, dict) and isinstance(i.get("name"), str)}


# --------------------------------------------------------------------------- the kinds of difference

def _task_names(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    if kind == ASCEND_JOB or made.get("name") == had.get("name") or not isinstance(had.get("name"), str):
        return
    notes.append(f"the task {had['name']!r} is named {made['name']!r} (its pods' host names follow the task "
                 "name; the ranktable and the scheduler use the pods' IPs)")
    had["name"] = made["name"]


def _container_names(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    mine, theirs = _first_container(made), _first_container(had)
    if kind == ASCEND_JOB or mine is None or theirs is None or mine.get("name") == theirs.get("name"):
        return  # an AscendJob's container must be named ascend: the operator looks for it
    notes.append(f"the container {theirs.get('name')!r} is named {mine.get('name')!r} (nothing in the "
                 "cluster reads a Volcano Job's container name)")
    theirs["name"] = mine.get("name")


def _volumes(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    """The compiler's standard volumes a hand-written pod lacks (when nothing else is mounted there), and paths
    that differ only in a trailing slash."""
    mine, theirs = _first_container(made), _first_container(had)
    if mine is None or theirs is None:
        return
    pod, their_pod = _pod(made), _pod(had)
    if not (_appendable(their_pod, "volumes") and _appendable(theirs, "volumeMounts")):
        return
    volumes, their_volumes = _by_name(pod.get("volumes")), _by_name(their_pod.get("volumes"))
    mounts, their_mounts = _by_name(mine.get("volumeMounts")), _by_name(theirs.get("volumeMounts"))
    taken = {m.get("mountPath") for m in their_mounts.values()}
    for name, why in _ADDED_VOLUMES.items():
        if name not in volumes or name not in mounts or name in their_volumes or name in their_mounts \
                or mounts[name].get("mountPath") in taken:
            continue
        their_pod.setdefault("volumes", []).append(copy.deepcopy(volumes[name]))
        theirs.setdefault("volumeMounts", []).append(copy.deepcopy(mounts[name]))
        notes.append(f"every pod also mounts {why}")
    for name, volume in their_volumes.items():
        for source in ("nfs", "hostPath"):
            path = _dict(volume.get(source)).get("path")
            made_path = _dict(_dict(volumes.get(name)).get(source)).get("path")
            if isinstance(path, str) and isinstance(made_path, str) and path != made_path \
                    and path.rstrip("/") == made_path.rstrip("/") and made_path.rstrip("/"):
                volume[source]["path"] = made_path
                notes.append(f"the {source} path {path!r} of volume {name!r} is written {made_path!r} (the same "
                             "directory)")


def _appendable(holder: Dict[str, Any], key: str) -> bool:
    """``holder[key]`` is a list or absent, so an item can be added: an explicit null (or a value of another type)
    stays as it is, for the patch step to refuse (no spec carries it) or the schema check to report."""
    return isinstance(holder.get(key, []), list)


def _env(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    mine, theirs = _first_container(made), _first_container(had)
    if mine is None or theirs is None or not _appendable(theirs, "env"):
        return
    their_env = _by_name(theirs.get("env"))
    for name, item in _by_name(mine.get("env")).items():
        if name in _ADDED_ENV and name not in their_env:
            theirs.setdefault("env", []).append(copy.deepcopy(item))
            notes.append(f"the env {name} is set, from the pod's own {_source(item)} (the Ascend runtime and "
                         "start scripts read it; nothing else does)")


def _source(item: Dict[str, Any]) -> str:
    path = _dict(_dict(item.get("valueFrom")).get("fieldRef")).get("fieldPath")
    return str(path) if path else "value"


def _pod_defaults(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    pod, their_pod = _pod(made), _pod(had)
    if not their_pod:
        return
    if pod.get("dnsPolicy") == "ClusterFirstWithHostNet" and their_pod.get("hostNetwork") is True \
            and "dnsPolicy" not in their_pod:
        their_pod["dnsPolicy"] = pod["dnsPolicy"]
        notes.append("dnsPolicy: ClusterFirstWithHostNet is written out with hostNetwork (Volcano's webhook sets "
                     "it too; without it a host-network pod cannot resolve cluster names)")
    if "automountServiceAccountToken" in pod and "automountServiceAccountToken" not in their_pod:
        their_pod["automountServiceAccountToken"] = pod["automountServiceAccountToken"]
        notes.append("automountServiceAccountToken: false (a training pod does not call the API server)")
    affinity = _dict(pod.get("affinity"))
    if set(affinity) == {"podAntiAffinity"} and "affinity" not in their_pod:
        their_pod["affinity"] = copy.deepcopy(affinity)
        notes.append("a pod anti-affinity keeps the job's pods on different nodes (the Ascend plugin places "
                     "whole-node jobs one pod per node anyway)")
    if kind == ASCEND_JOB:
        _operator_port(made, had, notes)
        for key, default in (("replicas", 1), ("restartPolicy", "Never")):
            if made.get(key) == default and key not in had:
                had[key] = default
                notes.append(f"{key}: {default} is written out (the operator's default)")


def _taskd_port(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    """TaskD's port, declared: a container port is information only (it opens and binds nothing)."""
    mine, theirs = _first_container(made), _first_container(had)
    port = _by_name((mine or {}).get("ports")).get(TASKD_PORT_NAME)
    if theirs is None or port is None or not _appendable(theirs, "ports") \
            or TASKD_PORT_NAME in _by_name(theirs.get("ports")) \
            or port.get("containerPort") in {p.get("containerPort") for p in _list(theirs.get("ports"))
                                             if isinstance(p, dict)}:
        return
    theirs.setdefault("ports", []).append(copy.deepcopy(port))
    notes.append(f"the port {TASKD_PORT_NAME} is declared (a container port opens nothing; TaskD listens on it "
                 "either way)")


def _operator_port(made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    """The leader's port, which the operator adds to a container that has no port of that name."""
    mine, theirs = _first_container(made), _first_container(had)
    port = _by_name((mine or {}).get("ports")).get(PORT_NAME)
    if theirs is None or port is None or port.get("containerPort") != DEFAULT_PORT \
            or not _appendable(theirs, "ports") or PORT_NAME in _by_name(theirs.get("ports")):
        return
    theirs.setdefault("ports", []).append(copy.deepcopy(port))
    notes.append(f"the port {PORT_NAME} ({DEFAULT_PORT}) is written out (the operator adds it to every replica "
                 f"but {WORKER} that lacks it)")


def _ring_label(generated: Dict[str, Any], original: Dict[str, Any], notes: Notes) -> None:
    """The ring-controller.atlas label on pods, and on an AscendJob: upstream acts on it only on the workload of a
    Volcano Job (the operator writes its ranktable for it) and for dynamic vNPU, which a whole-card job is not."""
    holders = [(m.get("template"), h.get("template")) for _, m, h in _templates(generated, original)]
    if generated.get("kind") == ASCEND_JOB:
        holders.insert(0, (generated, original))
    added = False
    for mine, theirs in holders:
        value = _dict(_dict(_dict(mine).get("metadata")).get("labels")).get(RING_LABEL)
        if not isinstance(theirs, dict) or value is None or not isinstance(theirs.get("metadata"), (dict, type(None))):
            continue
        meta = theirs["metadata"] = theirs.get("metadata") or {}
        if not isinstance(meta.get("labels"), (dict, type(None))) or RING_LABEL in (meta.get("labels") or {}):
            continue
        meta["labels"] = {**(meta.get("labels") or {}), RING_LABEL: value}
        added = True
    if added:
        notes.append(f"the label {RING_LABEL} is set on the pods" + (" and the AscendJob" if generated.get("kind")
                                                                      == ASCEND_JOB else "")
                     + " (upstream reads it on a Volcano Job itself, and for dynamic vNPU)")


def _anti_affinity(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    """A required one-pod-per-node anti-affinity whose selector differs (another job's name, another label key):
    the compiler's spreads the job's own pods over nodes, which whole-node NPU requests do anyway."""
    pod, their_pod = _pod(made), _pod(had)
    mine, theirs = _dict(pod.get("affinity")), _dict(their_pod.get("affinity"))
    if set(mine) != {"podAntiAffinity"} or set(theirs) != {"podAntiAffinity"} or mine == theirs:
        return
    terms = [_list(_dict(a.get("podAntiAffinity")).get("requiredDuringSchedulingIgnoredDuringExecution"))
             for a in (mine, theirs)]
    if set(_dict(theirs["podAntiAffinity"])) != {"requiredDuringSchedulingIgnoredDuringExecution"} or not all(
            len(t) == 1 and isinstance(t[0], dict) and t[0].get("topologyKey") == "kubernetes.io/hostname"
            for t in terms):
        return
    their_pod["affinity"] = copy.deepcopy(mine)
    notes.append("the pod anti-affinity (one pod per node) selects the job's own pods (the manifest's selects "
                 "others; a whole-node NPU request places one pod per node anyway)")


def _job_defaults(generated: Dict[str, Any], original: Dict[str, Any], notes: Notes) -> None:
    mine, theirs = _dict(generated.get("spec")), _dict(original.get("spec"))
    if generated.get("kind") == ASCEND_JOB:
        if mine.get("successPolicy") is not None and "successPolicy" not in theirs:
            theirs["successPolicy"] = mine["successPolicy"]
            notes.append("successPolicy is written out (the operator does not read it)")
        _min_available(mine, theirs, notes)
        return
    for key, default in _VOLCANO_JOB_DEFAULTS.items():
        if mine.get(key) == default and key not in theirs:
            theirs[key] = default
            notes.append(f"{key}: {default} is written out (Volcano's default)")
    tasks = [t for t in _list(mine.get("tasks")) if isinstance(t, dict)]
    total = sum(int(t["replicas"]) for t in tasks if isinstance(t.get("replicas"), int))
    if mine.get("minAvailable") == total and "minAvailable" not in theirs:
        theirs["minAvailable"] = total
        notes.append("minAvailable is written out (Volcano's default: every pod)")


def _min_available(mine: Dict[str, Any], theirs: Dict[str, Any], notes: Notes) -> None:
    """An AscendJob's runPolicy.schedulingPolicy.minAvailable of every pod: the operator's PodGroup asks for every
    replica when the job gives none (minMember is the replicas' sum then)."""
    made = _dict(_dict(mine.get("runPolicy")).get("schedulingPolicy")).get("minAvailable")
    total = sum(r["replicas"] for r in _dict(mine.get("replicaSpecs")).values()
                if isinstance(r, dict) and isinstance(r.get("replicas"), int))
    run = theirs.get("runPolicy", {})
    policy = run.get("schedulingPolicy", {}) if isinstance(run, dict) else None
    if made != total or not isinstance(policy, dict) or "minAvailable" in policy:
        return
    theirs["runPolicy"] = {**run, "schedulingPolicy": {**policy, "minAvailable": total}}
    notes.append("minAvailable is written out (the operator's default: every pod)")


def _pull_policy(kind: str, made: Dict[str, Any], had: Dict[str, Any], notes: Notes) -> None:
    """imagePullPolicy IfNotPresent on a container whose image has a tag other than latest (or a digest): the API
    server's default for it."""
    mine, theirs = _first_container(made), _first_container(had)
    image = (theirs or {}).get("image")
    if mine is None or theirs is None or mine.get("imagePullPolicy") != "IfNotPresent" \
            or "imagePullPolicy" in theirs or not isinstance(image, str) or not _tagged(image):
        return
    theirs["imagePullPolicy"] = "IfNotPresent"
    notes.append("imagePullPolicy: IfNotPresent is written out (the API server's default for an image with a tag "
                 "other than latest)")


def _tagged(image: str) -> bool:
    """The image names a digest, or a tag other than ``latest`` (a port in the registry's host is not a tag)."""
    if "@" in image:
        return True
    last = image.rsplit("/", 1)[-1]
    return ":" in last and last.rsplit(":", 1)[1] not in ("", "latest")


_PER_POD_SET: Tuple[Callable[[str, Dict[str, Any], Dict[str, Any], Notes], None], ...] = (
    _task_names, _container_names, _volumes, _env, _pod_defaults, _anti_affinity, _taskd_port, _pull_policy)


def _namespace(generated: Dict[str, Any], original: Dict[str, Any], notes: Notes) -> None:
    """``namespace: default`` on a job that names none, where what comes with it says it runs there (import
    gives the spec that namespace only then: :func:`ascend_compile.importer.implied_namespace`)."""
    made, had = _dict(generated.get("metadata")), original.get("metadata")
    if made.get("namespace") == DEFAULT_NAMESPACE and isinstance(had, dict) and not had.get("namespace"):
        had["namespace"] = DEFAULT_NAMESPACE
        notes.append(f"the job and its ConfigMaps name the namespace {DEFAULT_NAMESPACE}, where the manifest's own "
                     "ConfigMaps or shared ranktable and reset paths say it runs (the manifest names none: it goes "
                     "to the namespace kubectl is told)")


def accept_object(generated: Dict[str, Any], original: Dict[str, Any]) -> Dict[str, Any]:
    """A ConfigMap of the job as the spec may write it: in ``default`` where the manifest's names none (the job's
    note says so)."""
    made, had = _dict(generated.get("metadata")), original.get("metadata")
    if made.get("namespace") != DEFAULT_NAMESPACE or not isinstance(had, dict) or had.get("namespace"):
        return original
    return {**original, "metadata": {**had, "namespace": DEFAULT_NAMESPACE}}


def accept(generated: Dict[str, Any], original: Dict[str, Any]) -> Tuple[Dict[str, Any], List[str]]:
    """``original`` with the harmless differences from ``generated`` taken over, and a note for each kind."""
    out = copy.deepcopy(original)
    notes: Notes = []
    kind = str(generated.get("kind"))
    if kind != out.get("kind"):
        return out, []
    _namespace(generated, out, notes)
    _job_defaults(generated, out, notes)
    _ring_label(generated, out, notes)
    for _, made, had in list(_templates(generated, out)):
        for one in _PER_POD_SET:
            one(kind, made, had, notes)
    return out, sorted(set(notes))
