"""emit/patch.py, the spec's podTemplatePatch: a JSON merge patch whose named lists merge by name."""
from __future__ import annotations

import copy

import pytest

from ascend_compile.emit.patch import apply_patch

TEMPLATE = {
    "metadata": {"labels": {"app": "x", "ring-controller.atlas": "ascend-910b"}},
    "spec": {
        "containers": [{"name": "ascend", "image": "a:1", "env": [{"name": "A", "value": "1"}],
                        "ports": [{"name": "ascendjob-port", "containerPort": 2222}]}],
        "volumes": [{"name": "dshm", "emptyDir": {"medium": "Memory"}}],
        "tolerations": [{"key": "a"}],
    },
}


@pytest.mark.parametrize("patch,expected_changes", [
    # maps merge key by key
    ({"metadata": {"labels": {"team": "ml"}}},
     lambda t: t["metadata"]["labels"].update(team="ml")),
    # null deletes a key
    ({"metadata": {"labels": {"app": None}}},
     lambda t: t["metadata"]["labels"].pop("app")),
    # a new key is added, a new map copied in
    ({"spec": {"priorityClassName": "high", "securityContext": {"runAsUser": 1000}}},
     lambda t: t["spec"].update(priorityClassName="high", securityContext={"runAsUser": 1000})),
    # named lists merge item by item, by name
    ({"spec": {"containers": [{"name": "ascend", "image": "a:2"}]}},
     lambda t: t["spec"]["containers"][0].update(image="a:2")),
    ({"spec": {"containers": [{"name": "ascend", "env": [{"name": "B", "value": "2"}]}]}},
     lambda t: t["spec"]["containers"][0]["env"].append({"name": "B", "value": "2"})),
    ({"spec": {"containers": [{"name": "ascend", "env": [{"name": "A", "value": "9"}]}]}},
     lambda t: t["spec"]["containers"][0]["env"][0].update(value="9")),
    # a named item that is not there is appended
    ({"spec": {"containers": [{"name": "sidecar", "image": "s:1"}]}},
     lambda t: t["spec"]["containers"].append({"name": "sidecar", "image": "s:1"})),
    ({"spec": {"volumes": [{"name": "data", "nfs": {"server": "s", "path": "/d"}}]}},
     lambda t: t["spec"]["volumes"].append({"name": "data", "nfs": {"server": "s", "path": "/d"}})),
    # any other list replaces the old one
    ({"spec": {"tolerations": [{"key": "b"}]}},
     lambda t: t["spec"].update(tolerations=[{"key": "b"}])),
    # an item without a name makes the list unnamed: it replaces the list (issue 15 will refuse this)
    ({"spec": {"containers": [{"name": "ascend", "ports": [{"containerPort": 8080}]}]}},
     lambda t: t["spec"]["containers"][0].update(ports=[{"containerPort": 8080}])),
    # a scalar replaces a map, a map replaces a scalar
    ({"spec": {"volumes": None}}, lambda t: t["spec"].pop("volumes")),
])
def test_patch(patch, expected_changes):
    original = copy.deepcopy(TEMPLATE)
    expected = copy.deepcopy(TEMPLATE)
    expected_changes(expected)
    assert apply_patch(TEMPLATE, patch) == expected
    assert TEMPLATE == original  # the template is not changed in place


def test_an_empty_patch_changes_nothing():
    assert apply_patch(TEMPLATE, {}) == TEMPLATE
