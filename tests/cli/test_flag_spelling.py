"""One spelling for the report format across commands: ``--format``; ``-o/--output`` (status) and ``-f``
(validate) still work, hidden from the help.  (``-o`` of compile is its output directory.)"""
from __future__ import annotations

import json
import re

import pytest

from ascend_compile.cli.commands import COMMANDS
from tests.checkout import run_cli as cli
from tests.cli.test_kubectl import EXAMPLE, Fake, ascendjob, fake  # noqa: F401  (fake is a fixture)

BAD_MANIFEST = "apiVersion: mindxdl.gitee.com/v1\nkind: AscendJob\nmetadata: {name: x}\nspec: {bogus: 1}\n"


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_shows_only_format(command: str) -> None:
    text = cli(command, "--help").stdout
    assert not re.search(r"^\s+-f\b", text, re.M)
    assert not re.search(r"-o, --output\s+\[", text)  # no visible -o/--output that picks a format


def test_validate_format_and_its_old_spelling_agree() -> None:
    new = cli("validate", "--format", "json", "-", input=BAD_MANIFEST)
    old = cli("validate", "-f", "json", "-", input=BAD_MANIFEST)
    assert new.returncode == old.returncode == 1
    assert json.loads(new.stdout) == json.loads(old.stdout)
    assert "-f" not in cli("validate", "--help").stdout.split()


def test_status_format_and_its_old_spellings_agree(fake: Fake) -> None:  # noqa: F811
    fake.rules({"match": ["get", "ascendjobs.mindxdl.gitee.com"], "stdout": ascendjob([
        {"type": "Running", "status": "True", "reason": "JobRunning", "message": "running"}])})
    outputs = [cli("status", EXAMPLE, *flag, "json", env=fake.env()) for flag in
               (["--format"], ["-o"], ["--output"])]
    assert all(proc.returncode == 0 for proc in outputs), [proc.stderr for proc in outputs]
    states = [json.loads(proc.stdout) for proc in outputs]
    assert states[0] == states[1] == states[2] and states[0][0]["state"] == "Running"
    text = cli("status", EXAMPLE, env=fake.env()).stdout
    assert text.startswith("AscendJob training/resnet50-pytorch: Running")
    assert "--output" not in cli("status", "--help").stdout


@pytest.mark.parametrize("args,expected", [([], "text"), (["--format", "json"], "json"), (["-o", "json"], "json"),
                                           (["--output", "json"], "json"), (["--output=json"], "json")])
def test_why_reads_format_and_its_old_spelling(args, expected) -> None:
    from ascend_compile.cli.why import why_command

    assert why_command.make_context("why", ["job", *args]).params["output"] == expected
