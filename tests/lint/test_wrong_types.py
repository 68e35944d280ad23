"""A field of the wrong type anywhere gives findings, never our own bug (an internal error, exit 3).

Rules read through the manifest model's typed readers (``as_dict``, ``as_list``, ``as_str``, ``as_int``): a value
of the wrong type reads as absent, whether or not a schema refused it (kinds without a built-in schema, a Pod or a
Deployment, reach the rules unchecked).  Every path of every golden file and lint fixture is set to a wrong type at
least once with the schema off, so rules see the raw value (the type turns with the path and the file, so similar
files try different ones); hypothesis draws more (file, path, type) with the schema on.  The lint runs in-process
(the engine of ``ascend-compile lint``).
"""
from __future__ import annotations

import copy
import glob
from pathlib import Path
from typing import Any, Dict, Iterator, List, Tuple

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tests.checkout  # noqa: F401 - imports this checkout as ascend_compile
from ascend_compile.lint.engine import Linter
from ascend_compile.yamlio.common import BaseLoader
from tests.checkout import ROOT

#: a value of each YAML type: one of them is wrong wherever it goes
WRONG: Tuple[Any, ...] = ("text", 7, ["item"], {"key": "value"}, None, True)


def _documents() -> List[Tuple[str, Dict[str, Any]]]:
    files = sorted(glob.glob(str(ROOT / "golden/**/*.yaml"), recursive=True))
    files += sorted(glob.glob(str(ROOT / "tests/lint/**/*.yaml"), recursive=True))
    out = []
    for path in files:
        try:
            # libyaml's loader when PyYAML has it (the product's choice): the same documents, read at collection
            # in a tenth of the pure-Python loader's 3 s of CPU
            docs = list(yaml.load_all(Path(path).read_text(encoding="utf-8"), Loader=BaseLoader))
        except (yaml.YAMLError, UnicodeDecodeError):
            continue  # a fixture that is deliberately no YAML: nothing to mutate
        out += [(path, d) for d in docs if isinstance(d, dict)]
    return out


def _paths(node: Any, prefix: Tuple[Any, ...] = ()) -> Iterator[Tuple[Any, ...]]:
    if prefix:
        yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _paths(value, prefix + (index,))


def _mutated(doc: Dict[str, Any], path: Tuple[Any, ...], value: Any) -> Dict[str, Any]:
    out = copy.deepcopy(doc)
    node: Any = out
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = copy.deepcopy(value)
    return out


DOCUMENTS = _documents()
PATHS = [(source, doc, list(_paths(doc))) for source, doc in DOCUMENTS]
LINTER = Linter()
RAW = Linter(schema=False)  # rules see every value as it is


def _internal_errors(doc: Dict[str, Any], linter: Linter = LINTER) -> List[str]:
    return [f"{f.rule} at {f.field_path}: {f.message}" for f in linter.run(objects=[(doc, "mutated.yaml")])
            if f.internal]


ENV = [{"name": "X", "valueFrom": {"fieldRef": {"fieldPath": {"bad": "type"}}}}]
POD = {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
       "spec": {"containers": [{"name": "c", "image": "i:1", "env": ENV}]}}
JOB = {"apiVersion": "mindxdl.gitee.com/v1", "kind": "AscendJob",
       "metadata": {"name": "j", "labels": {"framework": "pytorch"}},
       "spec": {"schedulerName": "volcano", "replicaSpecs": {"Master": {"replicas": 1, "template": {"spec": {
           "containers": [{"name": "ascend", "image": "i:1", "env": ENV}]}}}}}}


def test_the_reproduction_a_mapping_as_a_field_path_is_a_finding_not_a_bug():
    """Issue 32's reproduction: ``env[0].valueFrom.fieldRef.fieldPath`` a mapping crashed AC708 (exit 3): on a kind
    without a built-in schema and on a job, whose schema reports the type (once: AC708 reads no path there)."""
    assert not _internal_errors(POD)
    findings = LINTER.run(objects=[(JOB, "job.yaml")])
    assert not [f for f in findings if f.internal]
    assert [f.field_path for f in findings if f.rule == "AC102"] == [
        "spec.replicaSpecs.Master.template.spec.containers[0].env[0].valueFrom.fieldRef.fieldPath"]
    assert not [f for f in findings if f.rule == "AC708"]  # the typo is the schema's to report, once


def test_every_path_of_every_golden_and_fixture_takes_a_wrong_type():
    assert len(PATHS) > 100
    crashes = []
    for number, (source, doc, paths) in enumerate(PATHS):
        for index, path in enumerate(paths):
            value = WRONG[(index + number) % len(WRONG)]
            for error in _internal_errors(_mutated(doc, path, value), RAW):
                crashes.append(f"{source}: {path} = {value!r}: {error}")
    assert not crashes, "\n".join(crashes[:20])


@st.composite
def _mutation(draw: Any) -> Tuple[str, Tuple[Any, ...], Any, Dict[str, Any]]:
    source, doc, paths = draw(st.sampled_from([entry for entry in PATHS if entry[2]]))
    path = draw(st.sampled_from(paths))
    value = draw(st.sampled_from(WRONG))
    return source, path, value, _mutated(doc, path, value)


@settings(max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutation())
def test_any_path_takes_any_wrong_type(mutation):
    source, path, value, doc = mutation
    assert not _internal_errors(doc), f"{source}: {path} = {value!r}"
