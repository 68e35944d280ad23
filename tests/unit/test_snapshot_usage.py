"""Capacity apart from usage, and the facts the cluster checks read (issue 45 items 3 and 4): a snapshot of capacity
only is the same bytes whatever the pods hold; usage is recorded only with its time; an older snapshot's usage reads
as of an unknown time; AC907 from a snapshot is info (never failing ``failOn: warning``), from the live cluster a
warning; PriorityClasses, HyperNodes and a queue's deserved share go through the file and back."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from ascend_compile.findings import exit_code
from ascend_compile.inventory.model import LIVE, UNTIMED
from ascend_compile.inventory.objects import inventory_from
from ascend_compile.inventory.replies import ClusterDataError
from ascend_compile.inventory.snapshot import dump, load
from tests.lint.conftest import lint_text, one_pod_acjob
from tests.unit.test_inventory import NODE, POD

STAMP = "2026-12-07T05:00:00Z"
QUEUE = {"metadata": {"name": "default"}, "spec": {"capability": {"huawei.com/Ascend910": "64"},
                                                   "deserved": {"huawei.com/Ascend910": "16"}}, "status": {"state": "Open"}}


#: the node of the inventory tests without its taint (a job here need not tolerate it)
OPEN_NODE = {**NODE, "spec": {}}


def _inventory(pods=(POD,), **parts):
    return inventory_from([OPEN_NODE], list(pods), [QUEUE], [], [], [], ["t"], "lab", **parts)


def _read(tmp_path: Path, inventory, name: str = "c.yaml"):
    path = tmp_path / name
    path.write_text(dump(inventory), encoding="utf-8")
    return load(str(path)), path.read_text(encoding="utf-8")


def test_a_snapshot_of_capacity_only_is_the_same_whatever_the_pods_hold(tmp_path: Path) -> None:
    busy, idle = (dataclasses.replace(_inventory(pods), usage=None) for pods in ((POD,), ()))
    back, text = _read(tmp_path, busy)
    assert text == dump(idle)
    assert "allocated" not in text and "usageTime" not in text
    assert back.usage is None and back.nodes[0].free("huawei.com/Ascend910") == 8


def test_usage_is_recorded_with_its_time(tmp_path: Path) -> None:
    back, text = _read(tmp_path, dataclasses.replace(_inventory(), usage=STAMP))
    assert f"usageTime: '{STAMP}'" in text or f"usageTime: {STAMP}" in text
    assert back.usage == STAMP and back.nodes[0].free("huawei.com/Ascend910") == 6


def test_an_older_snapshot_with_usage_reads_as_of_an_unknown_time(tmp_path: Path) -> None:
    back, text = _read(tmp_path, _inventory())  # a live read written as before: NPUs in use, no time
    assert "allocated: 2" in text and "usageTime" not in text
    assert back.usage == UNTIMED


def test_priority_classes_hyper_nodes_and_deserved_go_through_the_file(tmp_path: Path) -> None:
    inv = _inventory(priority_classes=[{"metadata": {"name": "high"}}],
                     hyper_nodes=[{"metadata": {"name": "rack-0"}, "spec": {"tier": 1}}])
    back, _ = _read(tmp_path, inv)
    assert back.priority_classes == frozenset({"high"}) and back.hyper_nodes == {"rack-0": 1}
    assert back.queues["default"].deserved == {"huawei.com/Ascend910": "16"}
    assert back.has_priority_class("high") and back.has_priority_class("system-node-critical")
    assert back.has_priority_class("low") is False
    unread, text = _read(tmp_path, _inventory(), "unread.yaml")
    assert unread.priority_classes is None and unread.hyper_nodes is None and unread.has_priority_class("low") is None
    assert "priorityClasses" not in text and "hyperNodes" not in text


def test_a_hyper_node_tier_that_is_no_whole_number_is_a_cluster_error() -> None:
    with pytest.raises(ClusterDataError, match=r"HyperNode rack-0: spec\.tier"):
        _inventory(hyper_nodes=[{"metadata": {"name": "rack-0"}, "spec": {"tier": "high"}}])


#: one pod of 8 NPUs on the only node, whose pods hold 2 of them: no room now
JOB = one_pod_acjob(selector="module-910b-8")


@pytest.mark.parametrize("usage, severity", [(LIVE, "warning"), (STAMP, "info"), (UNTIMED, "info"), (None, None)])
def test_no_room_now_from_a_snapshot_never_fails_a_warning_build(usage, severity) -> None:
    found = [f for f in lint_text(JOB, inventory=dataclasses.replace(_inventory(), usage=usage)) if f.rule == "AC907"]
    assert [f.severity for f in found] == ([severity] if severity else [])
    if usage == STAMP:
        assert STAMP in found[0].message and " now " not in found[0].message
    if found:
        assert exit_code(found, "warning") == (1 if usage == LIVE else 0)


#: a card handler (at most 8 free NPUs) and one 16-NPU A3 node whose pods hold 4: refused as the node is now
CARD_JOB = one_pod_acjob(job_annotations="huawei.com/schedule_policy: chip1-node2", selector="module-a3-16", npus=1)
A3_NODE = {"metadata": {"name": "a3", "labels": {"accelerator-type": "module-a3-16"}},
           "status": {"allocatable": {"huawei.com/Ascend910": "16"}, "conditions": [{"type": "Ready", "status": "True"}]}}
A3_POD = {"metadata": {"name": "p", "namespace": "t"}, "spec": {"nodeName": "a3", "containers": [
    {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": "4"}, "limits": {"huawei.com/Ascend910": "4"}}}]}}


@pytest.mark.parametrize("usage, severity", [(LIVE, "warning"), (STAMP, "info"), (None, "error")])
def test_a_handler_refusal_of_busy_nodes_from_a_snapshot_is_info(usage, severity) -> None:
    """Busy nodes the handler refuses now: a warning live, info from a snapshot's usage; a snapshot of capacity only
    counts the node idle, where the refusal is for good (error)."""
    inv = dataclasses.replace(inventory_from([A3_NODE], [A3_POD], [QUEUE], [], [], [], ["t"], "lab"), usage=usage)
    if usage is None:
        inv = load_text(dump(inv))
    assert [f.severity for f in lint_text(CARD_JOB, inventory=inv) if f.rule == "AC904"] == [severity]


def load_text(text: str):
    """The inventory a snapshot's text reads as (no file: the document itself)."""
    import yaml

    from ascend_compile.inventory.snapshot import from_document

    return from_document(yaml.safe_load(text), "c.yaml")


