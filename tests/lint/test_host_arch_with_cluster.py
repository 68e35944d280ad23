"""AC319 (host-arch against the hardware, a guess about how nodes are labelled) and AC903 (no node of the cluster has
the selected labels) ask one question; with the cluster's nodes known, the nodes answer it once: AC903's error where no
node has both labels, nothing where the cluster has such nodes (issue 35)."""
from __future__ import annotations

import os

from ascend_compile.inventory.model import Inventory, Node
from ascend_compile.inventory.snapshot import load

from tests.lint.conftest import CASES, lint_text

CASE = os.path.join(CASES, "AC319-host-arch-hardware.yaml")
#: a cluster without an x86 module-910b-8 node (its module-910b-8 nodes are arm)
SMALL = os.path.join(os.path.dirname(CASES), "clusters", "small.yaml")
SELECTOR = "spec.tasks[0].template.spec.nodeSelector"


def _rules(inventory=None):
    text = open(CASE, encoding="utf-8").read()
    found = lint_text(text, "case.yaml", **({"inventory": inventory} if inventory is not None else {}))
    return sorted((f.rule, f.severity, f.field_path) for f in found if f.rule in ("AC319", "AC903"))


def test_offline_the_guess_is_a_warning():
    assert _rules() == [("AC319", "warning", f"{SELECTOR}.host-arch")]


def test_with_nodes_that_lack_the_labels_only_the_cluster_error():
    found = _rules(load(SMALL))
    assert [rule for rule, _severity, _path in found] == ["AC903"], found
    assert found[0][1] == "error" and found[0][2].startswith(SELECTOR)


def test_with_nodes_that_have_both_labels_neither():
    node = Node("x86-a2", {"accelerator-type": "module-910b-8", "host-arch": "huawei-x86"},
                {"huawei.com/Ascend910": 8}, {}, True, False)
    assert _rules(Inventory(nodes=(node,))) == []


def test_an_inventory_without_nodes_keeps_the_guess():
    assert _rules(Inventory(nodes=None, queues={})) == [("AC319", "warning", f"{SELECTOR}.host-arch")]
