"""Shared helpers for the lint tests."""
from __future__ import annotations

import os
import sys
from typing import List

import pytest


ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases")
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
SAMPLES = os.path.join(SHARED, "upstream", "samples")
SARIF_SCHEMA = os.path.join(SHARED, "standards", "sarif-schema-2.1.0.json")

if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


#: a case that checks a cluster-aware rule names its cluster snapshot (in tests/lint/clusters/) on a line of its own
CLUSTER_MARK = "# cluster-snapshot: "
#: a case judged for a MindCluster release names it on a line of its own (as --mindcluster), whether Volcano's
#: admission webhook is installed (as --[no-]volcano-webhook: true or false), and its device stack (as
#: --device-stack); without them the run's default target
TARGET_MARKS = ("# mindcluster: ", "# volcano-webhook: ", "# device-stack: ")


def _marked(text: str, mark: str) -> List[str]:
    return [line[len(mark):].strip() for line in text.splitlines() if line.startswith(mark)]


def case_target(text: str):
    """The target a case's marks name (None: the default target)."""
    from ascend_compile.releases import choose

    from ascend_compile.releases import stack_of

    release, webhook, stack = (next(iter(_marked(text, mark)), None) for mark in TARGET_MARKS)
    if release is None and webhook is None and stack is None:
        return None
    target = choose(release, volcano_webhook=None if webhook is None else webhook == "true")
    return target.with_stack(stack_of(stack), f"the case's mark {stack}")


def lint_text(text: str, name: str = "test.yaml", **kwargs) -> List:
    from ascend_compile.lint.oneshot import lint_documents
    from ascend_compile.yamlio.parsing import load_documents

    marked = _marked(text, CLUSTER_MARK)
    target = case_target(text)
    if target is not None and "target" not in kwargs:
        kwargs["target"] = target
    if marked and "inventory" not in kwargs:
        from ascend_compile.inventory.snapshot import load

        kwargs["inventory"] = load(os.path.join(os.path.dirname(CASES), "clusters", marked[0]))
    return lint_documents(load_documents(text, name), texts={name: text}, **kwargs)


def needs_shared(path: str) -> None:
    if not os.path.exists(path):
        pytest.skip(f"{path} is not available (the shared research folder is not checked out here)")


def one_pod_acjob(job_annotations: str = "", template_annotations: str = "", selector: str = "module-a3-16",
                  npus: int = 8, resource: str = "huawei.com/Ascend910") -> str:
    """A standalone PyTorch AscendJob (one Master pod) that passes every rule but what the arguments change:
    annotations (YAML flow-mapping content) on the job and on its pod template, the accelerator-type it
    selects (None: no selector), its NPUs per pod and their resource."""
    job = f"  annotations: {{{job_annotations}}}\n" if job_annotations else ""
    template = f"        metadata:\n          annotations: {{{template_annotations}}}\n" if template_annotations else ""
    select = f"          nodeSelector: {{accelerator-type: {selector}}}\n" if selector else ""
    return ("apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata:\n  name: j\n"
            "  labels: {framework: pytorch, ring-controller.atlas: ascend-910b}\n" + job +
            "spec:\n  runPolicy:\n    schedulingPolicy: {queue: default}\n  replicaSpecs:\n"
            "    Master:\n      replicas: 1\n      restartPolicy: Never\n      template:\n" + template +
            "        spec:\n" + select +
            "          containers:\n          - name: ascend\n            image: x/y:1\n"
            "            ports: [{name: ascendjob-port, containerPort: 2222}]\n"
            f"            resources:\n              requests: {{{resource}: {npus}}}\n"
            f"              limits: {{{resource}: {npus}}}\n")
