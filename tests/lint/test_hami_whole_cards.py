"""AC316 on a chip-model resource (HAMi's whole-card name): judged for MindCluster's device plugin the error stays and
the words say whose name it is; with no device stack named, a pod that shows it was written for HAMi gets a warning
that names HAMi (issue 45)."""
from typing import Any, Dict, Optional

import pytest

from ascend_compile.lint.oneshot import lint_objects
from ascend_compile.releases import Target

#: judged for MindCluster's device plugin, named as a user names it
MINDCLUSTER = Target().with_stack("mindcluster", "test")


def _job(resource: str, annotations: Optional[Dict[str, str]]) -> Dict[str, Any]:
    template: Dict[str, Any] = {"spec": {"restartPolicy": "Never", "containers": [
        {"name": "infer", "image": "serve:1.0", "resources": {"limits": {resource: 2}}}]}}
    if annotations is not None:
        template["metadata"] = {"annotations": annotations}
    return {"apiVersion": "batch.volcano.sh/v1alpha1", "kind": "Job", "metadata": {"name": "j"},
            "spec": {"schedulerName": "volcano", "minAvailable": 1,
                     "tasks": [{"name": "serve", "replicas": 1, "template": template}]}}


def _ac316(job: Dict[str, Any], target: Any = MINDCLUSTER, severity: str = "error"):
    (found,) = [f for f in lint_objects([job], source="case.yaml", target=target) if f.rule == "AC316"]
    assert found.severity == severity  # never fits MindCluster's nodes, HAMi or not (simulated cluster)
    return found


@pytest.mark.parametrize("annotations,marker", [
    ({"huawei.com/vnpu-mode": "hami-core"}, "huawei.com/vnpu-mode"),
    ({"team": "x", "hami.io/use-Ascend910B-uuid": "u1"}, "hami.io/use-Ascend910B-uuid"),
])
def test_a_pod_with_a_hami_annotation_is_told_it_was_written_for_hami(annotations, marker):
    found = _ac316(_job("huawei.com/Ascend910B3", annotations))
    assert "huawei.com/Ascend910B3 is a resource of HAMi's device plugin" in found.message
    assert marker in found.message and "huawei.com/Ascend910" in found.message
    assert found.hint == ("for MindCluster request huawei.com/Ascend910; keep huawei.com/Ascend910B3 only for a "
                          "cluster that runs HAMi")


@pytest.mark.parametrize("annotations", [None, {"team": "x"}])
def test_without_one_the_message_does_not_say_no_device_plugin_offers_it(annotations):
    found = _ac316(_job("huawei.com/Ascend910B", annotations))
    assert found.message.endswith("MindCluster's device plugin offers no huawei.com/Ascend910B; it offers every chip "
                                  "of that family as huawei.com/Ascend910, so on its nodes the pods never fit")
    assert found.hint.startswith("request huawei.com/Ascend910; HAMi's device plugin names NPUs by chip model")


def test_a_hyphenated_name_is_no_chip_model_and_the_hint_leaves_hami_out():
    assert _ac316(_job("huawei.com/Ascend-910", None)).hint == "request huawei.com/Ascend910"


@pytest.mark.parametrize("resource,annotations,evidence", [
    ("huawei.com/Ascend910B3", {"huawei.com/vnpu-mode": "hami-core"}, "the pod's annotation huawei.com/vnpu-mode"),
    ("huawei.com/Ascend910B4", None, "huawei.com/Ascend910B4 is a resource of HAMi's Ascend device plugin"),
    ("huawei.com/Ascend910B4-1", None, "huawei.com/Ascend910B4-1 is a resource of HAMi's Ascend device plugin"),
])
def test_with_no_stack_named_a_pod_written_for_hami_gets_a_warning_naming_hami(resource, annotations, evidence):
    found = _ac316(_job(resource, annotations), target=None, severity="warning")
    assert "written for HAMi's Ascend device plugin" in found.message and evidence in found.message
    assert "--device-stack" in found.hint


@pytest.mark.parametrize("resource", ["huawei.com/Ascend910B4", "huawei.com/Ascend910B4-1"])
def test_hamis_chip_names_are_judged_alike_for_mindcluster(resource):
    found = _ac316(_job(resource, None))
    assert found.message.endswith(f"MindCluster's device plugin offers no {resource}; it offers every chip of that "
                                  "family as huawei.com/Ascend910, so on its nodes the pods never fit")
