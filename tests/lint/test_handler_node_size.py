"""AC317: the handler a schedule policy picks refuses nodes larger than the servers it serves.

The plugin's handlers each refuse a node with more free NPUs than their ``MaxNodeNPUNum``
(``GetUsableTopFromNode`` in ``ascend-for-volcano/internal/npu/base/node.go``). The simulated cluster
showed it: ``compiled:py-module-a3-16-a8~policy-other`` (docs/fidelity.md) stays Pending with "node npu
top<...> is invalid" on every idle module-a3-16 node.
"""
from __future__ import annotations

import pytest

from ascend_compile.hardware.profiles import ProfileRegistry
from ascend_compile.hardware.targeting import handler_family, handler_node_limit

from .conftest import lint_text, one_pod_acjob

#: MaxNodeNPUNum of the handler each built-in policy picks (mind-cluster 22bb3d98, ascend-for-volcano:
#: internal/npu/factory.go WithMaxNodeNum for the card, half and module-910b-8 handlers; nodeNPUNumber /
#: nodeNPUNum of module910bx16, module910a3x16, superpod, chip8node8sp and chip8node8ra64sp)
UPSTREAM_LIMITS = {"chip1-node2": 8, "chip4-node4": 4, "chip8-node8": 8, "chip8-node16": 16, "chip2-node16": 16,
                   "chip2-node16-sp": 16, "chip2-node8-sp": 8, "chip8-node8-sp": 8, "chip8-node8-ra64-sp": 8}


def test_each_policys_node_limit_is_its_handlers():
    profiles = ProfileRegistry().all()
    policies = {p.schedule_policy for p in profiles if p.schedule_policy}
    assert policies == set(UPSTREAM_LIMITS), "a built-in policy without its upstream limit here"
    for policy, limit in UPSTREAM_LIMITS.items():
        chosen = [p for p in profiles if p.schedule_policy == policy]
        assert handler_node_limit(handler_family(profiles, chosen)) == limit, policy


def _job(policy, selector):
    return one_pod_acjob(f"huawei.com/schedule_policy: {policy}" if policy else "", selector=selector)


def _ac317(text):
    return [f for f in lint_text(text, "h.yaml") if f.rule == "AC317"]


@pytest.mark.parametrize("policy, selector", [("chip1-node2", "module-a3-16"), ("chip8-node8", "module-910b-16"),
                                              ("chip2-node8-sp", "module-a3-16")])
def test_a_policy_for_smaller_servers_than_the_selected_nodes_is_a_warning(policy, selector):
    found = _ac317(_job(policy, selector))
    assert [(f.severity, f.path[-1]) for f in found] == [("warning", "accelerator-type")]
    assert policy in found[0].message and selector in found[0].message


@pytest.mark.parametrize("policy, selector", [
    ("chip2-node16", "module-a3-16"),   # the nodes' own policy
    ("chip1-node2", "module-910b-8"),   # the card handler takes 8-NPU nodes
    ("chip2-node16", "module-a3-8-super-pod"),  # a handler for larger servers takes smaller nodes
    ("chip1-node2", None),              # no selector: which nodes is not known
    (None, "module-a3-16"),             # no policy: the selector picks the nodes' own handler
    ("chip9-node99", "module-a3-16"),   # a policy no profile knows: its limit is not known
])
def test_no_warning_when_the_handler_takes_the_nodes_or_either_is_unknown(policy, selector):
    assert _ac317(_job(policy, selector)) == []
