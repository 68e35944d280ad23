"""What upstream does that is not a defect: lint reports no error or warning for it, and no hint undoes it.

Each test names the upstream behaviour (file and function at the pinned mind-cluster commit) it relies on.
"""
from __future__ import annotations

import pytest

from .conftest import lint_text

ACJOB = """\
apiVersion: mindxdl.gitee.com/v1
kind: AscendJob
metadata:
  name: fp
  labels: {framework: pytorch, ring-controller.atlas: ascend-910}
spec:
  runPolicy:
    schedulingPolicy: {queue: default}
  replicaSpecs:
    Master:
      replicas: 1
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            resources:
              requests: {huawei.com/Ascend910: 8}
              limits: {huawei.com/Ascend910: 8}
    Worker:
      replicas: 1
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            resources:
              requests: {huawei.com/Ascend910: 8}
              limits: {huawei.com/Ascend910: 8}
"""


def _loud(findings):
    return [f"{f.rule} {f.severity} {f.message}" for f in findings if f.severity in ("error", "warning")]


def test_missing_ascendjob_port_is_not_a_finding():
    """ascend-operator pkg/api/v1/defaults.go setDefaultPort adds ascendjob-port to every replica that lacks it."""
    findings = lint_text(ACJOB, "fp.yaml")
    assert [f for f in findings if f.rule == "AC213"] == []


def test_old_atlas_800_job_without_accelerator_type_is_not_a_finding():
    """factory.go get910CardHandlerName: no accelerator-type -> the default 910 module handler, right for Atlas 800
    (upstream's a800 samples are written so): an ascend-910 job gets no warning or error; judged for v26.1.0 no
    finding at all, and without a target only the note that v6.0.0-v26.0.1 place it on Atlas 800 nodes only."""
    from ascend_compile import releases

    findings = lint_text(ACJOB, "fp.yaml")
    assert _loud(findings) == []
    assert [(f.rule, f.severity) for f in findings if f.rule == "AC305"] == [("AC305", "info")]
    assert "on MindCluster v6.0.0-v26.0.1 " in [f for f in findings if f.rule == "AC305"][0].message
    named = lint_text(ACJOB, "fp.yaml", target=releases.Target("v26.1.0", True, "test"))
    assert [f for f in named if f.rule == "AC305"] == []


def _profile_dir(tmp_path, allowed, accelerator_type="other-card"):
    folder = tmp_path / "profiles"
    folder.mkdir()
    (folder / "other-card.yaml").write_text(f"""\
apiVersion: ascend-compile.io/v1alpha1
kind: HardwareProfile
metadata:
  name: other-card
spec:
  description: A card server sharing chip1-node2 with card-910 / card-910b-2 but taking {allowed} per pod.
  chip: Ascend910B
  resource: huawei.com/Ascend910
  ringController: ascend-910b
  acceleratorType: {accelerator_type}
  schedulePolicy: chip1-node2
  hostArch: huawei-arm
  npusPerNode: 16
  npusPerPod:
    singlePod: {allowed}
    multiPod: {allowed}
  ranktableVersion: "1.0"
  frameworks: [pytorch, mindspore, tensorflow]
  targets: [AscendJob, VolcanoJob]
  sources: ["test"]
""")
    return str(folder)


POLICY_JOB = ACJOB.replace("  labels: {framework: pytorch, ring-controller.atlas: ascend-910}",
                           "  labels: {framework: pytorch, ring-controller.atlas: ascend-910b}\n"
                           "  annotations: {huawei.com/schedule_policy: chip1-node2}").replace(": 8}", ": 9}")


def test_a_count_one_candidate_profile_accepts_is_not_reported(tmp_path):
    """A policy shared by profiles and no selector: the pods may land on any server the card handler takes.
    9 per pod is refused by every built-in card profile (the handler takes 1 to 8) but taken by other-card."""
    from ascend_compile.hardware.profiles import ProfileRegistry

    builtin = lint_text(POLICY_JOB, "fp.yaml")
    assert [f.rule for f in builtin if f.severity == "error"] == ["AC301", "AC301"]
    widened = lint_text(POLICY_JOB, "fp.yaml", registry=ProfileRegistry([_profile_dir(tmp_path, [1, 2, 4, 9])]))
    assert [f for f in widened if f.rule == "AC301"] == []


