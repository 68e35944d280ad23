"""Lint's verdict on single-field mutations of a golden matches upstream's, on the simulated cluster.

Each case changes one field of the module-910b-8 goldens (a job that runs as written), or renames the
job, and names the lint rule it trips (or, with no severity, a rule that must stay silent).  An
error-level finding must mean upstream rejects the job or never schedules it; a warning (or no finding)
must mean the job is accepted and runs (the consequence is elsewhere: no ranktable), but where the warning
is about an object the cluster may hold (:data:`CLUSTER_HOLDS`).  All cases share one oracle run.
"""
from __future__ import annotations

import copy
import json
from typing import Any, Callable, Dict, List, Optional, Tuple

import pytest
import yaml

from tests.checkout import ROOT
from tests.simcluster.cluster import SimCluster
from tests.simcluster.oracle import Verdict, judge_manifests
from tests.simcluster.releases import lint_target

GOLDEN = ROOT / "golden" / "matrix"
Docs = List[Dict[str, Any]]


def _golden(name: str) -> Docs:
    return [d for d in yaml.safe_load_all((GOLDEN / f"{name}.yaml").read_text()) if d]


def _job(docs: Docs) -> Dict[str, Any]:
    return next(d for d in docs if d["kind"] in ("AscendJob", "Job"))


def _templates(job: Dict[str, Any]) -> List[Dict[str, Any]]:
    if job["kind"] == "Job":
        return [t["template"] for t in job["spec"]["tasks"]]
    return [r["template"] for r in job["spec"]["replicaSpecs"].values()]


def _bad_mount(docs: Docs) -> None:
    _templates(_job(docs))[-1]["spec"]["containers"][0]["volumeMounts"].append({"name": "nope", "mountPath": "/x"})


def _duplicate_event(docs: Docs) -> None:
    _job(docs)["spec"]["policies"] = [{"event": "PodEvicted", "action": "RestartJob"},
                                      {"event": "PodEvicted", "action": "AbortJob"}]


