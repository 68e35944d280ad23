"""AC305 (no accelerator-type on a job labelled for other servers than Atlas 800) with the cluster's nodes known: up to
v26.0.1 the default handler refuses every node labelled with another accelerator-type, so the job waits forever where
every node its pods may land on is typed (an error), and runs where some are not (a warning: not on the servers its label
names).  The fidelity run on v7.3.2 showed the second: such jobs ran on the simulated cluster's unlabelled nodes, where
lint with the snapshot said error (docs/fidelity.md)."""
from __future__ import annotations

from ascend_compile import releases
from ascend_compile.inventory.model import Inventory, Node

from tests.lint.test_release_handlers import vcjob

from .conftest import lint_text

TEXT = vcjob([(1, 8)]).replace("        containers:", "        nodeSelector: {host-arch: huawei-arm}\n"
                                                      "        containers:", 1)


def _node(name: str, accelerator_type: str = "") -> Node:
    labels = {"host-arch": "huawei-arm", **({"accelerator-type": accelerator_type} if accelerator_type else {})}
    return Node(name, labels, {"huawei.com/Ascend910": 8}, {}, True, False)


def _ac305(release: str, inventory=None):
    kwargs = {"inventory": inventory} if inventory is not None else {}
    found = lint_text(TEXT, "case.yaml", target=releases.Target(release, True, "test"), **kwargs)
    return [(f.severity, f.message) for f in found if f.rule == "AC305"]


def test_offline_up_to_v26_0_1_an_error():
    assert "nodeSelector: {host-arch: huawei-arm}" in TEXT and "accelerator-type" not in TEXT
    assert [s for s, _m in _ac305("v7.3.2")] == ["error"]


def test_a_cluster_of_typed_nodes_only_an_error():
    found = _ac305("v7.3.2", Inventory(nodes=(_node("a", "module-910b-8"), _node("b", "card-910b-2"))))
    assert [s for s, _m in found] == ["error"] and "never placed" in found[0][1]


def test_a_cluster_with_an_unlabelled_node_a_warning():
    found = _ac305("v7.3.2", Inventory(nodes=(_node("a", "module-910b-8"), _node("plain"))))
    assert [s for s, _m in found] == ["warning"] and "the job runs there" in found[0][1]
    found = _ac305("v26.0.1", Inventory(nodes=(_node("a", "module-910b-8"), _node("m", "module"))))
    assert [s for s, _m in found] == ["warning"]
