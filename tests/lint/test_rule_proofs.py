"""The releases each rule is proven on (compiler/lint/proofs.py) rest on the job shapes and claims judged on the
release clusters, and every release a rule claims is backed.

- compiler/catalogue/proven.py is what scripts/gen_rule_proofs.py derives from tests/simcluster/release_shapes.py and
  test_release_claims.py (no list kept by hand beside them);
- each shape's ``rules`` are the rules lint, with the release as its target, reports at error exactly where the
  shape's recorded verdict is not ``placed`` (offline; the shapes whose verdict rests on the cluster are checked
  with its snapshot in tests/simcluster/test_releases.py);
- a rule that names a supported release in its unit (its documentation or a message), or a fact of
  compiler/releases.py, claims that release (every release, for a fact): a shape or claim, or a citation, backs it.
"""
from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from typing import List, Set

import pytest

from .conftest import ROOT
from tests.simcluster.release_shapes import SHAPES, Shape
from tests.simcluster.test_release_claims import CLAIMS
from tests.simcluster.test_releases import NEEDS_THE_CLUSTER, lint_errors

_RELEASE_NAME = re.compile(r"v\d+\.\d+\.(?:\d+|RC\d+)")


def test_the_proof_table_is_derived_from_the_shapes_and_claims():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen_rule_proofs.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr  # "compiler/catalogue/proven.py is stale: run python scripts/..."


@pytest.mark.parametrize("shape", [s for s in SHAPES if s.id not in NEEDS_THE_CLUSTER], ids=lambda s: s.id)
def test_a_shapes_rules_are_the_errors_of_lint_where_its_cluster_does_not_place_it(shape: Shape):
    errors = {r: {line.split(":")[0] for line in lint_errors(shape, r)} for r in shape.judged_on()}
    refused = [r for r in shape.judged_on() if shape.verdicts[r] != "placed"]
    assert set().union(*(errors[r] for r in refused)) == set(shape.rules), errors
    for release in shape.judged_on():
        wanted = set(shape.rules) if release in refused else set()
        assert errors[release] & set(shape.rules) == wanted, (release, errors[release])


def test_shapes_and_claims_name_known_rules_and_facts():
    from ascend_compile.catalogue import get
    from ascend_compile.releases import FACTS, RELEASES

    for item in [*SHAPES, *CLAIMS]:
        assert all(get(rule) is not None for rule in item.rules), item.id
        assert all(fact in FACTS for fact in item.facts), item.id
    assert all(set(c.releases) <= set(RELEASES) for c in CLAIMS)


def _claimed(rule) -> Set[str]:
    """The supported releases a lint rule's unit names, and every release when it names a fact."""
    from ascend_compile.catalogue.proven import NAMED_FACTS
    from ascend_compile.releases import RELEASES

    path = os.path.join(ROOT, "compiler", "lint", "rules", rule.unit + ".py")
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    # what the unit cites (CITATION: the upstream files it mirrors, at the versions they were read) is no claim
    lines = text.splitlines()
    for node in ast.parse(text).body:
        targets = (node.targets if isinstance(node, ast.Assign)
                   else [node.target] if isinstance(node, ast.AnnAssign) else [])
        if any(isinstance(t, ast.Name) and t.id == "CITATION" for t in targets):
            lines[node.lineno - 1:node.end_lineno] = [""] * (node.end_lineno - node.lineno + 1)
    named = set(_RELEASE_NAME.findall("\n".join(lines))) & set(RELEASES)
    return named | (set(RELEASES) if rule.id in NAMED_FACTS else set())


def _lint_rules() -> List:
    from ascend_compile.catalogue import LINT, entries

    return list(entries(LINT))


@pytest.mark.parametrize("rule", _lint_rules(), ids=lambda r: r.id)
def test_every_release_a_rule_claims_is_backed(rule):
    from ascend_compile.lint.proofs import proof

    unbacked = _claimed(rule) - set(proof(rule.id).releases())
    assert not unbacked, (f"{rule.id} names {sorted(unbacked)} (or a fact of compiler/releases.py) but no shape, "
                          "claim or citation backs it there: add a shape to tests/simcluster/release_shapes.py, a "
                          "claim to test_release_claims.py, or a CITED_FACTS entry in the rule's unit")


def test_a_rule_without_backing_would_fail(monkeypatch):
    """The check above has teeth: take AC215's shape away and its claim of v6.0.0 is unbacked."""
    from ascend_compile.catalogue import get
    from ascend_compile.lint import proofs

    monkeypatch.setattr(proofs, "SHOWN", {k: v for k, v in proofs.SHOWN.items() if k != "AC215"})
    assert "v6.0.0" in _claimed(get("AC215")) - set(proofs.proof("AC215").releases())


def test_a_shape_shows_the_span_between_its_ends():
    """A claim seen at the ends of a fact's span shows the releases between (restart-in-place: v26.0.1)."""
    from ascend_compile.lint.proofs import proof

    found = proof("AC312")
    assert found.shown["v26.0.1"] == ("restart-in-place",)
    assert "v26.0.1" not in [r for c in CLAIMS if c.id == "restart-in-place" for r in c.releases]
