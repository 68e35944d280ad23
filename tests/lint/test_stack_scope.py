"""Findings that assert what MindCluster does hold only on the device stacks that run it (issue 45): a rule unit names
the stacks it holds on (``STACKS``), the engine does not run it on a run judged for another, and its documentation
says so."""
from __future__ import annotations

import importlib

import pytest

from ascend_compile import catalogue
from ascend_compile.releases import DEVICE_STACKS, MINDCLUSTER_STACK

from .conftest import lint_text

#: a Volcano Job served by HAMi's device plugin, with what MindCluster's node labels, device annotations and
#: ranktable would have it otherwise: a host-arch value MindCluster's nodes do not carry, ASCEND_VISIBLE_DEVICES read
#: from the MindCluster device plugin's annotation of another resource, and tasks of different NPU counts
HAMI_JOB = """\
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: infer
spec:
  schedulerName: volcano
  minAvailable: 3
  queue: default
  tasks:
  - name: head
    replicas: 1
    template:
      spec:
        restartPolicy: OnFailure
        nodeSelector: {host-arch: arm64}
        containers:
        - name: serve
          image: vllm-ascend:1.0
          env:
          - name: ASCEND_VISIBLE_DEVICES
            valueFrom: {fieldRef: {fieldPath: "metadata.annotations['huawei.com/Ascend910']"}}
          resources:
            requests: {huawei.com/Ascend910B3: 1, huawei.com/Ascend910B3-memory: 16384}
            limits: {huawei.com/Ascend910B3: 1, huawei.com/Ascend910B3-memory: 16384}
  - name: worker
    replicas: 2
    template:
      spec:
        restartPolicy: OnFailure
        containers:
        - name: serve
          image: vllm-ascend:1.0
          resources:
            requests: {huawei.com/Ascend910B3: 2}
            limits: {huawei.com/Ascend910B3: 2}
"""
MINDCLUSTER_ONLY = {"AC315", "AC601", "AC703"}
#: 9 NPUs a pod on 16-NPU servers: the number MindCluster's Volcano plugin refuses (AC301)
NINE = """\
apiVersion: apps/v1
kind: Deployment
metadata: {name: serve}
spec:
  replicas: 1
  selector: {matchLabels: {app: serve}}
  template:
    metadata: {labels: {app: serve}}
    spec:
      schedulerName: volcano
      nodeSelector: {accelerator-type: module-910b-16}
      containers:
      - name: serve
        image: mindie:1.0
        resources:
          requests: {huawei.com/Ascend910: 9}
          limits: {huawei.com/Ascend910: 9}
"""


def _rules(text: str, stack: str):
    return {f.rule for f in lint_text(f"# device-stack: {stack}\n" + text)}


def test_the_findings_about_mindcluster_fire_on_its_stack():
    assert MINDCLUSTER_ONLY <= _rules(HAMI_JOB, MINDCLUSTER_STACK)
    assert "AC301" in _rules(NINE, MINDCLUSTER_STACK)


@pytest.mark.parametrize("stack", ["hami", "volcano-vnpu:hami"])
def test_they_say_nothing_on_a_hami_stack(stack):
    assert _rules(HAMI_JOB, stack) & MINDCLUSTER_ONLY == set()


def test_an_ascendjobs_uneven_counts_are_judged_on_every_stack():
    """ascend-operator sizes an AscendJob's env wherever it runs: AC703 on a HAMi stack too (a Volcano Job's only
    where MindCluster's device plugin runs, above)."""
    job = ("apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata:\n  name: j\n  labels: {framework: pytorch}\n"
           "spec:\n  replicaSpecs:\n" + "".join(
               f"    {role}:\n      replicas: 1\n      template:\n        spec:\n          containers:\n"
               f"          - name: ascend\n            image: x/y:1\n            resources:\n"
               f"              requests: {{huawei.com/Ascend910B3: {npus}}}\n"
               f"              limits: {{huawei.com/Ascend910B3: {npus}}}\n" for role, npus in (("Master", 1), ("Worker", 2))))
    assert "AC703" in _rules(job, "hami") and "AC703" in _rules(job, "volcano-vnpu:hami")


def test_the_plugin_rules_say_nothing_where_volcano_cuts_the_vnpus():
    """Volcano's MindCluster vNPU mode runs MindCluster's device plugin but not its Volcano plugin: the plugin's NPU
    arithmetic does not hold there, its node labels do."""
    assert "AC301" not in _rules(NINE, "volcano-vnpu:mindcluster")
    assert "AC315" in _rules(HAMI_JOB, "volcano-vnpu:mindcluster")


def _units_with_stacks():
    for entry in catalogue.entries(catalogue.LINT):
        module = importlib.import_module(f"ascend_compile.lint.rules.{entry.unit}")
        if hasattr(module, "STACKS"):
            yield entry, module.STACKS


def test_each_rule_that_names_its_stacks_names_known_ones_and_says_so():
    from ascend_compile.lint.registry import documentation

    found = list(_units_with_stacks())
    assert {"AC301", "AC315", "AC330", "AC331", "AC601"} <= {entry.id for entry, _ in found}
    for entry, stacks in found:
        assert stacks and set(stacks) <= set(DEVICE_STACKS), entry.id
        said = documentation(entry)
        assert "**Device stacks.**" in said and all(f"``{stack}``" in said for stack in stacks), entry.id
