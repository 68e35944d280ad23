"""Job-level scheduling annotations given on a pod template (ObjectContext.job_annotation).

The Volcano plugin reads schedule_policy, sp-block, ra-block and affinity-config from the PodGroup, and a
key the PodGroup lacks from a pod of the job (``getJobAnnotationFromJobInfo`` in ``plugin/job.go``, the keys
of ``annotationKeysForPodGroup``): lint reads them the same way, and points its findings at the pod
template's annotation when that is where the value is.
"""
from __future__ import annotations

from .conftest import lint_text, one_pod_acjob


def _job(**kwargs):
    return one_pod_acjob(**{"selector": "module-a3-16-super-pod", "npus": 16, **kwargs})


def _where(findings, rule):
    return [(f.line, f.path[-1], f.path[:3]) for f in findings if f.rule == rule]


def test_an_sp_block_on_the_pod_template_is_read_and_reported_there():
    on_template = lint_text(_job(template_annotations='sp-block: "x"'), "t.yaml")
    assert _where(on_template, "AC302") == [(15, "sp-block", ("spec", "replicaSpecs", "Master"))]
    on_job = lint_text(_job(job_annotations='sp-block: "x"'), "j.yaml")
    assert _where(on_job, "AC302") == [(6, "sp-block", ("metadata", "annotations", "sp-block"))]


def test_the_jobs_own_annotation_wins_over_the_pod_templates():
    both = lint_text(_job(job_annotations='sp-block: "x"', template_annotations='sp-block: "16"'), "b.yaml")
    assert [f.message for f in both if f.rule == "AC302"] == ["sp-block 'x' is not an integer"]


def test_an_unknown_policy_on_the_pod_template_is_reported_there():
    npu = dict(selector="none", resource="huawei.com/npu", npus=8)
    findings = lint_text(_job(template_annotations="huawei.com/schedule_policy: chip8-node8-ra6", **npu), "p.yaml")
    assert _where(findings, "AC307") == [(15, "huawei.com/schedule_policy", ("spec", "replicaSpecs", "Master"))]


def test_a_misspelt_schedule_policy_key_is_named_in_the_hint_and_pointed_at():
    for where in ("job_annotations", "template_annotations"):
        findings = lint_text(_job(resource="huawei.com/npu", selector=None,
                                  **{where: "huawei.com/scheduler-policy: chip8-node8-ra64-sp"}), "m.yaml")
        (found,) = [f for f in findings if f.rule == "AC307"]
        assert found.path[-1] == "huawei.com/scheduler-policy"
        assert found.hint.startswith("rename 'huawei.com/scheduler-policy' to 'huawei.com/schedule_policy'")
    unrelated = lint_text(_job(resource="huawei.com/npu", selector=None, job_annotations='sp-block: "16"'), "u.yaml")
    (found,) = [f for f in unrelated if f.rule == "AC307"]
    assert "rename" not in found.hint
