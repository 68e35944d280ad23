"""What a cluster says of its device stack (issue 45): a node's soft slicing (HAMi's ``hami-vnpu-core`` annotation,
the one node annotation kept) and the Ascend modes Volcano's deviceshare plugin turns on, read from the objects,
written into the snapshot (which its own schema takes) and read back, and the target a lint against it judges for."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Optional, Tuple

import pytest
import yaml

from ascend_compile.config import ProjectConfig, target_of
from ascend_compile.inventory.objects import inventory_from, node_of
from ascend_compile.inventory.replies import ClusterDataError, Reply
from ascend_compile.inventory.snapshot import dump, load


def _node(annotations: Any) -> Any:
    return {"metadata": {"name": "n1", "annotations": annotations},
            "status": {"allocatable": {"huawei.com/Ascend910B3": "8"}, "conditions": [{"type": "Ready", "status": "True"}]}}


@pytest.mark.parametrize("annotations, soft", [
    ({"hami-vnpu-core": "true"}, True),
    ({"hami-vnpu-core": "false"}, False),
    ({"hami-vnpu-core": "yes"}, False),  # HAMi's scheduler takes only "true"
    ({"hami-vnpu-core": ""}, False),
    ({"hami.io/node-register-Ascend910B3": "[...]"}, None),  # no such annotation: the scheduler's config decides
    (None, None),
])
def test_a_nodes_soft_slicing_is_its_annotation(annotations: Any, soft: Optional[bool]) -> None:
    assert node_of(Reply(_node(annotations), "Node"), {}, {}).soft_slicing is soft


def test_an_annotation_that_is_no_text_is_malformed() -> None:
    with pytest.raises(ClusterDataError) as caught:
        node_of(Reply(_node({"hami-vnpu-core": True}), "Node"), {}, {})
    assert str(caught.value).endswith("Node n1: metadata.annotations.hami-vnpu-core: is true, not a string")
    other = node_of(Reply(_node({"hami-vnpu-core": "true", "noise": 7}), "Node"), {}, {})  # no other annotation read
    assert other.soft_slicing is True


def _scheduler(arguments: Any, plugin: str = "deviceshare", name: str = "volcano-scheduler-configmap") -> Any:
    conf = {"actions": "enqueue, allocate, backfill",
            "tiers": [{"plugins": [{"name": "predicates"}, {"name": plugin, "arguments": arguments}]}]}
    return {"metadata": {"name": name, "namespace": "volcano-system"},
            "data": {"volcano-scheduler.conf": yaml.safe_dump(conf)}}


@pytest.mark.parametrize("config_maps, modes", [
    ([_scheduler({"deviceshare.AscendHAMiVNPUEnable": True, "deviceshare.SchedulePolicy": "binpack"})], ("hami",)),
    ([_scheduler({"deviceshare.AscendMindClusterVNPUEnable": "true"})], ("mindcluster",)),
    ([_scheduler({"deviceshare.AscendMindClusterVNPUEnable": "T", "deviceshare.AscendHAMiVNPUEnable": 1})],
     ("mindcluster",)),  # Volcano reads "T" as true, and a number as no bool at all
    ([_scheduler({"deviceshare.AscendHAMiVNPUEnable": "false"})], ()),
    ([_scheduler({"deviceshare.AscendHAMiVNPUEnable": True}, plugin="binpack")], ()),  # not deviceshare's argument
    ([_scheduler({"deviceshare.AscendHAMiVNPUEnable": True}),
      _scheduler({"deviceshare.AscendMindClusterVNPUEnable": True}, name="other")], ("hami", "mindcluster")),
    ([{"metadata": {"name": "settings", "namespace": "t"}, "data": {"a": "b"}}], None),  # no scheduler configuration
    (None, None),  # ConfigMaps not read
])
def test_the_modes_of_volcanos_deviceshare(config_maps: Any, modes: Optional[Tuple[str, ...]]) -> None:
    assert inventory_from(None, [], None, None, config_maps, [], ["t"]).device_share == modes


def test_both_round_trip_through_a_snapshot_its_schema_takes(tmp_path: Path) -> None:
    """``load`` checks the file against the snapshot's schema before it reads it."""
    inv = inventory_from([_node({"hami-vnpu-core": "false"}), {**_node({}), "metadata": {"name": "n2"}}], [], None,
                         None, [_scheduler({"deviceshare.AscendHAMiVNPUEnable": True})], [], ["t"], "lab")
    path = tmp_path / "c.yaml"
    path.write_text(dump(inv), encoding="utf-8")
    text = path.read_text(encoding="utf-8")
    assert "hamiVnpuCore: false" in text and text.count("hamiVnpuCore") == 1 and "deviceShare:\n  - hami\n" in text
    back = load(str(path))
    assert [n.soft_slicing for n in back.nodes] == [False, None] and back.device_share == ("hami",)
    assert dump(back) == text
    path.write_text(dump(replace(inv, device_share=None)), encoding="utf-8")
    assert load(str(path)).device_share is None