def test_a_count_every_candidate_refuses_is_reported(tmp_path):
    from ascend_compile.hardware.profiles import ProfileRegistry

    narrowed = lint_text(POLICY_JOB, "fp.yaml", registry=ProfileRegistry([_profile_dir(tmp_path, [1, 2])]))
    assert [f.rule for f in narrowed if f.severity == "error"] == ["AC301", "AC301"]


def test_a_policy_without_a_selector_is_held_to_its_handler_not_to_one_servers_nodes():
    """chip1-node2 with 8 NPUs per pod and no accelerator-type runs on an 8-NPU server (the card handler takes
    1 to 8 per pod and nodes of up to 8; tests/simcluster/test_policy_without_selector.py shows it); naming
    the 2-NPU card servers it never fits.  Upstream's a300t Deployment samples give the policy this way."""
    eight = POLICY_JOB.replace(": 9}", ": 8}")
    assert [f for f in lint_text(eight, "fp.yaml") if f.severity == "error"] == []
    bound = eight.replace("        spec:\n", "        spec:\n          nodeSelector: {accelerator-type: card-910b-2}\n")
    assert [f.rule for f in lint_text(bound, "fp.yaml") if f.severity == "error"] == ["AC301", "AC301"]


def test_a_schedule_policy_does_not_pick_the_handler_of_a_310p_job():
    """The plugin picks a 310P job's handler by its labels (InitPolicyHandler: init310PCardPolicyHandler): a 910
    policy on it changes nothing, and lint does not hold it to the 910 card servers."""
    job = VNPU.replace("huawei.com/npu-core: 4", "huawei.com/Ascend310P: 1")
    with_policy = job.replace("  labels: {ring-controller.atlas: ascend-310P}",
                              "  labels: {ring-controller.atlas: ascend-310P}\n"
                              "  annotations: {huawei.com/schedule_policy: chip1-node2}")
    assert with_policy != job
    def summary(text):
        return sorted((f.rule, f.severity) for f in lint_text(text, "p.yaml") if f.rule not in ("AC307",))
    assert summary(with_policy) == summary(job)


VNPU = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: vnpu
  labels: {ring-controller.atlas: ascend-310P}
spec:
  minAvailable: 1
  schedulerName: volcano
  queue: default
  tasks:
  - name: infer
    replicas: 1
    template:
      metadata:
        labels: {ring-controller.atlas: ascend-310P, vnpu-level: low, vnpu-dvpp: "null"}
      spec:
        restartPolicy: Never
        containers:
        - name: infer
          image: infer:1
          resources:
            requests: {huawei.com/npu-core: 4}
            limits: {huawei.com/npu-core: 4}
