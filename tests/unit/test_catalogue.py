"""The rule catalogue is the one list of rule IDs: complete, consistent, and read by every consumer."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import ascend_compile
from ascend_compile import catalogue
from ascend_compile.config import LintSettings, ProjectConfig
from ascend_compile.errors import InputError
from ascend_compile.lint.registry import documentation, summary

ROOT = Path(__file__).resolve().parents[2]
UNITS = ROOT / "compiler" / "lint" / "rules"


def test_ids_and_names_are_unique_and_well_formed():
    entries = catalogue.entries()
    assert len({e.id for e in entries}) == len(entries)
    assert len({e.name for e in entries}) == len(entries)
    for entry in entries:
        assert re.fullmatch(r"AC\d{3}", entry.id), entry.id
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name), entry.name
        assert entry.severity in ("error", "warning", "info")
        assert entry.origin in catalogue.ORIGINS
        assert summary(entry) and documentation(entry).startswith(summary(entry))
        assert bool(entry.doc) != bool(entry.unit), "the catalogue documents exactly the rules without a unit"


def test_every_lint_entry_has_a_unit_and_every_unit_an_entry():
    units = {p.stem for p in UNITS.glob("*.py") if not p.name.startswith("_")}
    assert units == {e.unit for e in catalogue.entries(catalogue.LINT)}
    from ascend_compile.lint.registry import lint_rules

    assert [r.id for r in lint_rules()] == [e.id for e in catalogue.entries(catalogue.LINT)]
    assert all(callable(r.check) for r in lint_rules())


@pytest.mark.parametrize("origin,suppressible", [("input", False), ("config", False), ("output", False),
                                                  ("spec", False), ("discovery", True), ("schema", True),
                                                  ("engine", True), ("lint", True), ("cluster", False)])
def test_what_can_be_suppressed(origin, suppressible):
    """By origin, but for the one discovery rule no setting silences: a file NOT CHECKED (issue 43, M1)."""
    assert {e.suppressible for e in catalogue.entries(origin) if e.id != catalogue.KUSTOMIZE_PART_NOT_CHECKED} \
        == {suppressible}


def test_a_file_not_checked_is_never_silenced():
    entry = catalogue.get(catalogue.KUSTOMIZE_PART_NOT_CHECKED)
    assert entry.origin == catalogue.DISCOVERY and not entry.suppressible
    assert entry.why_not_suppressible.startswith("a file not checked")


def test_lookup_by_id_or_name_in_any_case():
    assert catalogue.resolve("ac301") == "AC301" == catalogue.resolve("npu-count")
    assert catalogue.resolve("AC999") is None and catalogue.get("no-such-rule") is None


def test_the_schema_check_reports_the_catalogue_ids():
    from ascend_compile.schemacheck.messages import SCHEMA_RULES

    for rule_id, name, summary in SCHEMA_RULES:
        entry = catalogue.get(rule_id)
        assert entry is not None and entry.origin == catalogue.SCHEMA
        assert (entry.name, entry.summary) == (name, summary)
    assert catalogue.get(catalogue.UNKNOWN_KIND).severity == "warning"


def test_reporters_describe_rules_from_the_catalogue():
    from ascend_compile.report import catalogue_rules, default_rules, merged_rules
    from ascend_compile.findings import Finding

    assert set(catalogue_rules()) == {e.id for e in catalogue.entries()}
    assert {e.origin for e in map(catalogue.get, default_rules())} == {"input", "schema"}
    merged = merged_rules([Finding("AC503", "error", "m"), Finding("XX1", "error", "m")], None)
    assert merged["AC503"].name == "ranktable-mount" and merged["AC503"].help_uri.endswith("#ac503-ranktable-mount")
    assert merged["XX1"].name == "XX1"


def test_api_refuses_unknown_rules_in_the_config_as_the_cli_does(tmp_path):
    config = tmp_path / "cfg.yaml"
    config.write_text("lint:\n  disable: [AC999]\n  severity: {AC303: error, bogus: info}\n")
    with pytest.raises(InputError) as caught:
        ascend_compile.lint_manifests([], config=str(config))
    found = [(f.rule, f.line, f.column, f.message) for f in caught.value.findings]
    assert found == [("AC011", 2, 13, "lint.disable names an unknown rule 'AC999'"),
                     ("AC011", 3, 28, "lint.severity names an unknown rule 'bogus'")]
    made_in_python = ProjectConfig(lint=LintSettings(disable=("AC999",)))
    with pytest.raises(InputError):
        ascend_compile.lint_manifests([], config=made_in_python)
    ok = ProjectConfig(lint=LintSettings(disable=("npu-count",), severity={"AC303": "error"}))
    assert ascend_compile.lint_manifests([], config=ok) == []
