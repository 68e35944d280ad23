"""Golden cases that agree with upstream: each spec in examples/samples/ restates one upstream sample,
and its golden output must agree with that sample in every field that affects scheduling and runtime.

``project()`` reduces a manifest set (sample or golden file) to a flat map of those fields; the test
compares the two maps. Every difference must be listed in DIFFERENCES (the one place they are kept;
golden/README.md mirrors it, and a test checks the mirror), as "intended" (the compiler does it
differently on purpose) or "defect" (the sample is wrong and the golden output does the right thing).
A listed difference that no longer occurs fails too, so the list cannot go stale.

Run ``python tests/golden/test_samples_agree.py`` to print the current differences, or with
``--markdown`` to print the table for golden/README.md.
"""
from __future__ import annotations

import fnmatch
import json
import sys
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Tuple

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SPECS = ROOT / "examples" / "samples"
GOLDEN = ROOT / "golden" / "samples"
README = ROOT / "golden" / "README.md"
SAMPLES_DIR = ROOT.parent / "shared" / "upstream" / "samples"

#: spec (examples/samples/<key>.yaml, golden/samples/<key>.yaml) -> upstream sample (shared/upstream/samples/)
SAMPLES: Dict[str, str] = {
    "910-a300t-mindspore-vcjob": "samples__train__basic-training__ranktable__yaml__910__a300t_mindspore_vcjob.yaml",
    "910-a300t-pytorch-vcjob": "samples__train__basic-training__ranktable__yaml__910__a300t_pytorch_vcjob.yaml",
    "910-a300t-tensorflow-vcjob": "samples__train__basic-training__ranktable__yaml__910__a300t_tensorflow_vcjob.yaml",
    "910-a800-mindspore-vcjob": "samples__train__basic-training__ranktable__yaml__910__a800_mindspore_vcjob.yaml",
    "910-a800-pytorch-vcjob": "samples__train__basic-training__ranktable__yaml__910__a800_pytorch_vcjob.yaml",
    "910-a800-tensorflow-vcjob": "samples__train__basic-training__ranktable__yaml__910__a800_tensorflow_vcjob.yaml",
    "910b-a300t-a2-mindspore-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a300t_a2_mindspore_vcjob.yaml",
    "910b-a300t-a2-pytorch-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a300t_a2_pytorch_vcjob.yaml",
    "910b-a300t-a2-tensorflow-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a300t_a2_tensorflow_vcjob.yaml",
    "910b-a800-mindspore-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a800_mindspore_vcjob.yaml",
    "910b-a800-pytorch-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a800_pytorch_vcjob.yaml",
    "910b-a800-tensorflow-vcjob": "samples__train__basic-training__ranktable__yaml__910b__a800_tensorflow_vcjob.yaml",
    "910b-pytorch-multinodes-acjob-910b-with-ranktable": "samples__train__basic-training__ranktable__yaml__910b__pytorch_multinodes_acjob_910b_with_ranktable.yaml",
    "950-a950-superpod-mindspore-vcjob": "samples__train__basic-training__ranktable__yaml__950__a950_superpod_mindspore_vcjob.yaml",
    "950-a950-superpod-pytorch-acjob": "samples__train__basic-training__ranktable__yaml__950__a950_superpod_pytorch_acjob.yaml",
    "950-a950-superpod-pytorch-vcjob": "samples__train__basic-training__ranktable__yaml__950__a950_superpod_pytorch_vcjob.yaml",
    "950-a950-superpod-tensorflow-vcjob": "samples__train__basic-training__ranktable__yaml__950__a950_superpod_tensorflow_vcjob.yaml",
    "master-910b-a300t-a2-pytorch-vcjob": "master/samples__train__basic-training__ranktable__yaml__910b__a300t_a2_pytorch_vcjob.yaml",
    "master-910b-a800-pytorch-vcjob": "master/samples__train__basic-training__ranktable__yaml__910b__a800_pytorch_vcjob.yaml",
    "master-mindspore-multinodes-acjob-910b": "master/samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_910b.yaml",
    "master-mindspore-multinodes-acjob-super-pod": "master/samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_super_pod.yaml",
    "master-pytorch-multinodes-acjob": "master/samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob.yaml",
    "master-pytorch-multinodes-acjob-910b": "master/samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob_910b.yaml",
    "master-pytorch-standalone-acjob-910b": "master/samples__train__basic-training__without-ranktable__pytorch__pytorch_standalone_acjob_910b.yaml",
    "mindspore-multinodes-acjob": "samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob.yaml",
    "mindspore-multinodes-acjob-910b": "samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_910b.yaml",
    "mindspore-multinodes-acjob-950": "samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_950.yaml",
    "mindspore-multinodes-acjob-super-pod": "samples__train__basic-training__without-ranktable__mindspore__mindspore_multinodes_acjob_super_pod.yaml",
    "mindspore-standalone-acjob": "samples__train__basic-training__without-ranktable__mindspore__mindspore_standalone_acjob.yaml",
    "mindspore-standalone-acjob-910b": "samples__train__basic-training__without-ranktable__mindspore__mindspore_standalone_acjob_910b.yaml",
    "mindspore-standalone-acjob-950": "samples__train__basic-training__without-ranktable__mindspore__mindspore_standalone_acjob_950.yaml",
    "mindspore-standalone-acjob-super-pod": "samples__train__basic-training__without-ranktable__mindspore__mindspore_standalone_acjob_super_pod.yaml",
    "operator-mindspore-distribute-acjob": "component__ascend-operator__examples__mindspore-distribute-acjob.yaml",
    "operator-mindspore-standalone-acjob": "component__ascend-operator__examples__mindspore-standalone-acjob.yaml",
    "operator-pytorch-distribute-acjob": "component__ascend-operator__examples__pytorch-distribute-acjob.yaml",
    "operator-pytorch-standalone-acjob": "component__ascend-operator__examples__pytorch-standalone-acjob.yaml",
    "operator-tensorflow-distribute-acjob": "component__ascend-operator__examples__tensorflow-distribute-acjob.yaml",
    "operator-tensorflow-standalone-acjob": "component__ascend-operator__examples__tensorflow-standalone-acjob.yaml",
    "infer-vcjob-910": "samples__inference__volcano__infer-vcjob-910.yaml",
    "pytorch-acjob-infer-310p-with-ranktable": "samples__inference__volcano__pytorch_acjob_infer_310p_with_ranktable.yaml",
    "pytorch-multinodes-acjob": "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob.yaml",
    "pytorch-multinodes-acjob-910b": "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob_910b.yaml",
    "pytorch-multinodes-acjob-950": "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob_950.yaml",
    "pytorch-multinodes-acjob-infer-910b-with-ranktable": "samples__inference__volcano__pytorch_multinodes_acjob_infer_910b_with_ranktable.yaml",
    "pytorch-multinodes-acjob-super-pod": "samples__train__basic-training__without-ranktable__pytorch__pytorch_multinodes_acjob_super_pod.yaml",
    "pytorch-standalone-acjob": "samples__train__basic-training__without-ranktable__pytorch__pytorch_standalone_acjob.yaml",
    "pytorch-standalone-acjob-910b": "samples__train__basic-training__without-ranktable__pytorch__pytorch_standalone_acjob_910b.yaml",
    "pytorch-standalone-acjob-950": "samples__train__basic-training__without-ranktable__pytorch__pytorch_standalone_acjob_950.yaml",
    "pytorch-standalone-acjob-super-pod": "samples__train__basic-training__without-ranktable__pytorch__pytorch_standalone_acjob_super_pod.yaml",
    "tensorflow-multinodes-acjob": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_multinodes_acjob.yaml",
    "tensorflow-multinodes-acjob-910b": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_multinodes_acjob_910b.yaml",
    "tensorflow-multinodes-acjob-super-pod": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_multinodes_acjob_super_pod.yaml",
    "tensorflow-standalone-acjob": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_standalone_acjob.yaml",
    "tensorflow-standalone-acjob-910b": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_standalone_acjob_910b.yaml",
    "tensorflow-standalone-acjob-super-pod": "samples__train__basic-training__without-ranktable__tensorflow__tensorflow_standalone_acjob_super_pod.yaml",
}