"""


def test_dynamic_vnpu_job_keeps_its_ring_controller_label():
    """util GetPluginNameByReq reads ring-controller.atlas to pick the chip family of an npu-core request."""
    findings = lint_text(VNPU, "vnpu.yaml")
    assert _loud(findings) == []
    for finding in findings:
        text = f"{finding.message} {finding.hint or ''}".lower()
        assert not ("remove" in text and "ring-controller" in text), finding


def test_a_ranktable_hint_never_suggests_removing_the_label():
    """The AC501 doc and hint tell the user to add the ConfigMap, not to drop ring-controller.atlas."""
    from ascend_compile import catalogue
    from ascend_compile.lint.registry import documentation

    entry = catalogue.get("AC501")
    assert "remove" not in entry.hint.lower()
    assert "remove the label" not in documentation(entry).lower()


def test_the_framework_env_is_asked_of_upstreams_start_script_only():
    """The framework env is read by some of upstream's sample start scripts (train_start.sh) only; no upstream
    component reads it, and the manifest does not say which train_start.sh runs (upstream's MindSpore resumable
    scripts of that name never read it). Misspelt, every script that reads it rejects it: a warning; missing, only
    the basic-training script exits: a note that says so conditionally; a job that runs anything else: nothing."""
    job = VNPU.replace("huawei.com/npu-core: 4", "huawei.com/Ascend910: 8").replace(
        "replicas: 1", "replicas: 2").replace("minAvailable: 1", "minAvailable: 2").replace(
        "ascend-310P", "ascend-910b").replace(", vnpu-level: low, vnpu-dvpp: \"null\"", "")
    job = job.replace("        containers:", "        nodeSelector: {accelerator-type: module-910b-8}\n        containers:")
    script = job.replace("          image: infer:1", "          image: infer:1\n"
                         "          command: [/bin/bash, -c, \"bash train_start.sh /job/code /job/out main.py\"]")
    missing = lint_text(script, "fw.yaml")
    wrong = lint_text(script.replace("          image: infer:1",
                                     "          image: infer:1\n          env: [{name: framework, value: pytorch}]"),
                      "fw.yaml")
    assert [f.severity for f in wrong if f.rule == "AC604"] == ["warning"]
    assert [(f.severity, "if that is upstream's basic-training" in f.message)
            for f in missing if f.rule == "AC604"] == [("info", True)]
    assert [f for f in lint_text(job, "fw.yaml") if f.rule == "AC604"] == []


def test_a_350_job_is_not_checked_against_atlas_800_rules():
    """factory.go policy910HandlerMap sends chip4-node8 to the Ascend 350 4p-8 handler (chip4nodex), whose
    checkJobMode takes up to 8 NPUs per pod: no profile of ours describes it, so nothing is guessed."""
    job = POLICY_JOB.replace("chip1-node2", "chip4-node8").replace("ascend-910b", "ascend-npu").replace(
        "huawei.com/Ascend910: 9", "huawei.com/npu: 3")
    findings = lint_text(job, "350.yaml")
    assert _loud(findings) == []


def test_replicas_selecting_different_servers_are_not_checked_against_one_profile():
    """Each pod lands on the nodes its own selector names (the simulated cluster runs such a job): no count
    error from a profile picked for the whole job, and AC308 is a warning, not an error."""
    master, worker = ACJOB.split("    Worker:\n")
    master = master.replace("          containers:", "          nodeSelector: {accelerator-type: module}\n"
                                                  "          containers:")
    worker = worker.replace("          containers:", "          nodeSelector: {accelerator-type: card}\n"
                                                  "          containers:").replace("Ascend910: 8", "Ascend910: 2")
    job = master + "    Worker:\n" + worker
    findings = lint_text(job, "mixed.yaml")
    assert [f.rule for f in findings if f.severity == "error"] == []
    assert "AC308" in [f.rule for f in findings if f.severity == "warning"]


# A 910B job that selects no server type: pods on the host network, labelled ascend-910b.
UNTYPED_910B = ACJOB.replace("ring-controller.atlas: ascend-910}", "ring-controller.atlas: ascend-910b}").replace(
    "        spec:\n          containers:", "        spec:\n          hostNetwork: true\n          containers:")


def _of(findings, rule):
    return [(f.severity, f.message) for f in findings if f.rule == rule]


def test_ring_controller_of_a_job_naming_no_server_type_is_not_compared_with_the_default_handler():
    """factory.go get910CardHandlerName gives a job without accelerator-type the Atlas 800 handler, but nothing
    keeps its pods off 910B nodes: ascend-910b is no mismatch there (AC305 warns of the missing selector)."""
    findings = lint_text(UNTYPED_910B, "fp.yaml")
    assert _of(findings, "AC215") == []
    assert [f.severity for f in findings if f.rule == "AC305"] == ["warning"]


def test_ring_controller_of_a_job_naming_its_server_type_is_still_compared():
    typed = UNTYPED_910B.replace("          hostNetwork: true\n",
                                 "          hostNetwork: true\n          nodeSelector: {accelerator-type: module}\n")
    assert [severity for severity, _ in _of(lint_text(typed, "fp.yaml"), "AC215")] == ["warning"]


def test_host_network_without_hccl_if_ip_in_a_distributed_job_is_a_warning():
    """ascend-operator env.go sets no HCCL_IF_IP; HCCL then picks a host interface by its own order, and a pod
    on the host network sees every interface of the server: a warning for a job whose pods span servers."""
    findings = lint_text(UNTYPED_910B, "fp.yaml")
    assert [severity for severity, _ in _of(findings, "AC603")] == ["warning", "warning"]


# Upstream's ranktable start script run as its samples run it, down the branch that exports HCCL_IF_IP=${XDL_IP}:
# env framework PyTorch, XDL_IP from the host, the ranktable volume mounted (on both replicas of UNTYPED_910B).
RANKTABLE_SCRIPT = UNTYPED_910B.replace("            resources:", """\
            command: [/bin/bash, -c, "cd /job/code/scripts; bash train_start.sh /job/code /job/output main.py"]
            env:
            - {name: framework, value: PyTorch}
            - {name: XDL_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}
            volumeMounts:
            - {name: ranktable, mountPath: /user/serverid/devindex/config}
            resources:""").replace("          containers:", """\
          volumes:
          - name: ranktable
            hostPath: {path: /user/mindx-dl/ranktable/default.fp, type: Directory}
          containers:""")


def test_host_network_without_hccl_if_ip_under_what_may_be_upstreams_ranktable_script_is_a_note():
    """mindcluster-deploy samples/train/basic-training/ranktable/train_start.sh exports HCCL_IF_IP=${XDL_IP} in its
    PyTorch branch for more than one device, which runs with env framework=PyTorch; but the manifest names a
    train_start.sh by file name only, not which script: a note that says what happens if it is that one."""
    found = _of(lint_text(RANKTABLE_SCRIPT, "fp.yaml"), "AC603")
    assert [severity for severity, _ in found] == ["info", "info"]
    assert all("if train_start.sh is upstream's basic-training ranktable train_start.sh" in m for _, m in found)


@pytest.mark.parametrize("change", [
    ("value: PyTorch", "value: MindSpore"),  # the MindSpore branch exports no HCCL_IF_IP
    ("            - {name: XDL_IP, valueFrom: {fieldRef: {fieldPath: status.hostIP}}}\n", ""),  # nothing to copy
    ("ranktable", "shared"),  # no ranktable volume: the script would wait for hccl.json in vain
], ids=["mindspore", "no-xdl-ip", "no-ranktable"])
def test_train_start_sh_without_what_makes_it_export_hccl_if_ip_is_a_warning(change):
    """Without what that branch needs, the manifest shows nothing that sets the variable: a warning that claims
    nothing about the script (lint cannot see it)."""
    job = RANKTABLE_SCRIPT.replace(*change)
    assert job != RANKTABLE_SCRIPT
    found = _of(lint_text(job, "fp.yaml"), "AC603")
    assert [severity for severity, _ in found] == ["warning", "warning"]
    assert all("lint cannot see what train_start.sh sets" in m and "exports" not in m for _, m in found), found


def test_host_network_without_hccl_if_ip_under_another_script_is_a_warning():
    """A script lint cannot read may set neither variable: the true case that skipping every '.sh' lost."""
    script = UNTYPED_910B.replace("            resources:", "            command: [/bin/bash, -c, "
                                  "\"bash /job/code/launch.sh --nnodes=2\"]\n            resources:")
    found = _of(lint_text(script, "fp.yaml"), "AC603")
    assert [severity for severity, _ in found] == ["warning", "warning"]
    assert all("lint cannot see what /job/code/launch.sh sets" in m for _, m in found), found


def test_hccl_socket_ifname_names_the_interface_as_well():
    env = ("            env:\n            - {name: HCCL_SOCKET_IFNAME, value: enp189s0f0}\n"
           "            resources:")
    by_name = UNTYPED_910B.replace("            resources:", env)
    assert _of(lint_text(by_name, "fp.yaml"), "AC603") == []


# A Volcano Job and a Deployment that give the schedule policy on the pod template only (upstream's
# mindcluster-deploy master Deployment samples do so, e.g. samples/train/basic-training/ranktable/yaml/910b/
# a800_pytorch_deployment.yaml: chip8-node16 and 16 NPUs in one pod).
POD_POLICY_VCJOB = VNPU.replace("huawei.com/npu-core: 4", "huawei.com/Ascend910: 16").replace(
    "replicas: 1", "replicas: 2").replace("minAvailable: 1", "minAvailable: 2").replace(
    "ascend-310P", "ascend-910b").replace(", vnpu-level: low, vnpu-dvpp: \"null\"}",
                                          "}\n        annotations: {huawei.com/schedule_policy: chip8-node16}")
POD_POLICY_DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: box16-serve
spec:
  replicas: 1
  selector:
    matchLabels: {app: box16-serve}
  template:
    metadata:
      labels: {app: box16-serve}
      annotations: {huawei.com/schedule_policy: chip8-node16}
    spec:
      schedulerName: volcano
      containers:
      - name: serve
        image: torch:2.1
        resources:
          requests: {huawei.com/Ascend910: 16}
          limits: {huawei.com/Ascend910: 16}
"""
POD_POLICY_NPU = POD_POLICY_VCJOB.replace("chip8-node16", "chip8-node8-ra64-sp").replace(
    "huawei.com/Ascend910: 16", "huawei.com/npu: 8")


