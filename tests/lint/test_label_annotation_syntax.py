"""AC712: label and annotation keys, label values and selectors as Kubernetes' API server checks them (the review's
"a label value with spaces" that the API server refuses, and every other key and value of the same syntax)."""
from __future__ import annotations

import pytest

from ascend_compile.lint.rules._labels import ANNOTATIONS_LIMIT, key_problem, value_problem

from .conftest import lint_text, one_pod_acjob

#: label keys and whether the API server takes them (label keys; annotation keys differ only in case)
KEYS = [("app", True), ("app.kubernetes.io/name", True), ("huawei.com/Ascend910", True), ("a_b.C-1", True),
        ("1", True), ("x" * 63, True), ("example.com/" + "x" * 63, True), ("a" * 253 + "/x", True),
        ("job name", False), ("-app", False), ("app_", False), ("a/b/c", False), ("/app", False), ("app/", False),
        ("Example.com/app", False), ("x" * 64, False), ("a" * 254 + "/x", False), ("app.", False), ("", False),
        ("app\n", False), ("café", False), ("exa_mple.com/app", False), ("-example.com/app", False),
        ("example..com/app", False)]
#: label values and whether the API server takes them
VALUES = [("", True), ("my-team", True), ("A.b_C-9", True), ("x" * 63, True), ("0", True), ("my team", False),
          ("x" * 64, False), ("-rc1", False), ("rc1.", False), ("a/b", False), ("a:b", False), ("v1\n", False),
          ("é", False)]


@pytest.mark.parametrize("key,valid", KEYS)
def test_label_keys(key, valid):
    assert (key_problem(key) is None) is valid


@pytest.mark.parametrize("value,valid", VALUES)
def test_label_values(value, valid):
    assert (value_problem(value) is None) is valid


def test_an_annotation_key_is_checked_in_lower_case():
    assert key_problem("Example.COM/Note", annotation=True) is None
    assert key_problem("Example.COM/Note") is not None
    assert key_problem("Example.COM/my note", annotation=True) is not None


def test_a_message_says_which_part_of_the_key_is_wrong():
    assert "prefix 'Example.com'" in key_problem("Example.com/app")
    assert "empty prefix" in key_problem("/app")
    assert "empty name" in key_problem("app/")
    assert "64 characters" in key_problem("x" * 64)
    assert "(it has 64)" in value_problem("x" * 64)


def _config_map(metadata: str) -> str:
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n{metadata}data: {{}}\n"


def _ac712(text: str):
    return [f for f in lint_text(text) if f.rule == "AC712"]


def test_the_reviewed_label_value_with_a_space_is_an_error_at_the_value():
    found = _ac712(_config_map("  labels:\n    team: my team\n"))
    assert [(f.severity, f.line, f.column, f.field_path) for f in found] == [("error", 6, 11, "metadata.labels.team")]
    assert "'my team'" in found[0].message and "at most 63 characters" in found[0].message
    assert "API server refuses" in found[0].message and "'my-team'" in found[0].hint


def test_a_bad_key_is_located_at_the_key():
    found = _ac712(_config_map("  labels:\n    my team: x\n"))
    assert [(f.line, f.column) for f in found] == [(6, 5)] and "write it as 'my-team'" in found[0].hint


def test_a_value_that_is_no_string_is_the_schema_checks_only():
    found = lint_text(_config_map("  labels:\n    count: 5\n    on: true\n    none:\n"))
    assert {f.rule for f in found} == {"AC102"}


def test_annotations_over_256_kib_are_refused_and_up_to_it_taken():
    def annotations(size: int) -> str:
        return _config_map(f"  annotations:\n    k: {'x' * (size - 1)}\n")

    assert _ac712(annotations(ANNOTATIONS_LIMIT)) == []
    found = _ac712(annotations(ANNOTATIONS_LIMIT + 1))
    assert [(f.line, f.column, f.field_path) for f in found] == [(5, 3, "metadata.annotations")]
    assert f"{ANNOTATIONS_LIMIT + 1} bytes" in found[0].message


def test_an_ascendjob_template_names_the_pods_the_operator_cannot_create():
    found = _ac712(one_pod_acjob(template_annotations='"bad key": x'))
    assert [f.field_path for f in found] == ["spec.replicaSpecs.Master.template.metadata.annotations['bad key']"]
    assert "every pod ascend-operator creates" in found[0].message and found[0].severity == "error"


def test_a_volcano_job_template_names_the_webhook_and_the_cluster_without_it():
    text = ("apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: j}\nspec:\n  minAvailable: 1\n"
            "  schedulerName: volcano\n  tasks:\n  - name: w\n    replicas: 1\n    template:\n"
            "      metadata: {labels: {app: a b}}\n"
            "      spec: {containers: [{name: c, image: 'x:1'}]}\n")
    found = _ac712(text)
    assert [f.field_path for f in found] == ["spec.tasks[0].template.metadata.labels.app"]
    assert "admission webhook refuses the job" in found[0].message and "without the webhook" in found[0].message


def test_a_pods_own_metadata_is_reported_once():
    text = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: a b}}\n"
            "spec: {nodeSelector: {zone: x y}, containers: [{name: c, image: 'x:1'}]}\n")
    found = _ac712(text)
    assert sorted(f.field_path for f in found) == ["metadata.labels.app", "spec.nodeSelector.zone"]


def test_a_label_value_under_a_secret_key_is_not_repeated():
    found = _ac712(_config_map("  labels:\n    api-token: abc def\n"))
    assert len(found) == 1 and "abc" not in found[0].message + (found[0].hint or "")