#: upstream samples with no spec, and why (mirrored in golden/README.md)
NOT_EXPRESSED: Dict[str, str] = {
    "samples__train__basic-training__ranktable__yaml__910b__a800_pytorch_deployment.yaml":
        "A Deployment, not a training job: the compiler emits AscendJob or Volcano Job only.",
    "samples__utils__env_validation__train-volcano.yaml":
        "An environment check (`npu-smi info` with the npu-smi binary mounted from the host): no framework, "
        "no ring-controller.atlas label, no ASCEND_VISIBLE_DEVICES; not a training job.",
    "tests__st__testcases__multi_node_schedule__resources_0001__job_kwok_simulator-8x8.yaml":
        "System-test fixture for a kwok simulator: a reset-config ConfigMap, a `ranktable` volume on the Workers "
        "but not the Master (a spec gives every pod the same template), and an anti-affinity value that does "
        "not match the job name (SOURCES.md caveat).",
    "tests__st__testcases__multi_node_schedule__resources_0001__vcjob_kwok_simulator-8x8.yaml":
        "System-test fixture: a Volcano Job with pod restartPolicy Never, no rings-config ConfigMap and a "
        "legacy job-name env that names another job; the compiler always emits the ranktable ConfigMap "
        "and OnFailure.",
    "tests__st__testcases__multi_pod_schedule__resources_0001__job_llama-2x16.yaml":
        "System-test fixture for resumable training (reset-config ConfigMap, process-recover env and "
        "labels, no driver volume); resumable training is out of scope of the spec.",
}

