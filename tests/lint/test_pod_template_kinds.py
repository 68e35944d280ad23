"""The pod rules on the pod templates of every workload kind (issue 45 item 3): the public corpus under
tests/corpus/kinds/ (Ray, LeaderWorkerSet, kthena, Kubeflow's training jobs, JobSet, CronJob, and HAMi's and Volcano's
vNPU examples, each judged for the device stack it names) draws no error but the true ones its sources carry, a
mistake seeded in each file's template is found on its line, the rules
of AscendJob and Volcano Job stay off these kinds, and the config's podTemplates adds a kind (or is refused where
it is wrong, at its line)."""
from __future__ import annotations

import glob
import os
import re

import pytest

from ascend_compile.errors import InputError
from ascend_compile.findings import ERROR

from .conftest import lint_text

CORPUS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "corpus", "kinds")
FILES = sorted(glob.glob(os.path.join(CORPUS, "*.yaml")))
#: each corpus file, and the path of the pod template its seeded mistake is in (the target a file needs is its
#: ``# device-stack:`` line, read as a lint case's)
SEEDED_IN = {
    "cronjob-hello.yaml": "spec.jobTemplate.spec.template.spec.containers[0]",
    "hami-pod-910b-plugin-example.yaml": "spec.containers[0]",
    "hami-pod-910b3.yaml": "spec.containers[0]",
    "hami-soft-slice-pod.yaml": "spec.containers[0]",
    "jobset-pytorch-resnet.yaml": "spec.replicatedJobs[0].template.spec.template.spec.containers[0]",
    "lws-vllm-ascend.yaml": "spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0]",
    "modelserving-pd-ascend.yaml": "spec.template.roles[0].entryTemplate.spec.containers[1]",
    "mpijob-tensorflow-mnist.yaml": "spec.mpiReplicaSpecs.Launcher.template.spec.containers[0]",
    "pytorchjob-mnist-nccl.yaml": "spec.pytorchReplicaSpecs.Master.template.spec.containers[0]",
    "raycluster-ascend-workers.yaml": "spec.workerGroupSpecs[0].template.spec.containers[0]",
    "rayjob-pytorch-mnist.yaml": "spec.rayClusterSpec.headGroupSpec.template.spec.containers[0]",
    "rayservice-npu-worker.yaml": "spec.rayClusterConfig.workerGroupSpecs[0].template.spec.containers[0]",
    "tfjob-multi-worker.yaml": "spec.tfReplicaSpecs.Worker.template.spec.containers[0]",
    "volcano-vnpu-hami-pod.yaml": "spec.containers[0]",
    "volcano-vnpu-mindcluster-job.yaml": "spec.tasks[0].template.spec.containers[0]",
}
#: the errors a file draws as its source wrote it, each a true one (rule, line): what Kubernetes refuses
TRUE_ERRORS = {
    # the container name of the docs' soft-slicing pod has an underscore: the API server refuses the pod
    "hami-soft-slice-pod.yaml": [("AC709", 14)],
    # the image names the project as a placeholder in angle brackets: no kubelet can pull it
    "pytorchjob-mnist-nccl.yaml": [("AC710", 20), ("AC710", 35)],
}
_SECTION = re.compile(r"^(\s*)(requests|limits):\s*$")
_AMOUNT = re.compile(r"""^(\s*)([A-Za-z0-9./-]+):\s*(["']?)(\d+)\3\s*(?:#.*)?$""")
_IMAGE = re.compile(r"^(\s*-?\s*image:\s*)(\S+)\s*$")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def seeded(text):
    """``text`` with one mistake in its first pod template's container, (the new text, the rule that must find it, its
    line): an NPU request one less than its limit (AC701; a request written where there is none); else, without an
    NPU, a request one more than its limit (AC707); else, without limits, an image no kubelet can pull (AC710)."""
    lines = text.splitlines(keepends=True)
    found = {"requests": [], "limits": []}  # (line index, the match, the index of its section's line)
    section = None
    for number, line in enumerate(lines):
        head = _SECTION.match(line)
        if head:
            section = head.group(2), number, len(head.group(1))
        elif section and line.strip() and len(line) - len(line.lstrip()) <= section[2]:
            section = None  # the section ended
        elif section and _AMOUNT.match(line):
            found[section[0]].append((number, _AMOUNT.match(line), section[1]))
    limits = [entry for entry in found["limits"] if entry[1].group(2).startswith("huawei.com/")] or found["limits"]
    if not limits:
        number = next(i for i, line in enumerate(lines) if _IMAGE.match(line))
        image = _IMAGE.match(lines[number])
        lines[number] = f"{image.group(1)}{image.group(2)}:two:tags\n"
        return "".join(lines), "AC710", number + 1
    limit_at, limit, head = limits[0]
    npu = limit.group(2).startswith("huawei.com/")
    rule, amount = ("AC701", int(limit.group(4)) - 1) if npu else ("AC707", int(limit.group(4)) + 1)
    requests = [(i, m) for i, m, _ in found["requests"] if m.group(2) == limit.group(2)]
    if requests:
        number, request = min(requests, key=lambda pair: abs(pair[0] - limit_at))  # the same container's: the nearest
        lines[number] = f"{request.group(1)}{request.group(2)}: {amount}\n"
        return "".join(lines), rule, (limit_at if npu else number) + 1
    indent = _SECTION.match(lines[head]).group(1)
    lines.insert(head, f"{indent}requests:\n{limit.group(1)}{limit.group(2)}: {amount}\n")
    return "".join(lines), rule, (limit_at + 2 if npu else head + 1) + 1