@pytest.mark.parametrize("text", [POD_POLICY_VCJOB, POD_POLICY_DEPLOYMENT, POD_POLICY_NPU],
                         ids=["vcjob", "deployment", "npu-vcjob"])
def test_a_schedule_policy_on_the_pod_template_counts(text):
    findings = lint_text(text, "pod-policy.yaml")
    assert [f"{f.rule} {f.message}" for f in findings if f.severity == "error"] == []
    assert [f for f in findings if f.rule == "AC305"] == []


def test_without_the_policy_the_same_job_still_fails():
    findings = lint_text(POD_POLICY_VCJOB.replace(
        "\n        annotations: {huawei.com/schedule_policy: chip8-node16}", ""), "no-policy.yaml")
    assert "AC301" in [f.rule for f in findings if f.severity == "error"]


def test_a_volcano_job_without_a_service_may_have_dots_or_a_leading_digit_in_its_name():
    """Volcano's admission checks a job's name and its pod names as qualified names only (admit_job.go
    validateJobName, validateK8sPodNameLength); only the svc plugin (added for tensorflow, mpi and pytorch:
    mutate_job.go) names a Service and the pods' subdomain after the job."""
    def ac704(name, plugins=()):
        job = VNPU.replace("name: vnpu", f"name: {name}")
        if plugins:
            job = job.replace("  queue: default\n", "  queue: default\n  plugins: {%s}\n"
                              % ", ".join(f"{p}: []" for p in plugins))
        return [f.severity for f in lint_text(job, "name.yaml") if f.rule == "AC704"]

    for name in ("qwen2.5-sft", "7b-sft"):
        assert ac704(name) == ac704(name, ["env"]) == [], name
        assert ac704(name, ["svc"]) == ac704(name, ["pytorch"]) == ["error"], name
    # the ssh plugin's volume <job>-ssh is a DNS-1123 label: no dots (the simulated cluster refuses the pods)
    assert ac704("qwen2.5-sft", ["ssh", "env"]) == ["error"]
    assert ac704("7b-sft", ["ssh", "env"]) == []