INTENDED = "intended"
DEFECT = "defect"

# --- differences, by kind of job (shared text, so each reason is written once) ---------------------------
_VC_TASK = {
    "task0.name": (INTENDED, "Task `worker` instead of `default-test`: the name only appears in pod names "
                             "(`<job>-worker-<i>`); scripts and the scheduler do not read it."),
    "task0.container.name": (INTENDED, "Container `ascend` (the name ascend-operator requires in AscendJobs) in "
                                       "Volcano Jobs too, instead of the framework name; nothing reads it."),
}
_VC_DSHM = {"task0.mount:/dev/shm": (INTENDED, "Every pod gets a memory-backed /dev/shm (PyTorch/MindSpore "
                                               "data loaders and HCCL need it); the sample has none.")}
_VC_HCCL_IF_IP = {"task0.env.HCCL_IF_IP": (INTENDED, "hostNetwork pods get HCCL_IF_IP=status.hostIP so HCCL "
                                                     "binds the host NIC (15_yaml_configuration.md).")}
_AC_DSHM = {"*.mount:/dev/shm": (INTENDED, "Every pod gets a memory-backed /dev/shm; the sample has none.")}
_RING_JOB = {"label.ring-controller.atlas": (INTENDED, "The job always carries ring-controller.atlas (FACTS §8 "
                                                       "rule 6); for an AscendJob it is informative only.")}
_POD_RING = {"*.label.ring-controller.atlas": (INTENDED, "Pods always carry ring-controller.atlas like the job.")}
_MODULE_SELECTOR = {"*.nodeSelector": (INTENDED, "accelerator-type: module is written out; the sample leaves it "
                                                 "off, which selects the same Ascend910module handler (FACTS "
                                                 "§4.1) but also matches unlabelled nodes.")}
_WORKER_SELECTOR = {"Worker.nodeSelector": (DEFECT, "The sample's Worker lacks the accelerator-type its leader "
                                                    "has; all replicas must use identical nodeSelectors (FACTS "
                                                    "§4.1).")}
_RANKTABLE_ENV = {"*.env.POD_UID": (INTENDED, "A ranktable file comes with POD_UID, which scripts match "
                                              "against server_id in hccl.json (FACTS §5, §7).")}

