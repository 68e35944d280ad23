"""Every rule against its failing and passing fixtures under tests/lint/cases/.

A failing fixture marks each expected finding on its line with
``# expect: RULE@COLUMN`` (several per line allowed), or ``RULE@COLUMN=SEVERITY``
where the severity is the point (it differs between releases); the lint run must
produce exactly those findings, no more, no fewer.  A passing fixture
(``pass-*.yaml``) must be clean and lists in ``# passes:`` the rules it
exercises without tripping them.  A fixture judged for a release, or for an
install with or without Volcano's admission webhook, says so on lines of their
own (``# mindcluster: v7.0.RC1``, ``# volcano-webhook: false``; conftest.py).
"""
from __future__ import annotations

import glob
import os
import re

import pytest

from .conftest import CASES, lint_text

MARK = re.compile(r"# expect: (.*)$")
FAIL_CASES = sorted(glob.glob(os.path.join(CASES, "AC*.yaml")))
PASS_CASES = sorted(glob.glob(os.path.join(CASES, "pass-*.yaml")))


def expected_severities(path):
    """{(rule, line, column): severity} of the markers that name a severity."""
    out = {}
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            match = MARK.search(line.rstrip("\n"))
            if match:
                for token in match.group(1).split():
                    rule, _, place = token.partition("@")
                    column, _, severity = place.partition("=")
                    out[(rule, number, int(column))] = severity or None
    return out


def expected(path):
    return set(expected_severities(path))


def found(path):
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    return {(f.rule, f.line, f.column): f.severity for f in lint_text(text, path)}


def actual(path):
    return set(found(path))


@pytest.mark.parametrize("path", FAIL_CASES, ids=os.path.basename)
def test_failing_case(path):
    want = expected_severities(path)
    assert want, f"{path} has no '# expect:' markers"
    got = found(path)
    assert set(got) == set(want)
    assert {k: got[k] for k, v in want.items() if v} == {k: v for k, v in want.items() if v}


@pytest.mark.parametrize("path", PASS_CASES, ids=os.path.basename)
def test_passing_case(path):
    findings = actual(path)
    assert findings == set()


def test_every_lint_rule_has_a_failing_and_a_passing_case():
    from ascend_compile.lint.registry import lint_rules

    failing = {rule for path in FAIL_CASES for rule, _, _ in expected(path)}
    passing = set()
    for path in PASS_CASES:
        with open(path, encoding="utf-8") as handle:
            first = handle.readline()
        assert first.startswith("# passes:"), path
        passing.update(first.split(":", 1)[1].split())
    ids = {r.id for r in lint_rules()}
    assert ids - failing == set(), "rules without a failing case"
    assert ids - passing == set(), "rules without a passing case"
    for path in FAIL_CASES:  # the file named after a rule really fails that rule
        rule = os.path.basename(path).split("-", 1)[0]
        assert rule in {r for r, _, _ in expected(path)}, path