def test_a_snapshot_taken_before_these_facts_says_nothing_about_them() -> None:
    """tests/lint/clusters/small.yaml records no PriorityClass, HyperNode or deserved share: the rules that need them
    are silent (not read is not "none"), and the file still reads."""
    from tests.lint.conftest import CASES
    from tests.lint.test_inventory_truth import VC_JOB

    old = load(str(Path(CASES).parent / "clusters" / "small.yaml"))
    assert old.priority_classes is None and old.hyper_nodes is None and old.usage == UNTIMED
    job = VC_JOB.replace("        restartPolicy: OnFailure\n", "        restartPolicy: OnFailure\n"
                         "        priorityClassName: urgent\n")
    assert not {f.rule for f in lint_text(job, inventory=old)} & {"AC912", "AC913", "AC914", "AC915"}
    assert {"AC913", "AC914"} <= {f.rule for f in lint_text(job, inventory=dataclasses.replace(
        old, priority_classes=frozenset(), hyper_nodes={}))}


@pytest.mark.parametrize("version, fires", [("v1.12.0", True), ("v1.15.1", True), ("v1.9.0", False), ("", False)])
def test_hard_topology_is_judged_only_on_a_volcano_with_hyper_nodes(version, fires) -> None:
    """kubectl reads a cluster without the HyperNode resource (Volcano before 1.12) as one without HyperNodes; there
    the Job has no networkTopology at all (the API server drops it), so nothing is said; nor when the version is not
    known."""
    from tests.lint.test_inventory_truth import VC_JOB

    inv = dataclasses.replace(_inventory(), hyper_nodes={}, versions={"volcano": version} if version else {})
    assert ("AC914" in {f.rule for f in lint_text(VC_JOB, inventory=inv)}) is fires