_VC_SPREAD = {"task0.podAntiAffinity": (INTENDED, "Every Volcano Job spreads its pods one per node "
                                                 "(volcano.sh/job-name anti-affinity) like the other vcjob "
                                                 "samples; a no-op for one pod.")}
_AC_SINGLE = {"*.podAntiAffinity": (INTENDED, "A single-pod AscendJob gets no anti-affinity (nothing to spread), "
                                              "as in the standalone samples.")}
_AC_SPREAD = {"*.podAntiAffinity": (INTENDED, "Multi-pod jobs spread one NPU pod per node (job-name "
                                              "anti-affinity; MindSpore Workers only), as the current samples do.")}
_OLD_ENV = {"*.env.ASCEND_VISIBLE_DEVICES": (INTENDED, "Wired on every NPU pod (FACTS §7); these v6.0.0 examples "
                                                       "predate it (the operator also adds it since v7.0.RC1).")}
_OLD_XDL = {"*.env.XDL_IP": (INTENDED, "PyTorch AscendJob pods get XDL_IP=status.hostIP, as every current PyTorch "
                                       "sample does.")}
_INT_ENV = {"*.env.GLOG_V": (DEFECT, "`value: 1` is an integer; EnvVar.value must be a string, so the API server "
                                     "rejects the job. The golden has \"1\".")}
_NPU_CM = {"task0.mount:/user/serverid/devindex/config": (INTENDED, "The ranktable volume is named "
                                                                    "ascend-910-config for every chip (sample: "
                                                                    "ascend-npu-config); same ConfigMap and mount "
                                                                    "path, nothing reads the name.")}
_HOSTPATH_NS = {"namespace": (INTENDED, "ranktable: hostPath names the directory <namespace>.<job>, so the spec "
                                        "sets the namespace (`default`) the sample's hostPath assumes.")}
_HOSTPATH_UID = _RANKTABLE_ENV
_RING = {**_RING_JOB, **_POD_RING}


def _d(*parts: Dict[str, Tuple[str, str]]) -> Dict[str, Tuple[str, str]]:
    merged: Dict[str, Tuple[str, str]] = {}
    for part in parts:
        merged.update(part)
    return merged