def _min_available_over_replicas(docs: Docs) -> None:
    _job(docs)["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] = 3  # Master 1 + Worker 1


def _host_arch(value: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            template["spec"]["nodeSelector"]["host-arch"] = value
    return mutate


def _job_scheduler(docs: Docs) -> None:
    _job(docs)["spec"]["schedulerName"] = "default-scheduler"


def _pod_scheduler(docs: Docs) -> None:
    for template in _templates(_job(docs)):
        template["spec"]["schedulerName"] = "default-scheduler"


def _no_ring_label(docs: Docs) -> None:
    job = _job(docs)
    del job["metadata"]["labels"]["ring-controller.atlas"]
    for template in _templates(job):
        template["metadata"]["labels"].pop("ring-controller.atlas", None)


def _configmap_renamed(docs: Docs) -> None:
    next(d for d in docs if d["kind"] == "ConfigMap")["metadata"]["name"] = "rings-config-other"


def _renamed(new: str, drop: Tuple[str, ...] = ()) -> Callable[[Docs], None]:
    """The job renamed everywhere its name appears (as a user would), without the Volcano plugins ``drop``."""
    def mutate(docs: Docs) -> None:
        old = _job(docs)["metadata"]["name"]
        docs[:] = json.loads(json.dumps(docs).replace(old, new))
        for plugin in drop:
            del _job(docs)["spec"]["plugins"][plugin]
    return mutate


def _leader_port(name: Optional[str], number: int) -> Callable[[Docs], None]:
    """The Master's ascend container's one port: ``name`` (None: no name) on ``number``."""
    def mutate(docs: Docs) -> None:
        port: Dict[str, Any] = {"containerPort": number}
        if name:
            port["name"] = name
        _job(docs)["spec"]["replicaSpecs"]["Master"]["template"]["spec"]["containers"][0]["ports"] = [port]
    return mutate


def _cpu_over_limit(docs: Docs) -> None:
    resources = _templates(_job(docs))[-1]["spec"]["containers"][0]["resources"]
    resources["requests"]["cpu"], resources["limits"]["cpu"] = "16", "8"


def _field_path_typo(docs: Docs) -> None:
    for template in _templates(_job(docs)):
        for env in template["spec"]["containers"][0].get("env") or []:
            ref = (env.get("valueFrom") or {}).get("fieldRef") or {}
            if ref.get("fieldPath", "").startswith("metadata.annotations["):
                ref["fieldPath"] = ref["fieldPath"].replace("annotations", "annotation", 1)


def _env_from(source: Dict[str, Any], value: Optional[str] = None, name: str = "DOWNWARD") -> Callable[[Docs], None]:
    """The last pod's first container gets an env var read from ``source`` (and a ``value`` beside it)."""
    def mutate(docs: Docs) -> None:
        item: Dict[str, Any] = {"name": name, "valueFrom": source}
        if value is not None:
            item["value"] = value
        _first_container(docs).setdefault("env", []).append(item)
    return mutate


def _downward_files(*items: Dict[str, Any]) -> Callable[[Docs], None]:
    """The last pod gets a downwardAPI volume of ``items``, mounted in its first container."""
    def mutate(docs: Docs) -> None:
        spec = _templates(_job(docs))[-1]["spec"]
        spec.setdefault("volumes", []).append({"name": "podinfo", "downwardAPI": {"items": list(items)}})
        spec["containers"][0].setdefault("volumeMounts", []).append({"name": "podinfo", "mountPath": "/etc/podinfo"})
    return mutate


def _downward_valid_forms(docs: Docs) -> None:
    """Forms AC708 must not flag: whole label and annotation maps in a volume, divisors as Kubernetes takes them."""
    name = _first_container(docs)["name"]
    for number, env in enumerate(({"fieldRef": {"fieldPath": "metadata.labels['app.kubernetes.io/name']"}},
                                  {"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1m"}},
                                  {"resourceFieldRef": {"resource": "requests.cpu", "divisor": "1000m"}},
                                  {"resourceFieldRef": {"resource": "requests.memory", "divisor": "1Mi"}})):
        _env_from(env, name=f"DOWNWARD_{number}")(docs)
    _downward_files({"path": "labels", "fieldRef": {"fieldPath": "metadata.labels"}},
                    {"path": "meta/annotations", "fieldRef": {"fieldPath": "metadata.annotations"}},
                    {"path": "devices", "fieldRef": {"fieldPath": "metadata.annotations['Huawei.com/Ascend910']"}},
                    {"path": "memory", "resourceFieldRef": {"containerName": name, "resource": "limits.memory",
                                                            "divisor": "1Ki"}})(docs)


_NAME = {"fieldRef": {"fieldPath": "metadata.name"}}


def _resource_910b(docs: Docs) -> None:
    for template in _templates(_job(docs)):
        resources = template["spec"]["containers"][0]["resources"]
        for part in ("requests", "limits"):
            resources[part]["huawei.com/Ascend910B"] = resources[part].pop("huawei.com/Ascend910")


def _hami_whole_cards(docs: Docs) -> None:
    """Whole cards by HAMi's chip-model name, on pods carrying HAMi's vnpu-mode annotation."""
    _resource_910b(docs)
    for template in _templates(_job(docs)):
        template.setdefault("metadata", {}).setdefault("annotations", {})["huawei.com/vnpu-mode"] = "hami-core"


def _hami_memory(docs: Docs) -> None:
    """Every pod also asks for HAMi's vNPU memory resource beside its NPUs, as pods written for HAMi do."""
    for template in _templates(_job(docs)):
        resources = template["spec"]["containers"][0]["resources"]
        for part in ("requests", "limits"):
            resources[part]["huawei.com/Ascend910-memory"] = 4096


def _first_container(docs: Docs) -> Dict[str, Any]:
    return _templates(_job(docs))[-1]["spec"]["containers"][0]


def _volume_renamed(new: str) -> Callable[[Docs], None]:
    """The first volume of the last pod template (and its mounts) renamed ``new``."""
    def mutate(docs: Docs) -> None:
        spec = _templates(_job(docs))[-1]["spec"]
        old = spec["volumes"][0]["name"]
        spec["volumes"][0]["name"] = new
        for container in spec["containers"]:
            for mount in container.get("volumeMounts", []):
                if mount["name"] == old:
                    mount["name"] = new
    return mutate


def _port_named(name: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _first_container(docs).setdefault("ports", []).append({"name": name, "containerPort": 29500})
    return mutate


def _env_named(name: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _first_container(docs).setdefault("env", []).append({"name": name, "value": "1"})
    return mutate


def _pull_policy(docs: Docs) -> None:
    _first_container(docs)["imagePullPolicy"] = "always"


def _mount_path_twice(docs: Docs) -> None:
    mounts = _first_container(docs)["volumeMounts"]
    mounts.append({"name": mounts[0]["name"], "mountPath": mounts[0]["mountPath"]})


def _host_port_twice(docs: Docs) -> None:
    """The last pod's first container and a new sidecar both ask for host port 18080 (TCP, any IP)."""
    spec = _templates(_job(docs))[-1]["spec"]
    spec["containers"][0].setdefault("ports", []).append({"name": "metrics", "containerPort": 18080,
                                                          "hostPort": 18080})
    spec["containers"].append({"name": "exporter", "image": "busybox", "command": ["sleep", "infinity"],
                               "ports": [{"name": "exporter", "containerPort": 18080, "hostPort": 18080}]})


def _toleration(operator: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            template["spec"].setdefault("tolerations", []).append(
                {"key": "node.kubernetes.io/unreachable", "operator": operator, "effect": "NoExecute"})
    return mutate


def _host_arch_key(key: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            selector = template["spec"]["nodeSelector"]
            selector[key] = selector.pop("host-arch", "huawei-arm")
    return mutate


def _strategy_310(value: Optional[str]) -> Callable[[Docs], None]:
    """The job's npu-310-strategy label set to ``value`` (None: removed)."""
    def mutate(docs: Docs) -> None:
        labels = _job(docs)["metadata"]["labels"]
        if value is None:
            labels.pop("npu-310-strategy", None)
        else:
            labels["npu-310-strategy"] = value
    return mutate


def _npus_310p(count: int, duo: bool) -> Callable[[Docs], None]:
    """Every pod asks for ``count`` NPUs; without ``duo``, the job loses its duo: "true" label."""
    def mutate(docs: Docs) -> None:
        job = _job(docs)
        if not duo:
            del job["metadata"]["labels"]["duo"]
        for template in _templates(job):
            for part in ("requests", "limits"):
                template["spec"]["containers"][0]["resources"][part]["huawei.com/Ascend310P"] = count
    return mutate


def _pod_labels(**labels: str) -> Callable[[Docs], None]:
    """Every pod template gets ``labels`` (keys with ``_`` for ``-``), the job's own labels unchanged."""
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            template.setdefault("metadata", {}).setdefault("labels", {}).update(
                {key.replace("_", "-"): value for key, value in labels.items()})
    return mutate


def _distributed_310p(docs: Docs) -> None:
    """The job gets distributed: "true" and a Worker like its Master: two NPU pods."""
    _job(docs)["metadata"]["labels"]["distributed"] = "true"
    _two_pods(docs)


def _two_pods(docs: Docs) -> None:
    """The AscendJob gets a Worker like its Master: two NPU pods."""
    job = _job(docs)
    job["spec"]["replicaSpecs"]["Worker"] = copy.deepcopy(job["spec"]["replicaSpecs"]["Master"])
    job["spec"]["runPolicy"]["schedulingPolicy"]["minAvailable"] = 2


def _then(*mutations: Callable[[Docs], None]) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for mutation in mutations:
            mutation(docs)
    return mutate


def _vc_310(job_value: Optional[str], pod_value: Optional[str]) -> Callable[[Docs], None]:
    """The module-910b-8 Volcano Job as an Atlas 300 job (4 x Ascend310 a pod, no accelerator-type), with
    npu-310-strategy ``job_value`` on the job and ``pod_value`` on its pod templates (None: no label)."""
    def mutate(docs: Docs) -> None:
        text = json.dumps(docs).replace("huawei.com/Ascend910", "huawei.com/Ascend310")
        docs[:] = json.loads(text.replace("ascend-910b", "ascend-310"))
        job = _job(docs)
        if job_value is not None:
            job["metadata"]["labels"]["npu-310-strategy"] = job_value
        for template in _templates(job):
            del template["spec"]["nodeSelector"]["accelerator-type"]
            if pod_value is not None:
                template["metadata"]["labels"]["npu-310-strategy"] = pod_value
            for part in ("requests", "limits"):
                template["spec"]["containers"][0]["resources"][part]["huawei.com/Ascend310"] = 4
    return mutate


def _npus_written(value: Any) -> Callable[[Docs], None]:
    """Every pod's 8 NPUs written as another amount (8.0, "8000m"; "500m", "-1") in requests and limits."""
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            for part in ("requests", "limits"):
                amounts = template["spec"]["containers"][0]["resources"][part]
                amounts.update({name: value for name in amounts if name.startswith("huawei.com/")})
    return mutate


def _npus_on_init_only(docs: Docs) -> None:
    """The last pod template's NPUs move from its first container to a new init container."""
    spec = _templates(_job(docs))[-1]["spec"]
    resources = spec["containers"][0].pop("resources")
    spec["initContainers"] = [{"name": "warmup", "image": spec["containers"][0]["image"], "command": ["true"],
                               "resources": resources}]


def _scheduler_first_only(docs: Docs) -> None:
    """The first pod template names schedulerName volcano; the others name none."""
    templates = _templates(_job(docs))
    templates[0]["spec"]["schedulerName"] = "volcano"
    for template in templates[1:]:
        template["spec"].pop("schedulerName", None)


def _vc_spec(key: str, value: Any) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _job(docs)["spec"][key] = value
    return mutate


def _depends_on(*names: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _job(docs)["spec"]["tasks"][-1]["dependsOn"] = {"name": list(names)}
    return mutate


def _mpi_plugin(*args: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _job(docs)["spec"]["plugins"]["mpi"] = list(args)
    return mutate


def _sidecar_without_image(docs: Docs) -> None:
    _templates(_job(docs))[-1]["spec"]["containers"].append({"name": "exporter", "command": ["sleep", "infinity"]})


def _scaleout_type(value: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _job(docs)["metadata"]["labels"]["scaleout-type"] = value
    return mutate


def _annotated(key: str, value: str) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        _job(docs)["metadata"].setdefault("annotations", {})[key] = value
    return mutate


def _pod_spec(**fields: Any) -> Callable[[Docs], None]:
    """Every pod template's spec gets ``fields``."""
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            template["spec"].update(copy.deepcopy(fields))
    return mutate


def _host_network_port(host_port: Optional[int]) -> Callable[[Docs], None]:
    """hostNetwork on every pod, whose first container listens on 18080 with ``host_port`` (None: no hostPort)."""
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            template["spec"]["hostNetwork"] = True
            port = {"name": "metrics", "containerPort": 18080}
            if host_port is not None:
                port["hostPort"] = host_port
            template["spec"]["containers"][0].setdefault("ports", []).append(port)
    return mutate


def _extra_volume(volume: Dict[str, Any]) -> Callable[[Docs], None]:
    """Every pod template gets ``volume`` too (mounted nowhere)."""
    return _each_spec(lambda spec: spec["volumes"].append(copy.deepcopy(volume)))


def _node_affinity(**affinity: Any) -> Callable[[Docs], None]:
    """Every pod template gets a node affinity (next to the golden's pod anti-affinity)."""
    return _each_spec(lambda spec: spec.setdefault("affinity", {}).update(nodeAffinity=copy.deepcopy(affinity)))


def _required_node(*expressions: Dict[str, Any]) -> Callable[[Docs], None]:
    return _node_affinity(requiredDuringSchedulingIgnoredDuringExecution={
        "nodeSelectorTerms": [{"matchExpressions": list(expressions)}]})


def _container_security(**context: Any) -> Callable[[Docs], None]:
    return _each_spec(lambda spec: spec["containers"][0].update(securityContext=dict(context)))


def _each_spec(edit: Callable[[Dict[str, Any]], None]) -> Callable[[Docs], None]:
    def mutate(docs: Docs) -> None:
        for template in _templates(_job(docs)):
            edit(template["spec"])
    return mutate


_CONFIG = {"name": "extra-config", "configMap": {"name": "extra-config", "optional": True}}
_PODINFO_NAME = {"path": "name", "fieldRef": {"fieldPath": "metadata.name"}}


def _host_path(path: str) -> Callable[[Docs], None]:
    return _extra_volume({"name": "scratch", "hostPath": {"path": path}})


def _downward_modes(default: Optional[int], item: Optional[int]) -> Callable[[Docs], None]:
    """A downwardAPI volume of one file, with ``defaultMode`` ``default`` and the file's ``mode`` ``item``."""
    source: Dict[str, Any] = {"items": [{**_PODINFO_NAME, **({} if item is None else {"mode": item})}]}
    if default is not None:
        source["defaultMode"] = default
    return _extra_volume({"name": "podinfo", "downwardAPI": source})


def _projected(*sources: Dict[str, Any], default: Optional[int] = None) -> Callable[[Docs], None]:
    projected: Dict[str, Any] = {"sources": list(sources)}
    if default is not None:
        projected["defaultMode"] = default
    return _extra_volume({"name": "bundle", "projected": projected})


def _projected_config(**item: Any) -> Dict[str, Any]:
    return {"configMap": {"name": "extra-config", "optional": True, "items": [{"key": "hccl.json", **item}]}}
_MODULE = {"key": "accelerator-type", "operator": "In", "values": ["module-910b-8"]}


VC, AC = "pytorch-module-910b-8-vcjob", "pytorch-module-910b-8-acjob"
AC310, AC310P = "pytorch-310-acjob", "pytorch-310p-acjob"
#: case -> (golden, mutation, the rule lint reports, its severity; None: the rule stays silent and the job runs)
CASES: Dict[str, Tuple[str, Callable[[Docs], None], str, Optional[str]]] = {
    "vc-mount-without-volume": (VC, _bad_mount, "AC706", "error"),
    "ac-mount-without-volume": (AC, _bad_mount, "AC706", "error"),
    "vc-event-in-two-policies": (VC, _duplicate_event, "AC406", "error"),
    "ac-min-available-over-replicas": (AC, _min_available_over_replicas, "AC216", "error"),
    "vc-host-arch-unknown": (VC, _host_arch("arm64"), "AC315", "error"),
    "vc-job-scheduler-name": (VC, _job_scheduler, "AC409", "error"),
    "ac-job-scheduler-name": (AC, _job_scheduler, "AC409", "error"),
    "vc-pod-scheduler-name": (VC, _pod_scheduler, "AC409", "error"),
    "ac-pod-scheduler-name": (AC, _pod_scheduler, "AC409", "error"),
    # ascend-operator fills in volcano only when no template names a scheduler; Volcano gives the job's
    "ac-scheduler-name-on-the-first-template-only": (AC, _scheduler_first_only, "AC409", "error"),
    "vc-scheduler-name-on-the-first-task-only": (VC, _scheduler_first_only, "AC409", None),
    # 8.0 and "8000m" are 8 NPUs to the API server and the Volcano plugin
    "ac-npus-written-8000m": (AC, _npus_written("8000m"), "AC301", None),
    "vc-npus-written-8.0": (VC, _npus_written(8.0), "AC301", None),
    # no fraction and no negative amount of an extended resource: Volcano's webhook and the API server refuse it
    "vc-npus-written-500m": (VC, _npus_written("500m"), "AC701", "error"),
    "ac-npus-written-500m": (AC, _npus_written("500m"), "AC701", "error"),
    "vc-npus-written-minus-1": (VC, _npus_written("-1"), "AC701", "error"),
    # scheduled and run; the kubelet gives the NPUs to the init container, the training container gets none
    "vc-npus-on-an-init-container-only": (VC, _npus_on_init_only, "AC701", "warning"),
    "vc-no-ring-controller-label": (VC, _no_ring_label, "AC215", "warning"),
    "vc-configmap-under-another-name": (VC, _configmap_renamed, "AC501", "warning"),
    "vc-dotted-name-with-svc": (VC, _renamed("qwen2.5-sft"), "AC704", "error"),
    "vc-dotted-name-with-ssh": (VC, _renamed("qwen2.5-sft", drop=("svc",)), "AC704", "error"),
    "vc-dotted-name-without-svc-ssh": (VC, _renamed("qwen2.5-sft", drop=("svc", "ssh")), "AC704", None),
    "ac-leader-port-without-name": (AC, _leader_port(None, 2222), "AC217", "error"),
    "ac-leader-port-2222-other-name": (AC, _leader_port("rendezvous", 2222), "AC217", "error"),
    "ac-leader-port-other-name-and-number": (AC, _leader_port("master", 29500), "AC217", None),
    "vc-cpu-request-over-limit": (VC, _cpu_over_limit, "AC707", "error"),
    "ac-cpu-request-over-limit": (AC, _cpu_over_limit, "AC707", "error"),
    "vc-env-field-path-typo": (VC, _field_path_typo, "AC708", "error"),
    "ac-env-field-path-typo": (AC, _field_path_typo, "AC708", "error"),
    "vc-resource-named-after-the-chip": (VC, _resource_910b, "AC316", "error"),
    "ac-hami-vnpu-memory-beside-the-npus": (AC, _hami_memory, "AC316", "error"),
    "vc-hami-whole-cards-annotated": (VC, _hami_whole_cards, "AC316", "error"),
    # the rest of the downward API as Kubernetes validates it: keys, resources, divisors, sources, volume files
    "vc-env-label-key-with-space": (VC, _env_from({"fieldRef": {"fieldPath": "metadata.labels['job name']"}}),
                                    "AC708", "error"),
    "ac-env-annotation-key-two-slashes": (
        AC, _env_from({"fieldRef": {"fieldPath": "metadata.annotations['example.com/a/b']"}}), "AC708", "error"),
    "vc-env-npu-as-resource-field": (VC, _env_from({"resourceFieldRef": {"resource": "limits.huawei.com/Ascend910"}}),
                                     "AC708", "error"),
    "ac-env-npu-as-resource-field": (AC, _env_from({"resourceFieldRef": {"resource": "limits.huawei.com/Ascend910"}}),
                                     "AC708", "error"),
    "ac-env-cpu-divisor-1k": (AC, _env_from({"resourceFieldRef": {"resource": "limits.cpu", "divisor": "1k"}}),
                              "AC708", "error"),
    "vc-env-memory-divisor-1024": (VC, _env_from({"resourceFieldRef": {"resource": "requests.memory",
                                                                       "divisor": "1024"}}), "AC708", "error"),
    "vc-env-value-and-value-from": (VC, _env_from(_NAME, value="worker"), "AC708", "error"),
    "ac-env-value-and-value-from": (AC, _env_from(_NAME, value="worker"), "AC708", "error"),
    "ac-env-two-sources": (AC, _env_from({**_NAME, "configMapKeyRef": {"name": "c", "key": "k"}}), "AC708", "error"),
    "vc-downward-pod-ip-in-volume": (VC, _downward_files({"path": "ip", "fieldRef": {"fieldPath": "status.podIP"}}),
                                     "AC708", "error"),
    "ac-downward-pod-ip-in-volume": (AC, _downward_files({"path": "ip", "fieldRef": {"fieldPath": "status.podIP"}}),
                                     "AC708", "error"),
    "ac-downward-absolute-path": (AC, _downward_files({"path": "/etc/name", **_NAME}), "AC708", "error"),
    "vc-downward-path-backstep": (VC, _downward_files({"path": "../name", **_NAME}), "AC708", "error"),
    "ac-downward-resource-without-container": (
        AC, _downward_files({"path": "cpu", "resourceFieldRef": {"resource": "limits.cpu"}}), "AC708", "error"),
    "vc-downward-field-and-resource": (VC, _downward_files({"path": "x", **_NAME, "resourceFieldRef": {
        "containerName": "x", "resource": "limits.cpu"}}), "AC708", "error"),
    "vc-downward-valid-forms": (VC, _downward_valid_forms, "AC708", None),
    "ac-downward-valid-forms": (AC, _downward_valid_forms, "AC708", None),
    # Kubernetes' pod template checks: Volcano's webhook runs them on each task, the API server on the pods
    "vc-volume-name-with-slash": (VC, _volume_renamed("huawei.com/npu-config"), "AC709", "error"),
    "ac-volume-name-with-slash": (AC, _volume_renamed("huawei.com/npu-config"), "AC709", "error"),
    "vc-port-name-too-long": (VC, _port_named("distributed-port"), "AC709", "error"),
    "ac-port-name-too-long": (AC, _port_named("distributed-port"), "AC709", "error"),
    "vc-pull-policy-lower-case": (VC, _pull_policy, "AC709", "error"),
    "ac-mount-path-twice": (AC, _mount_path_twice, "AC709", "error"),
    "vc-env-name-digit-first": (VC, _env_named("1st_rank"), "AC709", "error"),
    "ac-env-name-digit-first": (AC, _env_named("1st_rank"), "AC709", "warning"),  # Kubernetes 1.32 accepts it
    "vc-env-name-dotted": (VC, _env_named("RANK.ID"), "AC709", None),
    "vc-host-port-twice": (VC, _host_port_twice, "AC709", "error"),
    "ac-host-port-twice": (AC, _host_port_twice, "AC709", "error"),
    "vc-toleration-operator-lower-case": (VC, _toleration("exists"), "AC709", "error"),
    "ac-toleration-operator-lower-case": (AC, _toleration("exists"), "AC709", "error"),
    "vc-toleration-operator-exists": (VC, _toleration("Exists"), "AC709", None),
    "ac-host-arch-key-with-underscore": (AC, _host_arch_key("host_arch"), "AC315", "error"),
    "vc-sidecar-without-image": (VC, _sidecar_without_image, "AC709", "error"),
    "ac-sidecar-without-image": (AC, _sidecar_without_image, "AC709", "error"),
    # ... and the pod-level ones, after the defaults (an absent hostPort or a volume without a source is filled in)
    "vc-host-network-host-port-differs": (VC, _host_network_port(18081), "AC709", "error"),
    "ac-host-network-host-port-differs": (AC, _host_network_port(18081), "AC709", "error"),
    "vc-host-network-host-port-absent": (VC, _host_network_port(None), "AC709", None),
    "ac-host-network-host-port-absent": (AC, _host_network_port(None), "AC709", None),
    "vc-dns-policy-typo": (VC, _pod_spec(dnsPolicy="ClusterFirstWithHostnet"), "AC709", "error"),
    "ac-dns-none-without-nameservers": (AC, _pod_spec(dnsPolicy="None"), "AC709", "error"),
    "vc-dns-none-with-nameserver": (VC, _pod_spec(dnsPolicy="None", dnsConfig={"nameservers": ["10.0.0.10"]}),
                                    "AC709", None),
    "ac-active-deadline-zero": (AC, _pod_spec(activeDeadlineSeconds=0), "AC709", "error"),
    "vc-volume-two-sources": (VC, _extra_volume({"name": "scratch", "hostPath": {"path": "/tmp"}, "emptyDir": {}}),
                              "AC709", "error"),
    "ac-volume-without-source": (AC, _extra_volume({"name": "scratch"}), "AC709", None),
    "ac-host-path-type-lower-case": (AC, _extra_volume({"name": "scratch", "hostPath": {"path": "/tmp",
                                                                                      "type": "directory"}}),
                                     "AC709", "error"),
    "vc-host-path-type-directory": (VC, _extra_volume({"name": "scratch", "hostPath": {"path": "/tmp",
                                                                                     "type": "Directory"}}),
                                    "AC709", None),
    "vc-config-map-mode-755-decimal": (VC, _extra_volume({**_CONFIG, "configMap": {**_CONFIG["configMap"],
                                                                                   "defaultMode": 755}}),
                                       "AC709", "error"),
    "ac-config-map-item-absolute-path": (AC, _extra_volume({**_CONFIG, "configMap": {
        **_CONFIG["configMap"], "items": [{"key": "hccl.json", "path": "/hccl.json"}]}}), "AC709", "error"),
    "ac-config-map-mode-755-octal": (AC, _extra_volume({**_CONFIG, "configMap": {**_CONFIG["configMap"],
                                                                                 "defaultMode": 0o755}}),
                                     "AC709", None),
    "vc-host-path-backstep": (VC, _host_path("/usr/local/Ascend/../driver"), "AC709", "error"),
    "ac-host-path-backstep": (AC, _host_path("/usr/local/Ascend/../driver"), "AC709", "error"),
    "ac-host-path-empty": (AC, _host_path(""), "AC709", "error"),
    "vc-host-path-dots-in-a-name": (VC, _host_path("/data/..cache/x/"), "AC709", None),
    "vc-downward-default-mode-644-decimal": (VC, _downward_modes(644, None), "AC709", "error"),
    "ac-downward-item-mode-1000": (AC, _downward_modes(None, 1000), "AC709", "error"),
    "ac-projected-default-mode-1024": (AC, _projected(_projected_config(path="hccl.json"), default=1024), "AC709",
                                       "error"),
    "vc-projected-config-map-item-mode-755-decimal": (VC, _projected(_projected_config(path="hccl.json", mode=755)),
                                                      "AC709", "error"),
    "ac-projected-config-map-item-backstep": (AC, _projected(_projected_config(path="../hccl.json")), "AC709",
                                              "error"),
    "vc-projected-downward-item-mode-negative": (VC, _projected({"downwardAPI": {"items": [
        {**_PODINFO_NAME, "mode": -1}]}}), "AC709", "error"),
    "ac-file-modes-valid": (AC, _then(_downward_modes(0o644, 0o400), _projected(
        _projected_config(path="conf/hccl.json", mode=0o600), {"downwardAPI": {"items": [{**_PODINFO_NAME,
                                                                                           "mode": 0o444}]}},
        default=511)), "AC709", None),
    "vc-node-affinity-operator-lower-case": (VC, _required_node({**_MODULE, "operator": "in"}), "AC709", "error"),
    "ac-node-affinity-exists-with-values": (AC, _required_node({**_MODULE, "operator": "Exists"}), "AC709", "error"),
    "vc-node-affinity-weight-0": (VC, _node_affinity(preferredDuringSchedulingIgnoredDuringExecution=[
        {"weight": 0, "preference": {"matchExpressions": [_MODULE]}}]), "AC709", "error"),
    "ac-node-affinity-valid": (AC, _then(_required_node(_MODULE, {"key": "host-arch", "operator": "Exists"}),
                                         _node_affinity(preferredDuringSchedulingIgnoredDuringExecution=[
                                             {"weight": 100, "preference": {"matchExpressions": [_MODULE]}}])),
                               "AC709", None),
    "vc-spread-when-unsatisfiable-typo": (VC, _pod_spec(topologySpreadConstraints=[{
        "maxSkew": 1, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "doNotSchedule"}]),
        "AC709", "error"),
    "ac-spread-max-skew-0": (AC, _pod_spec(topologySpreadConstraints=[{
        "maxSkew": 0, "topologyKey": "kubernetes.io/hostname", "whenUnsatisfiable": "ScheduleAnyway"}]),
        "AC709", "error"),
    "vc-privileged-without-escalation": (VC, _container_security(privileged=True, allowPrivilegeEscalation=False),
                                         "AC709", "error"),
    # privileged alone runs, as on real clusters (their API servers allow privileged containers)
    "vc-privileged": (VC, _container_security(privileged=True), "AC709", None),
    "ac-privileged": (AC, _container_security(privileged=True), "AC709", None),
    "ac-run-as-user-negative": (AC, _container_security(runAsUser=-1), "AC709", "error"),
    "vc-security-context-valid": (VC, _container_security(allowPrivilegeEscalation=False, runAsUser=0, runAsGroup=0,
                                                          capabilities={"add": ["NET_ADMIN"]}), "AC709", None),
    # Volcano's webhook: a task dependsOn a task the job lacks (no DAG), mpi without its tasks, a negative TTL
    "vc-depends-on-unknown-task": (VC, _depends_on("launcher"), "AC405", "error"),
    "vc-mpi-plugin-without-master-task": (VC, _mpi_plugin(), "AC407", "error"),
    "vc-mpi-plugin-naming-its-tasks": (VC, _mpi_plugin("--master=worker", "--worker=worker"), "AC407", None),
    "vc-ttl-negative": (VC, _vc_spec("ttlSecondsAfterFinished", -1), "AC402", "error"),
    # plugin labels given as annotations are never read: the job runs without them
    "vc-fault-retry-times-annotation": (VC, _annotated("fault-retry-times", "3"), "AC313", "warning"),
    "ac-tor-affinity-annotation": (AC, _annotated("tor-affinity", "normal-schema"), "AC309", "warning"),
    # the operator upper-cases scaleout-type before it checks it
    "ac-scaleout-type-lower-case": (AC, _scaleout_type("roce"), "AC202", None),
    # Atlas 300: npu-310-strategy names the plugin's handler (chip or card)
    "ac-310-strategy-unknown": (AC310, _strategy_310("cards"), "AC307", "error"),
    # Atlas 300I: the Duo handler (duo: "true") takes 1 or 2 NPUs a pod, the generic 310P handler any that fit
    "ac-310p-duo-4-npus": (AC310P, _npus_310p(4, duo=True), "AC301", "error"),
    "ac-310p-without-duo-4-npus": (AC310P, _npus_310p(4, duo=False), "AC301", None),
    # ... up to 64 a pod: more is refused (InvalidResourceRequest)
    "ac-310p-without-duo-65-npus": (AC310P, _npus_310p(65, duo=False), "AC301", "error"),
    # the Duo's chip handler (duo: "true", chip or no strategy) takes 1 to 16 (nodes labelled as 300I Duo)
    "ac-310p-duo-chip-4-npus": (AC310P, _then(_strategy_310("chip"), _npus_310p(4, duo=True)), "AC301", None),
    "ac-310p-duo-no-strategy-8-npus": (AC310P, _then(_strategy_310(None), _npus_310p(8, duo=True)), "AC301", None),
    "ac-310p-duo-chip-17-npus": (AC310P, _then(_strategy_310("chip"), _npus_310p(17, duo=True)), "AC301", "error"),
    # both Duo handlers refuse a job labelled distributed: "true" with more than one NPU pod; the generic does not
    "ac-310p-duo-distributed-2-pods": (AC310P, _distributed_310p, "AC301", "error"),
    "ac-310p-duo-2-pods": (AC310P, _two_pods, "AC301", None),
    "ac-310p-duo-chip-distributed-2-pods": (AC310P, _then(_strategy_310("chip"), _distributed_310p), "AC301", "error"),
    "ac-310p-without-duo-distributed-2-pods": (AC310P, _then(_npus_310p(2, duo=False), _distributed_310p), "AC301",
                                               None),
    # the plugin joins the job's npu-310-strategy and the pods' with "|" where they differ (case aside): the
    # joined value names no 310 handler; for a Duo job it means the generic 310P handler
    "vc-310-strategy-on-job": (VC, _vc_310("card", None), "AC307", None),
    "vc-310-strategy-on-pods": (VC, _vc_310(None, "card"), "AC307", None),
    "vc-310-strategy-case-variant-on-pods": (VC, _vc_310("card", "Card"), "AC307", None),
    "vc-310-strategy-joined": (VC, _vc_310("card", "chip"), "AC307", "error"),
    "ac-310-strategy-joined": (AC310, _pod_labels(npu_310_strategy="chip"), "AC307", "error"),
    "ac-310p-strategy-joined-4-npus": (AC310P, _then(_pod_labels(npu_310_strategy="chip"), _npus_310p(4, duo=True)),
                                       "AC307", "warning"),
    "ac-310p-duo-joined-4-npus": (AC310P, _then(_pod_labels(duo="false"), _npus_310p(4, duo=True)), "AC307",
                                  "warning"),
}


#: warning cases about an object lint cannot see offline and the oracle's cluster lacks: a node's kubelet never
#: starts the pods (the oracle's verdict names the object, tests/simcluster/kubelet.py)
CLUSTER_HOLDS = {"vc-configmap-under-another-name": 'configmap "rings-config-pytorch-module-910b-8-vcjob" not found'}


def _lint(docs: Docs) -> List[Any]:
    from ascend_compile.lint.oneshot import lint_objects

    return lint_objects(docs, source="case.yaml", target=lint_target())  # the release and webhook of the cluster


def _mutated(golden: str, mutate: Callable[[Docs], None]) -> Docs:
    docs = copy.deepcopy(_golden(golden))
    mutate(docs)
    return docs


def test_each_mutation_trips_its_rule_only_at_its_severity():
    """Offline half: the golden is clean, and each mutation adds its rule's finding at the stated severity."""
    for golden in (VC, AC):
        assert [f for f in _lint(_golden(golden)) if f.severity in ("error", "warning")] == [], golden
    for case, (golden, mutate, rule, severity) in CASES.items():
        findings = _lint(_mutated(golden, mutate))
        assert {f.severity for f in findings if f.rule == rule} == ({severity} if severity else set()), case
        assert [f.rule for f in findings if f.severity == "error" and f.rule != rule] == [], case


def _judge_early() -> Callable[[SimCluster], Dict[str, Verdict]]:
    """All cases in one oracle run, judged on the session's cluster in the background while other tests run
    (tests/simcluster/session.py); its NODES_PER_PROFILE leaves room for eight of these two-node jobs at once.

    No case needs fewer nodes to be judged: an error case is refused, or pending because no node of any
    size could take its pods (the checks below ask the oracle for "never-fits", not "no room now").
    """
    manifests = {case: _mutated(golden, mutate) for case, (golden, mutate, _, _) in CASES.items()}

    def judge(cluster: SimCluster) -> Dict[str, Verdict]:
        # the oracle calls what is still pending when its total time runs out "no-room-now", which no error
        # case accepts: the bound is far above a slow machine's run
        return {v.case: v for v in judge_manifests(manifests, sim=cluster, round_timeout=60, total_timeout=1500)}
    return judge


JUDGED_EARLY = _judge_early


@pytest.mark.parametrize("case", sorted(CASES))
def test_upstream_agrees_with_the_severity(judged_early, case):
    """error <=> rejected, refused or pending where nothing else runs; warning (or no finding) <=> runs, or (an object
    the cluster may hold) never starts where the cluster lacks it."""
    verdict = judged_early[case]
    severity = CASES[case][3]
    if case in CLUSTER_HOLDS:
        assert verdict.outcome == "pending" and CLUSTER_HOLDS[case] in verdict.message, verdict.line()
    elif severity == "error":
        assert verdict.outcome in ("rejected", "refused") or (
            verdict.outcome == "pending" and verdict.room == "never-fits"), verdict.line()
    else:
        assert verdict.outcome == "running", verdict.line()
