"""emit/patch.py, the spec's podTemplatePatch: a JSON merge patch whose named lists merge by name."""
from __future__ import annotations

import copy

import pytest

from ascend_compile.emit.patch import PatchError, apply_patch

TEMPLATE = {
    "metadata": {"labels": {"app": "x", "ring-controller.atlas": "ascend-910b"}},
    "spec": {
        "containers": [{"name": "ascend", "image": "a:1", "env": [{"name": "A", "value": "1"}], "args": ["a"],
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
    # a list of other objects replaces the old one only when asked to
    ({"spec": {"tolerations": [{"$patch": "replace"}, {"key": "b"}]}},
     lambda t: t["spec"].update(tolerations=[{"key": "b"}])),
    # ... and is copied in where the template has none
    ({"spec": {"imagePullSecrets": [{"name": "reg"}], "readinessGates": [{"conditionType": "x"}]}},
     lambda t: t["spec"].update(imagePullSecrets=[{"name": "reg"}], readinessGates=[{"conditionType": "x"}])),
    # a list of strings replaces the old one
    ({"spec": {"containers": [{"name": "ascend", "args": ["b"]}]}},
     lambda t: t["spec"]["containers"][0].update(args=["b"])),
    # a named item is removed with $patch: delete
    ({"spec": {"containers": [{"name": "ascend", "ports": [{"name": "ascendjob-port", "$patch": "delete"}]}]}},
     lambda t: t["spec"]["containers"][0].update(ports=[])),
    ({"spec": {"volumes": [{"name": "dshm", "$patch": "delete"}, {"name": "data", "emptyDir": {}}]}},
     lambda t: t["spec"].update(volumes=[{"name": "data", "emptyDir": {}}])),
    # a named list can be replaced on purpose
    ({"spec": {"containers": [{"name": "ascend", "ports": [{"$patch": "replace"}, {"containerPort": 8080}]}]}},
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


@pytest.mark.parametrize("patch,where,words", [
    # an item without a name in a named list would drop ascendjob-port: refused (issue 15)
    ({"spec": {"containers": [{"name": "ascend", "ports": [{"containerPort": 8080}]}]}},
     ("spec", "containers", 0, "ports", 0), "without a name"),
    ({"spec": {"containers": [{"image": "a:2"}]}}, ("spec", "containers", 0), "without a name"),
    # a name that is not a string used to crash the merge (issue 16, item 9)
    ({"spec": {"containers": [{"name": ["ascend"], "image": "a:2"}]}}, ("spec", "containers", 0), "not a string"),
    ({"spec": {"containers": [{"name": {"x": 1}}]}}, ("spec", "containers", 0), "not a string"),
    # a list of objects over generated objects replaces them only when asked to
    ({"spec": {"tolerations": [{"key": "b"}]}}, ("spec", "tolerations"), "replace"),
    # removing what is not there, unknown and misplaced directives
    ({"spec": {"volumes": [{"name": "nope", "$patch": "delete"}]}}, ("spec", "volumes", 0, "name"), "no item named"),
    ({"spec": {"volumes": [{"name": "dshm", "$patch": "merge"}]}}, ("spec", "volumes", 0, "$patch"), "unknown"),
    ({"spec": {"volumes": [{"name": "x", "emptyDir": {}}, {"$patch": "replace"}]}}, ("spec", "volumes", 1), "first"),
])
def test_patch_refuses_what_it_cannot_merge(patch, where, words):
    with pytest.raises(PatchError) as caught:
        apply_patch(TEMPLATE, patch, ("spec", "podTemplatePatch"))
    assert caught.value.path == ("spec", "podTemplatePatch") + where
    assert words in caught.value.message + caught.value.hint