def _dotted(path):
    return ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")


def test_the_corpus_holds_every_file_the_seeds_name():
    assert sorted(os.path.basename(path) for path in FILES) == sorted(SEEDED_IN)


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_each_corpus_file_cites_its_source(path):
    assert read(path).startswith("# Source: "), "cite the repository, path and commit (or thread) on the first line"


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_each_corpus_file_draws_no_false_error_with_its_target(path):
    errors = [(f.rule, f.line) for f in lint_text(read(path), path) if f.severity == ERROR]
    assert errors == TRUE_ERRORS.get(os.path.basename(path), [])


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_a_seeded_mistake_is_found_on_the_template_line(path):
    text, rule, line = seeded(read(path))
    found = [f for f in lint_text(text, path) if f.rule == rule and (f.rule, f.line) not in
             TRUE_ERRORS.get(os.path.basename(path), [])]
    assert [f.line for f in found] == [line]
    assert _dotted(found[0].path).startswith(SEEDED_IN[os.path.basename(path)] + ".")


RAY_LIKE_A_JOB = """\
apiVersion: ray.io/v1
kind: RayCluster
metadata:
  name: ray-ranktable
  labels: {ring-controller.atlas: ascend-910b, framework: pytorch}
spec:
  headGroupSpec:
    template:
      metadata:
        labels: {ring-controller.atlas: ascend-910}
      spec:
        schedulerName: volcano
        restartPolicy: Always
        containers:
        - name: ray-head
          image: rayproject/ray:2.41.0
          resources:
            requests: {huawei.com/Ascend910: 8}
            limits: {huawei.com/Ascend910: 8}
          volumeMounts: [{name: ranktable, mountPath: /user/serverid/devindex/config}]
        volumes:
        - name: ranktable
          configMap: {name: rings-config-ray-ranktable}
  workerGroupSpecs:
  - groupName: npu
    replicas: 3
    template:
      spec:
        schedulerName: volcano
        containers:
        - name: ray-worker
          image: rayproject/ray:2.41.0
          resources:
            requests: {huawei.com/Ascend910: 4}
            limits: {huawei.com/Ascend910: 4}
"""