#: per sample (spec key): {projection key glob: (kind, one-line justification)}
DIFFERENCES: Dict[str, Dict[str, Tuple[str, str]]] = {
    "910-a300t-mindspore-vcjob": _d(_VC_TASK, _VC_DSHM, _VC_SPREAD),
    "910-a300t-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP, _VC_SPREAD),
    "910-a300t-tensorflow-vcjob": _d(_VC_TASK, _VC_DSHM, _VC_SPREAD),
    "910-a800-mindspore-vcjob": _d(_VC_TASK, _VC_DSHM, _MODULE_SELECTOR),
    "910-a800-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP, _MODULE_SELECTOR),
    "910-a800-tensorflow-vcjob": _d(_VC_TASK, _VC_DSHM, _MODULE_SELECTOR),
    "910b-a300t-a2-mindspore-vcjob": _d(_VC_TASK, _VC_DSHM),
    "910b-a300t-a2-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP),
    "910b-a300t-a2-tensorflow-vcjob": _d(_VC_TASK, _VC_DSHM),
    "910b-a800-mindspore-vcjob": _d(_VC_TASK, _VC_DSHM),
    "910b-a800-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP),
    "910b-a800-tensorflow-vcjob": _d(_VC_TASK, _VC_DSHM),
    "910b-pytorch-multinodes-acjob-910b-with-ranktable": _d(_HOSTPATH_NS),
    "infer-vcjob-910": _d(_VC_DSHM, _VC_SPREAD, {
        "task0.mount:/usr/local/Ascend/driver": (INTENDED, "Every pod mounts the node's driver, as every training "
                                                           "sample does; the inference sample leaves it to its "
                                                           "image.")}),
    "950-a950-superpod-mindspore-vcjob": _d(_VC_TASK, _VC_DSHM, _NPU_CM),
    "950-a950-superpod-pytorch-acjob": _d(_RING, _HOSTPATH_NS),
    "950-a950-superpod-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP, {
        "task0.mount:/user/serverid/devindex/config": (DEFECT, "The ranktable volume is named "
                                                               "`huawei.com/npu-config`, not a DNS-1123 label: the "
                                                               "API server rejects the job. The golden uses "
                                                               "ascend-910-config (same ConfigMap and mount path).")}),
    "950-a950-superpod-tensorflow-vcjob": _d(_VC_TASK, _VC_DSHM, _NPU_CM, _POD_RING),
    "master-910b-a300t-a2-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP),
    "master-910b-a800-pytorch-vcjob": _d(_VC_TASK, _VC_HCCL_IF_IP),
    "master-pytorch-multinodes-acjob": _d(_RING, {
        "annotation.huawei.com/schedule_policy": (DEFECT, "chip4-node8 selects the Ascend 350 4p-8 handler "
                                                          "(huawei.com/npu) since MindCluster 26.0 (FACTS §9), not "
                                                          "Atlas 800 910; the golden uses the node-selector "
                                                          "dialect (accelerator-type: module) instead."),
        "*.nodeSelector": (DEFECT, "Follows from the schedule_policy fix: host-arch and accelerator-type: module "
                                   "name the Atlas 800 nodes."),
    }),
    "mindspore-multinodes-acjob": _d(_RING, _WORKER_SELECTOR),
    "mindspore-multinodes-acjob-950": _d(_RING),
    "mindspore-multinodes-acjob-super-pod": _d(_WORKER_SELECTOR),
    "mindspore-standalone-acjob": _d(_RING),
    "mindspore-standalone-acjob-950": _d(_RING),
    "operator-mindspore-distribute-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _INT_ENV, _AC_SPREAD),
    "operator-mindspore-standalone-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _INT_ENV, {
        "minAvailable": (DEFECT, "minAvailable 3 with a single replica: the PodGroup can never be satisfied; "
                                 "the golden has 1.")}),
    "operator-pytorch-distribute-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _OLD_XDL, _INT_ENV, _AC_SPREAD),
    "operator-pytorch-standalone-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _OLD_XDL),
    "operator-tensorflow-distribute-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _INT_ENV, _AC_SPREAD, _AC_DSHM),
    "operator-tensorflow-standalone-acjob": _d(_RING, _MODULE_SELECTOR, _OLD_ENV, _AC_DSHM, {
        "misplaced": (DEFECT, "cleanPodPolicy, backoffLimit and schedulingPolicy sit directly under spec, not "
                              "under spec.runPolicy: the operator ignores them. The golden puts them under "
                              "runPolicy."),
        "backoffLimit": (DEFECT, "The sample's backoffLimit 30 (misplaced) is spec.retries: 30, emitted as "
                                 "runPolicy.backoffLimit."),
        "minAvailable": (DEFECT, "The misplaced schedulingPolicy also says minAvailable 3 for one replica; the "
                                 "golden has runPolicy.schedulingPolicy.minAvailable 1."),
        "queue": (DEFECT, "The queue sits in the misplaced schedulingPolicy; the golden has it under runPolicy."),
        "schedulerName": (DEFECT, "spec.schedulerName is missing, so Volcano does not gang-schedule the job; the "
                                  "golden sets volcano."),
    }),
    "pytorch-acjob-infer-310p-with-ranktable": _d(_POD_RING, _HOSTPATH_NS, _HOSTPATH_UID, _AC_SINGLE, {
        "*.npu.*": (DEFECT, "The sample asks 8 NPUs of one pod; with duo=true and npu-310-strategy=card the plugin's "
                            "card310px2 handler places one card, at most 2 NPUs, per pod (maxCardNPUNum), so the "
                            "sample stays Pending. The golden asks 2."),
    }),
    "pytorch-multinodes-acjob": _d(_RING),
    "pytorch-multinodes-acjob-950": _d(_RING),
    "pytorch-multinodes-acjob-infer-910b-with-ranktable": _d(_HOSTPATH_NS, _HOSTPATH_UID),
    "pytorch-multinodes-acjob-super-pod": _d(_WORKER_SELECTOR),
    "pytorch-standalone-acjob": _d(_RING),
    "pytorch-standalone-acjob-950": _d(_RING),
    "tensorflow-multinodes-acjob": _d(_RING, _AC_DSHM),
    "tensorflow-multinodes-acjob-910b": _d(_AC_DSHM),
    "tensorflow-multinodes-acjob-super-pod": _d(_AC_DSHM, _WORKER_SELECTOR),
    "tensorflow-standalone-acjob": _d(_RING, _AC_DSHM),
    "tensorflow-standalone-acjob-910b": _d(_AC_DSHM),
    "tensorflow-standalone-acjob-super-pod": _d(_AC_DSHM),
}

