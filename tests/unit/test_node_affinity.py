"""A pod's required node affinity in the node matching the cluster-aware lint and ``why`` share (issue 35): read by
the manifest model, met by the inventory's nodes with Kubernetes' operators, and used by ``why``'s node fit."""
from __future__ import annotations

from typing import Any, Dict, List

import pytest

from ascend_compile.inventory.model import Node
from ascend_compile.kube.fit import FITS, NO_NODES, node_fit
from ascend_compile.kube.jobs import JobState
from ascend_compile.kube.jobview import JobView, replicas_of
from ascend_compile.manifest.job import Manifest
from ascend_compile.manifest.pods import required_node_affinity

ARM = Node("arm-0", {"host-arch": "huawei-arm", "accelerator-type": "module-910b-8", "rack": "12"},
           {"huawei.com/Ascend910": 8}, {}, True, False)
X86 = Node("x86-0", {"host-arch": "huawei-x86", "accelerator-type": "module-910b-8"},
           {"huawei.com/Ascend910": 8}, {}, True, False)


def _spec(*terms: Dict[str, Any]) -> Dict[str, Any]:
    return {"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": {
        "nodeSelectorTerms": list(terms)}}}}


def _expr(key: str, operator: str, *values: str) -> Dict[str, Any]:
    return {"matchExpressions": [{"key": key, "operator": operator, **({"values": list(values)} if values else {})}]}


@pytest.mark.parametrize("term, arm, x86", [
    (_expr("host-arch", "In", "huawei-arm"), True, False),
    (_expr("host-arch", "NotIn", "huawei-arm"), False, True),
    (_expr("rack", "Exists"), True, False),
    (_expr("rack", "DoesNotExist"), False, True),
    (_expr("rack", "Gt", "11"), True, False),  # x86-0 has no rack label: neither Gt nor Lt
    (_expr("rack", "Lt", "12"), False, False),
    ({"matchFields": [{"key": "metadata.name", "operator": "In", "values": ["x86-0"]}]}, False, True),
    ({"matchExpressions": [{"key": "host-arch", "operator": "In", "values": ["huawei-arm"]},
                           {"key": "rack", "operator": "Lt", "values": ["12"]}]}, False, False),  # all of a term
    ({}, False, False),  # a term without requirements selects no node
])
def test_one_term_with_each_operator(term: Dict[str, Any], arm: bool, x86: bool) -> None:
    affinity = required_node_affinity(_spec(term))
    assert affinity is not None
    assert (ARM.selected_by({}, affinity), X86.selected_by({}, affinity)) == (arm, x86)


def test_the_terms_are_alternatives_and_the_selector_still_counts() -> None:
    affinity = required_node_affinity(_spec(_expr("host-arch", "In", "huawei-x86"), _expr("rack", "Exists")))
    assert ARM.selected_by({}, affinity) and X86.selected_by({}, affinity)
    assert not X86.selected_by({"host-arch": "huawei-arm"}, affinity)
    assert ARM.selected_by({"host-arch": "huawei-arm"}, None)  # no affinity: the selector alone


@pytest.mark.parametrize("spec", [
    {},
    _spec(),  # no term: the API server refuses the pod
    _spec(_expr("host-arch", "Near", "x")),
    _spec(_expr("host-arch", "In")),  # In needs values
    _spec(_expr("rack", "Gt", "1", "2")),
    _spec(_expr("rack", "Gt", "twelve")),
    _spec({"matchFields": [{"key": "metadata.labels", "operator": "In", "values": ["x"]}]}),
])
def test_none_or_one_the_api_refuses_constrains_nothing(spec: Dict[str, Any]) -> None:
    assert required_node_affinity(spec) is None


def _job(affinity_spec: Dict[str, Any]) -> Manifest:
    template = {"spec": {"nodeSelector": {"accelerator-type": "module-910b-8"}, **affinity_spec, "containers": [
        {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": 8}, "limits": {"huawei.com/Ascend910": 8}}}]}}
    return Manifest({"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob", "metadata": {"name": "j"},
                     "spec": {"replicaSpecs": {"Master": {"replicas": 1, "template": template}}}})


def _fit(job: Manifest, nodes: List[Node]) -> Any:
    view = JobView(JobState("AscendJob", "j", None, "Pending"), job.data, job, replicas_of(job), None, "default", nodes=nodes)
    [fit] = node_fit(view)
    return fit


def test_why_fits_by_the_same_matching() -> None:
    job = _job(_spec(_expr("host-arch", "In", "huawei-x86")))
    assert _fit(job, [ARM, X86]).verdict == FITS and _fit(job, [ARM, X86]).matching == 1
    missed = _fit(job, [ARM])
    assert missed.verdict == NO_NODES
    assert "1 node has the labels but not the pods' required node affinity" in missed.line()


def test_wrong_types_read_as_an_affinity_the_api_refuses() -> None:
    for wrong in ({"key": "value"}, ["In"], 3, None):
        term = {"matchExpressions": [{"key": "host-arch", "operator": wrong, "values": ["huawei-arm"]}]}
        assert required_node_affinity(_spec(term)) is None
    assert required_node_affinity(_spec({"matchExpressions": [{"key": "rack", "operator": "In", "values": [1]}]})) \
        is None
    assert required_node_affinity({"affinity": {"nodeAffinity": {"requiredDuringSchedulingIgnoredDuringExecution": [
        "not a mapping"]}}}) is None