def test_the_rules_of_ascendjob_and_volcano_job_stay_off_other_kinds():
    """A RayCluster that looks like a job to them (a ring-controller label that differs between templates, a
    ranktable volume, uneven NPUs per pod, no ranktable ConfigMap) draws none of their findings; the same pods as a
    Volcano Job draw several."""
    from ascend_compile.catalogue import get

    own = {f.rule for f in lint_text(RAY_LIKE_A_JOB) if f.rule.startswith("AC")}
    jobs_only = {rule for rule in own if get(rule) is not None and "VolcanoJob" in get(rule).kinds
                 and "other kinds with pod templates" not in get(rule).kinds and "*" not in get(rule).kinds}
    assert jobs_only == set()
    as_job = RAY_LIKE_A_JOB.replace("apiVersion: ray.io/v1\nkind: RayCluster", "apiVersion: batch.volcano.sh/v1alpha1\n"
                                    "kind: Job")
    as_job = as_job.replace("  headGroupSpec:\n    template:", "  tasks:\n  - name: head\n    replicas: 1\n    template:")
    as_job = as_job.replace("  workerGroupSpecs:\n  - groupName: npu\n", "  - name: npu\n")
    job_rules = {f.rule for f in lint_text(as_job)}
    assert {"AC215", "AC501"} <= job_rules  # the same pods as a Volcano Job: the job rules do look


def test_other_kinds_are_not_read_as_pod_templates():
    """A kind outside the table (a Service) has no pod sets; a Deployment of another group than apps is not read as
    apps' Deployment."""
    from ascend_compile.manifest.job import Manifest

    deployment = {"apiVersion": "example.com/v1", "kind": "Deployment",
                  "spec": {"template": {"spec": {"containers": [{"name": "c"}]}}}}
    assert Manifest(deployment).pod_sets() == []
    assert len(Manifest({**deployment, "apiVersion": "apps/v1"}).pod_sets()) == 1


def test_pod_sets_carry_the_counts_and_names_of_their_templates():
    from ascend_compile.manifest.job import Manifest
    from ascend_compile.yamlio.parsing import load_documents

    ray = Manifest(load_documents(RAY_LIKE_A_JOB, "ray.yaml")[0].data)
    assert [(p.role, p.replicas, p.npus()) for p in ray.pod_sets()] == [("headGroupSpec", 1, 8),
                                                                        ("workerGroupSpecs[0] (npu)", 3, 4)]


def test_the_no_schema_note_says_the_pod_templates_were_checked():
    notes = [f.message for f in lint_text(RAY_LIKE_A_JOB) if f.rule == "AC106"]
    assert notes and all("checked its pod templates" in note for note in notes)
    service = "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: 80}]}\n"
    assert [f.message for f in lint_text(service) if f.rule == "AC106"] == [
        "no built-in schema for v1 Service; its fields were not checked against one"]


CUSTOM = """\
apiVersion: example.com/v1
kind: TrainingRun
metadata:
  name: run
spec:
  workers:
  - count: 2
    template:
      spec:
        containers:
        - name: w
          image: busybox:1.36
          resources:
            requests: {huawei.com/Ascend910: 6}
            limits: {huawei.com/Ascend910: 8}
"""


def _config(tmp_path, text):
    (tmp_path / ".git").mkdir(exist_ok=True)
    path = tmp_path / ".ascend-compile.yaml"
    path.write_text(text, encoding="utf-8")
    from ascend_compile.config import load_config

    return load_config(str(path))


def test_a_kind_the_config_adds_gets_the_pod_rules(tmp_path):
    config = _config(tmp_path, "podTemplates:\n- apiVersion: example.com/v1\n  kind: TrainingRun\n  paths:\n"
                               "  - {template: 'spec.workers[*].template', replicas: 'spec.workers[*].count'}\n")
    found = [(f.rule, f.line) for f in lint_text(CUSTOM, config=config) if f.severity == ERROR]
    assert found == [("AC701", 15)]
    assert [f for f in lint_text(CUSTOM) if f.severity == ERROR] == []  # without the config: not read


