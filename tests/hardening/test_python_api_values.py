"""Python values no YAML file can give are the caller's ArgumentError, never a raw ValueError or AttributeError.

Issue 31 (low): ``JobSpec(npus=10**5000)`` raised Python's ``ValueError`` (an integer too long to turn into
text) and ``env`` given as a set raised ``AttributeError`` ('set' object has no attribute 'items') from deep
inside the schema check, instead of the package's own error naming the field.
"""
from __future__ import annotations

import pytest

from ascend_compile import AscendCompileError, JobSpec, compile_spec, lint_manifests, to_yaml
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
