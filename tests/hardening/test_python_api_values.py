"""Python values no YAML file can give are the caller's ArgumentError, never a raw ValueError or AttributeError.

Issue 31 (low): ``JobSpec(npus=10**5000)`` raised Python's ``ValueError`` (an integer too long to turn into
text) and ``env`` given as a set raised ``AttributeError`` ('set' object has no attribute 'items') from deep
inside the schema check, instead of the package's own error naming the field.

Issue 43 (low): a dict or list inside itself, or nested 5,000 deep, raised a raw ``RecursionError`` from
every function that takes values, and a ``str`` subclass raised PyYAML's ``RepresenterError`` when the
YAML was written. A cycle and nesting deeper than a YAML file may (200 levels) are ArgumentErrors naming
where; a subclass of str, int or float is its plain value.
"""
from __future__ import annotations

import pytest

import enum
from typing import Any, Callable, Dict, List

from ascend_compile import (AscendCompileError, JobSpec, compile_spec, compile_to_yaml, lint_manifests,
                            validate_manifests, to_yaml)
from ascend_compile.errors import ArgumentError

BASE = dict(name="demo", framework="pytorch", profile="module-910b-8", image="swr.example.com/ml/pytorch-train:2.1.0")


@pytest.mark.parametrize("field, value, where", [pytest.param(*case, id=f"{case[0]}-{type(case[1]).__name__}") for case in [
    ("npus", 10 ** 5000, "spec.npus"),
    ("npus", -(10 ** 1200), "spec.npus"),
    ("env", {"A", "B"}, "spec.env"),
    ("env", {"A": frozenset({"x"})}, "spec.env.A"),
    ("command", [b"/bin/sh"], "spec.command[0]"),
    ("labels", {"team": object()}, "spec.labels.team"),
]])
def test_a_value_no_yaml_gives_is_an_argument_error_naming_the_field(field: str, value: object, where: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        compile_spec(JobSpec(**BASE, **{field: value}))
    assert isinstance(caught.value, AscendCompileError) and isinstance(caught.value, TypeError)
    assert caught.value.findings[0].message.startswith(where + ":"), caught.value.findings[0].message


def test_the_same_value_in_a_mapping_spec_names_the_same_field() -> None:
    document = JobSpec(**BASE).to_dict()
    document["spec"]["env"] = {"A", "B"}
    with pytest.raises(ArgumentError, match=r"^spec\.env: a set"):
        compile_spec(document)


@pytest.mark.parametrize("call", [lambda bad: lint_manifests([bad]), lambda bad: to_yaml([bad])])
def test_objects_given_to_lint_and_to_yaml_are_checked_the_same_way(call) -> None:
    bad = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": {"a": {"set"}}}
    with pytest.raises(ArgumentError, match="data.a: a set"):
        call(bad)


def test_the_largest_integer_a_yaml_file_gives_still_compiles_to_a_finding_not_an_argument_error() -> None:
    with pytest.raises(AscendCompileError) as caught:
        compile_spec(JobSpec(**BASE, npus=10 ** 999))
    assert not isinstance(caught.value, ArgumentError)


# --------------------------------------------------------------------------- issue 43: cycles, depth, subclasses


def _configmap(data: Any) -> Dict[str, Any]:
    return {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}, "data": data}


def _nested(levels: int, leaf: Any = "x") -> Any:
    """``levels`` mappings, one inside the other."""
    for _ in range(levels):
        leaf = {"a": leaf}
    return leaf


def _deep_list(levels: int) -> List[Any]:
    out: List[Any] = []
    for _ in range(levels - 1):
        out = [out]
    return out


def _cyclic_dict() -> Dict[str, Any]:
    loop: Dict[str, Any] = {"b": 1}
    loop["self"] = loop
    return loop


def _cyclic_list() -> List[Any]:
    loop: List[Any] = [1]
    loop.append(loop)
    return loop


