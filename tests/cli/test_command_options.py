"""Each command's options are one typed record (``cli/_settings.py``) that holds every option the option table
gives the command, and the command bodies read them as attributes, never by a string key."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Set

import pytest

from ascend_compile.cli import _optiontable
from ascend_compile.cli._settings import COMMAND_OPTIONS, GROUPS, Inputs, LintOptions, fields_of, options_for

CLI = Path(__file__).resolve().parents[2] / "compiler" / "cli"


def _flat(cls: type) -> Set[str]:
    """The option names a record holds, its groups' included."""
    return {name for field in fields_of(cls)
            for name in (_flat(GROUPS[field]) if field in GROUPS else {field})}


@pytest.mark.parametrize("command", sorted(COMMAND_OPTIONS))
def test_a_commands_record_holds_every_option_the_table_gives_it(command: str) -> None:
    table = {option.param for option in _optiontable.options_of(command)}
    assert table - _flat(COMMAND_OPTIONS[command]) == set()


def test_the_record_is_made_from_clicks_parameters() -> None:
    made = options_for(LintOptions, {"fail_on": "warning", "disable": ("AC303",), "config_path": "c.yaml",
                                     "fix": True, "volcano_webhook": None, "unrelated": 1})
    assert made.judging.fail_on == "warning" and made.checks.disable == ("AC303",) and made.fix
    assert made.inputs == Inputs(config_path="c.yaml") and made.judging.volcano_webhook is None


def test_no_command_reads_an_option_by_string_key() -> None:
    pattern = re.compile(r"\boptions(\[|\.get\()")
    found = [f"{path.name}:{number}" for path in sorted(CLI.glob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert found == []