@pytest.mark.parametrize("modes, resources, stack", [
    (("hami",), ("huawei.com/Ascend910B3",), "volcano-vnpu:hami"),
    (("mindcluster",), (), "volcano-vnpu:mindcluster"),
    (("hami", "mindcluster"), ("huawei.com/Ascend910B3",), "hami"),  # both on: the resources say HAMi's plugin runs
    ((), ("huawei.com/Ascend910B3",), "hami"),
    ((), (), None),
])
def test_the_target_comes_from_the_one_mode_deviceshare_turns_on(modes: Any, resources: Any, stack: Any) -> None:
    target = target_of(ProjectConfig(), cluster_source="c.yaml", cluster_resources=resources,
                       cluster_device_share=modes)
    assert target.device_stack == stack
    if len(modes) == 1:
        assert "deviceshare" in target.stack_source and "c.yaml" in target.stack_source
    assert target_of(ProjectConfig(), stack_flag="mindcluster", cluster_device_share=modes).device_stack == "mindcluster"


SNAPSHOT = """\
apiVersion: ascend-compile.io/v1alpha1
kind: ClusterSnapshot
metadata: {name: lab}
spec:
  deviceShare: [mindcluster]
  nodes:
  - name: duo-0
    ready: true
    npus: {huawei.com/npu-core: {allocatable: 32}}
"""
#: a dynamic vNPU pod without the label Volcano's MindCluster vNPU mode needs: AC331 on that stack only
UNLABELLED = """\
apiVersion: v1
kind: Pod
metadata: {name: infer}
spec:
  schedulerName: volcano
  containers:
  - name: c
    image: x/y:1
    resources:
      requests: {huawei.com/npu-core: 2}
      limits: {huawei.com/npu-core: 2}
"""


def test_every_entry_judges_a_snapshot_for_the_stack_its_scheduler_runs(tmp_path: Path) -> None:
    """The Python API's session, the command line's and the linter made with only the inventory all take the stack
    from the snapshot's deviceShare, so AC331 (Volcano's MindCluster vNPU mode only) judges the pod."""
    import ascend_compile
    from ascend_compile.lint.oneshot import lint_documents
    from ascend_compile.yamlio.parsing import load_documents

    snapshot = tmp_path / "lab.yaml"
    snapshot.write_text(SNAPSHOT, encoding="utf-8")
    found = ascend_compile.lint_manifests([yaml.safe_load(UNLABELLED)], cluster_snapshot=str(snapshot))
    assert "AC331" in {f.rule for f in found}
    direct = lint_documents(load_documents(UNLABELLED, "p.yaml"), inventory=load(str(snapshot)))
    assert "AC331" in {f.rule for f in direct}
    without = lint_documents(load_documents(UNLABELLED, "p.yaml"))
    assert "AC331" not in {f.rule for f in without}
