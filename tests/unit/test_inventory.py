"""The cluster inventory model and its snapshot file (issue 35): built from plain objects, written and read back
unchanged, and a bad file refused with file, line, column and field path (AC016)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

import pytest
import yaml

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


def test_where_a_job_without_a_namespace_lands(tmp_path: Path) -> None:
    """The snapshot records the namespace a job that names none lands in; a snapshot written before it did (no
    ``defaultNamespace``) still reads, and then such a job's claims and ConfigMaps are not checked (not known)."""
    from dataclasses import replace

    from ascend_compile.lint.oneshot import lint_documents
    from ascend_compile.yamlio.parsing import load_documents

    path = tmp_path / "c.yaml"
    path.write_text(dump(replace(_inventory(), default_namespace="t")), encoding="utf-8")
    assert "\n  defaultNamespace: t\n" in path.read_text(encoding="utf-8")
    landed = load(str(path))
    assert landed.namespace_of(None) == "t" and landed.namespace_of("own") == "own"
    old = tmp_path / "old.yaml"
    old.write_text(path.read_text(encoding="utf-8").replace("  defaultNamespace: t\n", ""), encoding="utf-8")
    unknown = load(str(old))
    assert unknown.default_namespace == "" and unknown.namespace_of(None) is None
    job = ("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: x/y:1}]\n"
           "  volumes: [{name: v, persistentVolumeClaim: {claimName: gone}}]\n")
    rules = lambda inv: [f.rule for f in lint_documents(load_documents(job, "p.yaml"), inventory=inv)]  # noqa: E731
    assert "AC908" in rules(landed) and "AC908" not in rules(unknown)


def _scheduler_config_map(arguments: Dict[str, Any], plugin: str = "volcano-npu_v26.1.0") -> Dict[str, Any]:
    conf = {"actions": "enqueue, allocate", "tiers": [{"plugins": [{"name": "gang"}, {"name": plugin}]}],
            "configurations": [{"name": "init-params", "arguments": arguments}]}
    return {"metadata": {"name": "volcano-scheduler-configmap", "namespace": "volcano-system"},
            "data": {"volcano-scheduler.conf": yaml.safe_dump(conf)}}


@pytest.mark.parametrize("arguments, levels", [
    ({"resource-level-config": json.dumps({"default": {"level1": {"label": "rack", "reservedNode": 1},
                                                       "level2": {"label": "pod"}},
                                           "gap": {"level2": {"label": "x"}}})}, {"default": ("rack", "pod")}),
    ({"useClusterInfoManager": "false"}, {}),  # none configured: the plugin refuses every node
    ({"resource-level-config": "{not json"}, {}),
    ({"resource-level-config": json.dumps({"default": {"level1": {"label": 7}}})}, {}),  # Go's decoding fails
    ({"resource-level-config": {"default": {}}}, None),  # not text: what the plugin makes of it is not known
])
def test_the_plugins_topology_from_the_schedulers_configuration(arguments: Dict[str, Any], levels: Any) -> None:
    inv = inventory_from(None, [], None, None, [_scheduler_config_map(arguments)], [], ["t"])
    assert inv.resource_levels == levels


def test_no_configuration_that_loads_the_plugin_is_not_known() -> None:
    other = _scheduler_config_map({"resource-level-config": "{}"}, plugin="binpack")
    assert inventory_from(None, [], None, None, [other], [], ["t"]).resource_levels is None
    assert inventory_from(None, [], None, None, None, [], ["t"]).resource_levels is None  # ConfigMaps not read


def test_the_topology_round_trips_through_the_snapshot(tmp_path: Path) -> None:
    from dataclasses import replace

    path = tmp_path / "c.yaml"
    for levels in ({"default": ("rack", "pod")}, {}):
        path.write_text(dump(replace(_inventory(), resource_levels=levels)), encoding="utf-8")
        assert load(str(path)).resource_levels == levels
    path.write_text(dump(_inventory()), encoding="utf-8")
    assert "resourceLevels" not in path.read_text(encoding="utf-8") and load(str(path)).resource_levels is None