@pytest.mark.parametrize("entry, at, words", [
    ("- {apiVersion: example.com/v1, kind: TrainingRun, paths: ['spec..template']}", "'spec..", "template path"),
    ("- {apiVersion: example.com/v1, kind: TrainingRun, paths: [{template: 'spec.a[*].template', replicas: "
     "'spec.a[*].b[*].n'}]}", "'spec.a[*].b", "more wildcards"),
    ("- {apiVersion: batch.volcano.sh/v1alpha1, kind: Job, paths: [spec.template]}", "Job,", "own rules"),
    ("- {apiVersion: example.com/v1, kind: TrainingRun, paths: [spec.template], replica: x}", "replica:", "unknown key"),
    ("- {apiVersion: example.com/v1, kind: TrainingRun, paths: []}", "[]", "non-empty list"),
    ("- {apiVersion: 'Example.com v1', kind: TrainingRun, paths: [spec.template]}", "'Example", "not an API version"),
    ("- {apiVersion: example.com/v1, kind: TrainingRun, paths: [a]}\n- {apiVersion: example.com/v2, kind: TrainingRun, "
     "paths: [b]}", None, "twice"),
])
def test_a_wrong_pod_templates_entry_is_refused_at_its_place(tmp_path, entry, at, words):
    """Each problem is an input error on the line of the entry, at the column of the value or key it is about."""
    with pytest.raises(InputError) as refused:
        _config(tmp_path, "podTemplates:\n" + entry + "\n")
    problem = refused.value.findings[0]
    if at is not None:
        assert (problem.line, problem.column) == (2, entry.index(at) + 1)
    assert words in problem.message


def test_pod_templates_that_is_no_list_is_refused_at_its_key(tmp_path):
    with pytest.raises(InputError) as refused:
        _config(tmp_path, "podTemplates: {apiVersion: example.com/v1}\n")
    problem = refused.value.findings[0]
    assert (problem.line, problem.column, "must be a list" in problem.message) == (1, 1, True)


def test_a_job_label_on_another_kinds_own_labels_is_sent_to_its_templates():
    text = ("apiVersion: ray.io/v1\nkind: RayCluster\nmetadata:\n  name: r\n  labels: {fault-scheduling: force}\n"
            "spec:\n  workerGroupSpecs:\n  - groupName: g\n    template:\n      spec:\n        containers: [{name: w}]\n")
    messages = [f.message for f in lint_text(text) if f.rule == "AC320"]
    assert len(messages) == 1 and messages[0].endswith("put it on spec.workerGroupSpecs[0].template.metadata.labels")


def test_show_config_writes_the_added_kinds_back_as_the_config_does(tmp_path):
    from ascend_compile.podtemplates import described

    config = _config(tmp_path, "podTemplates:\n- apiVersion: example.com/v1\n  kind: TrainingRun\n  paths:\n"
                               "  - spec.launcher.template\n"
                               "  - {template: 'spec.workers[*].template', replicas: 'spec.workers[*].count'}\n")
    assert described(config.pod_templates) == [{"group": "example.com", "kind": "TrainingRun", "paths": [
        {"template": "spec.launcher.template", "replicas": None},
        {"template": "spec.workers[*].template", "replicas": "spec.workers[*].count"}]}]


def test_an_npu_count_the_plugin_refuses_is_found_in_another_kinds_template():
    """9 NPUs a pod on module-910b-16 servers, for pods Volcano places: AC301 on the leader template's request, as
    for a Deployment (tests/lint/cases/AC301-npu-count.yaml); the LeaderWorkerSet's replicas make it several pods."""
    text = ("apiVersion: leaderworkerset.x-k8s.io/v1\nkind: LeaderWorkerSet\nmetadata: {name: l}\nspec:\n  replicas: 2\n"
            "  leaderWorkerTemplate:\n    size: 2\n    leaderTemplate:\n      spec:\n        schedulerName: volcano\n"
            "        nodeSelector: {accelerator-type: module-910b-16}\n        containers:\n        - name: serve\n"
            "          image: mindie:1.0\n          resources:\n            requests: {huawei.com/Ascend910: 9}\n"
            "            limits: {huawei.com/Ascend910: 9}\n")
    found = [(f.rule, f.line) for f in lint_text(text) if f.severity == ERROR]
    assert found == [("AC301", 16)]
