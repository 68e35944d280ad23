"""The run's object index that cross-object rules ask (ascend_compile.lint.index.CrossRun)."""
from __future__ import annotations

from ascend_compile.lint.index import CrossRun, ObjectRef


def _ref(kind, name, source, namespace=None, order=0):
    return ObjectRef(kind, name, namespace, source, {}, f"{kind}/{name}", (), 0, None, order, frozenset())


def test_find_any_equals_find_for_each_kind_in_turn():
    refs = [_ref("Job", "train", "a.yaml", order=1), _ref("AscendJob", "train", "b.yaml", order=2),
            _ref("Deployment", "train", "c.yaml", "prod", order=3), _ref("ConfigMap", "rings-config-train", "a.yaml"),
            _ref("Job", "other", "a.yaml", order=4)]
    run = CrossRun(refs, profiles=None)
    kinds = ("AscendJob", "Job", "Deployment", "StatefulSet")
    near = refs[3]
    for name in ("train", "other", "missing"):
        for namespace in (None, "prod", "dev"):
            for where in (None, near):
                joined = [ref for kind in kinds for ref in run.find(kind, name, namespace, where)]
                assert run.find_any(kinds, name, namespace, where) == joined, (name, namespace, where)
    assert [r.source for r in run.find_any(kinds, "train", None, near)] == ["b.yaml", "a.yaml", "c.yaml"]