def test_only_the_leader_service_name_of_an_ascendjob_must_fit_a_dns_label():
    """ascend-operator creates one Service, <job>-<leader>-0 (jobinfo.go getOrCreateSvc), and sets no host
    name on its pods: a Worker pod named <job>-worker-10 may pass 63 characters."""
    def ac705(name):
        job = ACJOB.replace("  name: fp\n", f"  name: {name}\n").replace(
            "    Worker:\n      replicas: 1", "    Worker:\n      replicas: 11")
        return [f.message for f in lint_text(job, "long.yaml") if f.rule == "AC705"]

    assert ac705("a" * 54) == []  # aaa...-master-0 has 63 characters, aaa...-worker-10 has 64
    assert len(ac705("a" * 55)) == 1  # the Service name has 64


def test_a_mindspore_worker_npu_in_limits_alone_is_not_counted_by_the_operator():
    """ascendjob_validate.go jobTotalRequest counts the ascend container's resources.requests as written in the
    AscendJob (utils.go getContainerResourceReq); the API server defaults requests from limits in the pods only."""
    master, worker = ACJOB.split("    Worker:\n")
    job = ("    Worker:\n" + worker).replace("              requests: {huawei.com/Ascend910: 8}\n", "")
    job = master.split("    Master:\n")[0].replace("framework: pytorch", "framework: mindspore") + job
    assert [f for f in lint_text(job, "ms.yaml") if f.rule == "AC212"] == []
    requested = job.replace("            resources:\n", "            resources:\n"
                            "              requests: {huawei.com/Ascend910: 8}\n")
    assert [f.severity for f in lint_text(requested, "ms.yaml") if f.rule == "AC212"] == ["error"]