# --- projection ------------------------------------------------------------------------------------------
JOB_KINDS = ("AscendJob", "Job")
JOB_LABELS = ("framework", "ring-controller.atlas", "fault-scheduling", "fault-retry-times", "tor-affinity", "duo",
              "npu-310-strategy", "distributed")
JOB_ANNOTATIONS = ("huawei.com/schedule_policy", "sp-block", "ra-block")
NPU_PREFIX = "huawei.com/"
RANKTABLE_PREFIX = "rings-config-"


def _env_value(item: Dict[str, Any]) -> Any:
    if "valueFrom" in item:
        ref = item["valueFrom"].get("fieldRef")
        return f"fieldRef:{ref['fieldPath']}" if ref else item["valueFrom"]
    return item.get("value")


def _pod(prefix: str, template: Dict[str, Any], out: Dict[str, Any]) -> None:
    labels = (template.get("metadata") or {}).get("labels") or {}
    out[f"{prefix}.label.ring-controller.atlas"] = labels.get("ring-controller.atlas")
    pod = template.get("spec") or {}
    out[f"{prefix}.nodeSelector"] = pod.get("nodeSelector") or None
    out[f"{prefix}.hostNetwork"] = bool(pod.get("hostNetwork", False))
    out[f"{prefix}.restartPolicy"] = pod.get("restartPolicy")
    anti = ((pod.get("affinity") or {}).get("podAntiAffinity") or {}).get(
        "requiredDuringSchedulingIgnoredDuringExecution") or []
    out[f"{prefix}.podAntiAffinity"] = [
        (e.get("topologyKey"), [(x["key"], x["operator"], tuple(x.get("values") or ()))
                                for x in (e.get("labelSelector") or {}).get("matchExpressions") or []])
        for e in anti] or None
    containers = pod.get("containers") or []
    out[f"{prefix}.containers"] = len(containers)
    if not containers:
        return
    c = containers[0]
    p = f"{prefix}.container"
    out[f"{p}.name"] = c.get("name")
    out[f"{p}.image"] = c.get("image")
    out[f"{p}.command"] = c.get("command")
    out[f"{p}.args"] = c.get("args")
    res = c.get("resources") or {}
    for part in ("requests", "limits"):
        npus = {k: v for k, v in (res.get(part) or {}).items() if k.startswith(NPU_PREFIX)}
        out[f"{prefix}.npu.{part}"] = npus or None
    for item in c.get("env") or []:
        out[f"{prefix}.env.{item['name']}"] = _env_value(item)
    volumes = {v["name"]: {k: val for k, val in v.items() if k != "name"} for v in pod.get("volumes") or []}
    mounted = set()
    for m in c.get("volumeMounts") or []:
        mounted.add(m["name"])
        entry = {"volume": m["name"], "source": volumes.get(m["name"])}
        for key in ("readOnly", "subPath"):
            if m.get(key):
                entry[key] = m[key]
        out[f"{prefix}.mount:{m['mountPath']}"] = entry
    for name in sorted(set(volumes) - mounted):
        out[f"{prefix}.volume:{name}"] = volumes[name]