#: every public function that takes values (objects, or a spec as a JobSpec or a mapping), with the bad value
CALLS: Dict[str, Callable[[Any], object]] = {
    "compile_spec(JobSpec)": lambda bad: compile_spec(JobSpec(**BASE, npus=8, pod_template_patch={"metadata": bad})),
    "compile_to_yaml(dict)": lambda bad: compile_to_yaml({**JobSpec(**BASE, npus=8).to_dict(), "x": bad}),
    "validate_manifests": lambda bad: validate_manifests([_configmap(bad)]),
    "lint_manifests": lambda bad: lint_manifests([_configmap(bad)]),
    "to_yaml": lambda bad: to_yaml([_configmap(bad)]),
}
BAD = {"cyclic dict": _cyclic_dict, "cyclic list": lambda: {"l": _cyclic_list()},
       "5,000 deep dict": lambda: _nested(5000), "5,000 deep list": lambda: {"l": _deep_list(5000)}}


@pytest.mark.parametrize("value", sorted(BAD))
@pytest.mark.parametrize("call", sorted(CALLS))
def test_a_cycle_or_5000_levels_is_an_argument_error_naming_where(call: str, value: str) -> None:
    with pytest.raises(ArgumentError) as caught:
        CALLS[call](BAD[value]())
    message = caught.value.findings[0].message
    assert ("contains itself" if "cyclic" in value else "nests deeper than 200 levels") in message, message
    assert message.split(":")[0].split(".")[0] in ("spec", "data", "objects[0]", "x"), message
    assert caught.value.findings[0].hint


def test_a_cycle_given_to_cluster_create_is_an_argument_error_before_any_request() -> None:
    kubernetes = pytest.importorskip("kubernetes")
    from ascend_compile import Cluster

    cluster = Cluster(kubernetes.client.ApiClient(kubernetes.client.Configuration()))  # nothing is sent
    with pytest.raises(ArgumentError, match=r"^objects\[0\]\.data\.self: contains itself \(it is the dict at objects\[0\]\.data\)"):
        cluster.create([_configmap(_cyclic_dict())])


def test_as_deep_as_a_yaml_file_may_nest_is_accepted() -> None:
    """The limit is the reader's: 200 levels go through (and read back), 201 do not."""
    from ascend_compile.yamlio.parsing import load_documents

    [doc] = load_documents(to_yaml([_nested(198, _configmap("x"))]), "deep.yaml")
    assert doc.data == _nested(198, _configmap("x"))
    with pytest.raises(ArgumentError, match="nests deeper than 200 levels"):
        to_yaml([_nested(199, _configmap("x"))])


class Text(str):
    def __str__(self) -> str:  # what it says it is does not matter: its text does
        return "something else"


class Count(int):
    pass


class Kind(str, enum.Enum):
    POD = "pytorch"


def test_subclasses_of_str_and_int_compile_as_their_plain_values() -> None:
    plain = JobSpec(**BASE, npus=8, env={"A": "b"}, labels={"team": "ml"})
    sub = JobSpec(name=Text("demo"), framework=Kind.POD, profile=Text("module-910b-8"),
                  image=Text("swr.example.com/ml/pytorch-train:2.1.0"), npus=Count(8), env={Text("A"): Text("b")},
                  labels={Text("team"): Text("ml")})
    assert compile_to_yaml(sub) == compile_to_yaml(plain)
    objects = [_configmap({Text("a"): Text("b"), "n": Text("1")})]
    assert to_yaml(objects) == to_yaml([_configmap({"a": "b", "n": "1"})])
    assert lint_manifests(objects) == lint_manifests([_configmap({"a": "b", "n": "1"})])


def test_a_key_that_is_not_a_scalar_is_an_argument_error() -> None:
    with pytest.raises(ArgumentError, match=r"^objects\[0\]\.data: a tuple is not a key a YAML file gives"):
        to_yaml([_configmap({("a", "b"): "c"})])
