"""The cluster inventory model and its snapshot file (issue 35): built from plain objects, written and read back
unchanged, and a bad file refused with file, line, column and field path (AC016)."""
from __future__ import annotations

from pathlib import Path

import pytest

from ascend_compile.errors import InputError
from ascend_compile.inventory.model import Taint
from ascend_compile.inventory.objects import image_tag, inventory_from
from ascend_compile.inventory.snapshot import dump, load

NODE = {"metadata": {"name": "n1", "labels": {"accelerator-type": "module-910b-8", "host-arch": "huawei-arm"},
                     "annotations": {"huawei.com/Ascend910": "Ascend910-0,Ascend910-1", "baseDeviceInfos": "{ip}"}},
        "spec": {"taints": [{"key": "dedicated", "value": "ai", "effect": "NoSchedule"}]},
        "status": {"allocatable": {"huawei.com/Ascend910": "8", "cpu": "192"},
                   "conditions": [{"type": "Ready", "status": "True"}]}}
POD = {"metadata": {"name": "p", "namespace": "t"}, "spec": {"nodeName": "n1", "containers": [
    {"name": "c", "resources": {"requests": {"huawei.com/Ascend910": "2"}, "limits": {"huawei.com/Ascend910": "2"}}}]},
       "status": {"phase": "Running"}}


def _inventory():
    return inventory_from([NODE], [POD], [{"metadata": {"name": "default"}, "status": {"state": "Open"}}],
                          [{"metadata": {"name": "data", "namespace": "t"}}], [], [], ["t"], "lab")


def test_objects_become_the_model() -> None:
    inv = _inventory()
    node = inv.nodes[0]
    assert node.allocatable == {"huawei.com/Ascend910": 8} and node.free("huawei.com/Ascend910") == 6
    assert node.annotations == {"huawei.com/Ascend910": "Ascend910-0,Ascend910-1"}  # device annotations only
    assert node.taints == (Taint("dedicated", "ai", "NoSchedule"),)
    assert not node.takes({"accelerator-type": "module-910b-8"})  # the taint, not tolerated
    assert node.takes({"accelerator-type": "module-910b-8"}, [{"key": "dedicated", "operator": "Exists"}])
    assert inv.has_claim("t", "data") is True and inv.has_claim("t", "other") is False
    assert inv.has_claim("elsewhere", "data") is None  # a namespace not read: unknown
    assert inv.has_config_map("t", "x") is False


def test_snapshot_round_trip(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(dump(_inventory()), encoding="utf-8")
    back = load(str(path))
    assert dump(back) == path.read_text(encoding="utf-8")
    assert back.nodes[0].free("huawei.com/Ascend910") == 6 and back.queues["default"].open
    assert back.source == str(path) and back.name == "lab"


def test_image_tags() -> None:
    assert image_tag("reg:5000/volcanosh/vc-scheduler:v1.9.0") == "v1.9.0"
    assert image_tag("vc-scheduler") == "" and image_tag("x@sha256:ab") == "sha256:ab"


@pytest.mark.parametrize("text, where, path", [
    ("apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: p}\nspec:\n"
     "  queues:\n  - {name: default, state: open}\n", (6, 28), ("spec", "queues", 0, "state")),
    ("apiVersion: ascend-compile.io/v1alpha1\nkind: ClusterSnapshot\nmetadata: {name: p}\nspec:\n"
     "  nodes:\n  - name: n\n    ready: yes-ish\n", (7, 12), ("spec", "nodes", 0, "ready")),
    ("apiVersion: v1\nkind: ClusterSnapshot\nmetadata: {name: p}\nspec: {}\n", (1, 13), ("apiVersion",)),
])
def test_a_bad_snapshot_is_an_input_error_with_its_place(tmp_path: Path, text: str, where, path) -> None:
    file = tmp_path / "bad.yaml"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load(str(file))
    finding = caught.value.findings[0]
    assert (finding.rule, finding.file, (finding.line, finding.column), finding.path) == \
        ("AC016", str(file), where, path)
    assert finding.input_error