def project(docs: Iterable[Any]) -> Dict[str, Any]:
    """The scheduling/runtime-relevant fields of a job and its ranktable ConfigMap, as a flat map.

    Pods are keyed by replica type (AscendJob) or ``task<i>`` (Volcano Job), mounts by mount path,
    env by name (value, or ``fieldRef:<path>``), so a renamed task or volume shows as one difference.
    """
    docs = [d for d in docs if isinstance(d, dict)]
    jobs = [d for d in docs if d.get("kind") in JOB_KINDS]
    assert len(jobs) == 1, f"expected one job, found {[d.get('kind') for d in docs]}"
    job = jobs[0]
    meta = job.get("metadata") or {}
    spec = job.get("spec") or {}
    out: Dict[str, Any] = {"kind": job["kind"], "apiVersion": job.get("apiVersion"), "name": meta.get("name"),
                           "namespace": meta.get("namespace")}
    labels = meta.get("labels") or {}
    annotations = meta.get("annotations") or {}
    for key in JOB_LABELS:
        out[f"label.{key}"] = labels.get(key)
    for key in JOB_ANNOTATIONS:
        out[f"annotation.{key}"] = annotations.get(key)
    out["schedulerName"] = spec.get("schedulerName")
    if job["kind"] == "AscendJob":
        run = spec.get("runPolicy") or {}
        policy = run.get("schedulingPolicy") or {}
        out["queue"] = policy.get("queue")
        out["minAvailable"] = policy.get("minAvailable")
        out["backoffLimit"] = run.get("backoffLimit")
        out["successPolicy"] = spec.get("successPolicy")
        out["misplaced"] = sorted(set(spec) - {"schedulerName", "runPolicy", "successPolicy", "replicaSpecs"}) or None
        for rtype, replica in sorted((spec.get("replicaSpecs") or {}).items()):
            out[f"{rtype}.replicas"] = replica.get("replicas", 1)
            out[f"{rtype}.replicaRestartPolicy"] = replica.get("restartPolicy")
            _pod(rtype, replica.get("template") or {}, out)
    else:
        out["queue"] = spec.get("queue")
        out["minAvailable"] = spec.get("minAvailable")
        out["maxRetry"] = spec.get("maxRetry")
        out["policies"] = spec.get("policies")
        out["plugins"] = spec.get("plugins")
        for i, task in enumerate(spec.get("tasks") or []):
            out[f"task{i}.name"] = task.get("name")
            out[f"task{i}.replicas"] = task.get("replicas")
            _pod(f"task{i}", task.get("template") or {}, out)
    maps = [d for d in docs if d.get("kind") == "ConfigMap"
            and str((d.get("metadata") or {}).get("name", "")).startswith(RANKTABLE_PREFIX)]
    for cm in maps:
        cm_meta = cm.get("metadata") or {}
        data = dict(cm.get("data") or {})
        if "hccl.json" in data:  # compared as JSON: pretty-printed and compact are the same ranktable
            data["hccl.json"] = json.loads(data["hccl.json"])
        out["configmap"] = {"name": cm_meta.get("name"), "namespace": cm_meta.get("namespace"),
                            "ring-controller.atlas": (cm_meta.get("labels") or {}).get("ring-controller.atlas"),
                            "data": data}
    out["objects"] = sorted(str(d.get("kind")) for d in docs)
    return {k: v for k, v in out.items() if v is not None}


_ABSENT = "<absent>"


def differences(sample: Dict[str, Any], golden: Dict[str, Any]) -> Dict[str, Tuple[Any, Any]]:
    """key -> (sample value, golden value) for every key where they differ."""
    return {k: (sample.get(k, _ABSENT), golden.get(k, _ABSENT)) for k in sorted(set(sample) | set(golden))
            if sample.get(k, _ABSENT) != golden.get(k, _ABSENT)}


def allowed(key: str, listed: Dict[str, Tuple[str, str]]) -> Optional[str]:
    for pattern in listed:
        if fnmatch.fnmatchcase(key, pattern):
            return pattern
    return None


def _load(path: Path) -> List[Any]:
    return [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d is not None]


def compare(key: str) -> Tuple[Dict[str, Tuple[Any, Any]], List[str]]:
    """(unlisted differences, listed patterns that match no difference) for one sample."""
    diff = differences(project(_load(SAMPLES_DIR / SAMPLES[key])), project(_load(GOLDEN / f"{key}.yaml")))
    listed = DIFFERENCES.get(key, {})
    unlisted = {k: v for k, v in diff.items() if allowed(k, listed) is None}
    used = {allowed(k, listed) for k in diff}
    stale = sorted(p for p in listed if p not in used)
    return unlisted, stale


# --- tests -----------------------------------------------------------------------------------------------
def test_every_sample_is_mapped_or_explained(shared_dir: Path) -> None:
    present = {str(p.relative_to(SAMPLES_DIR)) for p in SAMPLES_DIR.rglob("*.yaml")}
    accounted = set(SAMPLES.values()) | set(NOT_EXPRESSED)
    assert not present - accounted, f"upstream samples with no spec and no reason: {sorted(present - accounted)}"
    assert not accounted - present, f"listed samples that are not in {SAMPLES_DIR}: {sorted(accounted - present)}"
    specs = {p.stem for p in SPECS.glob("*.yaml")}
    assert specs == set(SAMPLES), f"examples/samples/ and SAMPLES differ: {sorted(specs ^ set(SAMPLES))}"
    assert set(DIFFERENCES) <= set(SAMPLES), f"DIFFERENCES for unknown specs: {sorted(set(DIFFERENCES) - set(SAMPLES))}"


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_spec_names_its_sample(key: str) -> None:
    head = (SPECS / f"{key}.yaml").read_text(encoding="utf-8").split("apiVersion:", 1)[0]
    upstream = SAMPLES[key].split("/")[-1][:-len(".yaml")].replace("__", "/")
    assert upstream in head, f"{key}.yaml should name its upstream sample {upstream} in its top comment"


@pytest.mark.parametrize("key", sorted(SAMPLES))
def test_golden_agrees_with_sample(key: str, shared_dir: Path) -> None:
    golden = GOLDEN / f"{key}.yaml"
    assert golden.exists(), f"no {golden}; run python -m pytest tests/golden --update-golden and review it"
    unlisted, stale = compare(key)
    lines = [f"  {k}: sample={s!r} golden={g!r}" for k, (s, g) in unlisted.items()]
    assert not unlisted, (f"golden/samples/{key}.yaml differs from {SAMPLES[key]} in fields not listed in "
                          f"DIFFERENCES:\n" + "\n".join(lines))
    assert not stale, f"DIFFERENCES[{key!r}] lists differences that no longer occur: {stale}"


def markdown() -> str:
    """The sample tables of golden/README.md, generated from SAMPLES, DIFFERENCES and NOT_EXPRESSED."""
    out = ["| upstream sample | spec | field (projection key) | kind | justification |", "|---|---|---|---|---|"]
    for key in sorted(SAMPLES):
        sample = SAMPLES[key].replace("__", "/")
        rows = sorted(DIFFERENCES.get(key, {}).items()) or [("–", ("–", "agrees in every projected field"))]
        for pattern, (kind, why) in rows:
            out.append(f"| `{sample}` | `examples/samples/{key}.yaml` | `{pattern}` | {kind} | {why} |")
    out += ["", "| upstream sample (not expressed) | why |", "|---|---|"]
    for sample, why in sorted(NOT_EXPRESSED.items()):
        out.append(f"| `{sample.replace('__', '/')}` | {why} |")
    return "\n".join(out) + "\n"


def test_readme_mirrors_the_table() -> None:
    text = README.read_text(encoding="utf-8") if README.exists() else ""
    assert markdown() in text, ("golden/README.md does not contain the current sample table; regenerate it with "
                                "python tests/golden/test_samples_agree.py --markdown")


if __name__ == "__main__":  # pragma: no cover - a maintenance aid
    if "--markdown" in sys.argv:
        sys.stdout.write(markdown())
    else:
        for key in sorted(SAMPLES):
            unlisted, stale = compare(key)
            for k, (s, g) in unlisted.items():
                print(f"{key}\t{k}\tsample={s!r}\tgolden={g!r}")
            for p in stale:
                print(f"{key}\tSTALE {p}")
