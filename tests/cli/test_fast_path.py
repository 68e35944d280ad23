"""The fast path reads a plain lint, validate or compile command line exactly as click does, and leaves the rest
to click.  The cases are made from the option table (``cli/_optiontable.py``) as well as written out, so an option
added there is checked here without a new case, and a click option added beside the table fails."""
from __future__ import annotations

import subprocess
import sys

import click
import pytest

from tests.checkout import ROOT, checkout_env
from ascend_compile.cli import _fast, _optiontable
from ascend_compile.cli._group import cli
from ascend_compile.cli.compile import compile_command
from ascend_compile.cli.lint import lint_command
from ascend_compile.cli.validate import validate_command

EXAMPLES = ROOT / "examples"
COMMANDS = {"lint": lint_command, "validate": validate_command, "compile": compile_command}
#: the name of each command's paths argument
PATHS = {"lint": "paths", "validate": "paths", "compile": "specs"}

READ_HERE = [
    ["lint", "job.yaml"],
    ["lint", "a.yaml", "b.yaml", "-"],
    ["lint", "-q", "--no-cache", "manifests/"],
    ["lint", "--format", "json", "x.yaml"],
    ["lint", "--format=sarif", "x.yaml", "--fail-on", "warning"],
    ["lint", "x.yaml", "--disable", "AC305", "--disable=AC303,AC501", "--quiet"],
    ["lint", "--no-strict", "--strict", "x.yaml", "--no-strict"],
    ["lint", "--include", "*.yml", "--exclude", "charts/**", "--exclude=tmp", "k8s/"],
    ["lint", "--max-bytes", "1000", "--no-config", "--volcano-version", "1.9", "x.yaml"],
    ["validate", "x.yaml"],
    ["validate", "--volcano-version", "1.9", "x.yaml"],
    ["validate", "-q", "-f", "github", "dir/", "--strict-kinds", "--no-strict"],
    ["validate", "--format=json", "--max-bytes=20", "--include", "*.yaml", "-", "b.yaml"],
    ["validate", "dir/", "--disable", "AC009", "--disable=AC106,not-a-manifest"],
    ["compile", "x.yaml"],
    ["compile", "specs/", "-o", "manifests", "--check"],
    ["compile", "--check", "--output-dir=out", "a.yaml", "b.yaml", "--format", "json", "--no-lint"],
    ["compile", "s.yaml", "--set", "spec.image=repo/train:2.1", "--set=spec.queue=q", "--no-config", "--max-bytes", "99"],
    ["compile", "a.yaml", "--set", "spec.image=x"],
]

LEFT_TO_CLICK = [
    [], ["--help"], ["lint", "--help"], ["lint", "-h"], ["lint", "-v", "x.yaml"],
    ["lint"], ["lint", "-q"], ["lint", "--disable", "x.yaml"], ["validate", "--strict"],  # no PATH: click says so
    ["lint", "--show-config"], ["lint", "--config", "c.yaml", "x.yaml"], ["lint", "--profile-dir", "p", "x.yaml"],
    ["lint", "--format", "xml", "x.yaml"], ["lint", "--format"], ["lint", "--fail-on", "-q", "x.yaml"],
    ["lint", "--max-bytes", "0", "x.yaml"], ["lint", "--max-bytes", "ten", "x.yaml"], ["lint", "-qv", "x.yaml"],
    ["lint", "--quiet=yes", "x.yaml"], ["lint", "--", "x.yaml"], ["lint", "--unknown", "x.yaml"],
    ["validate", "-v", "x.yaml"], ["lint", "--format=", "x"],
    ["compile"], ["compile", "-o", "out"], ["compile", "x.yaml", "-o"], ["compile", "x.yaml", "--check=yes"],
    ["compile", "x.yaml", "--profile-dir", "p"], ["compile", "x.yaml", "--show-config"], ["compile", "--help"],
    ["compile", "x.yaml", "--format", "xml"], ["compile", "-", "--set", "spec.image=x"],
    ["compile", "x.yaml", "-ox"],
]


def _uses(option):
    """Command lines (after the command) that give ``option`` a value click accepts, in each spelling."""
    takes = option.takes
    if takes == _optiontable.FLAG:
        return [[flag] for flag in option.flags]
    if takes == _optiontable.SWITCH:
        on, off = option.flags
        return [[off], [off, on], [on, off]]
    if takes == _optiontable.MANY:
        return [[flag, "a", f"{flag}=b,c"] for flag in option.flags]
    values = list(takes) if isinstance(takes, tuple) else ["7" if takes == _optiontable.INT else "v"]
    return [[flag, value] for flag in option.flags for value in values] + [[f"{flag}={values[-1]}"]
                                                                            for flag in option.flags if flag[1] == "-"]


def _for_click(option):
    """Command lines that give ``option`` a value click refuses, or spell one as only click reads it (a short
    option's ``-o=x`` is ``=x``): click must read them."""
    short = [[f"{flag}=v"] for flag in option.flags if flag[1] != "-"]
    if isinstance(option.takes, tuple):
        return short + [[flag, "nope"] for flag in option.flags]
    if option.takes == _optiontable.INT:
        return short + [[flag, value] for flag in option.flags for value in ("0", "ten")]
    if option.takes in (_optiontable.FLAG, _optiontable.SWITCH):
        return [[f"{flag}=yes"] for flag in option.flags]
    return short


def _from_the_table(fast, lines):
    """Each command line ``lines`` makes of each option the fast path reads (``fast``) or not, a PATH after it."""
    return [[command, *line, "x.yaml"] for command in _fast.FAST_COMMANDS
            for option in _optiontable.options_of(command) if option.fast == fast for line in lines(option)]


def test_the_fast_path_runs_the_commands_it_is_meant_for():
    assert set(_fast.FAST_COMMANDS) == set(COMMANDS)


@pytest.mark.parametrize("args", READ_HERE + _from_the_table(True, _uses), ids=" ".join)
def test_the_fast_path_reads_a_command_line_as_click_does(args):
    command, paths, params = _fast.parse(args)
    context = COMMANDS[args[0]].make_context(args[0], list(args[1:]))
    clicks = dict(context.params)
    assert list(clicks.pop(PATHS[args[0]])) == paths
    assert {k: tuple(v) if isinstance(v, tuple) else v for k, v in clicks.items()} == params


@pytest.mark.parametrize("args", LEFT_TO_CLICK + _from_the_table(False, _uses) + _from_the_table(True, _for_click),
                         ids=" ".join)
def test_anything_else_is_left_to_click(args):
    assert _fast.parse(args) is None


def _click_command(name):
    group, _, sub = name.partition(" ")
    command = cli.get_command(click.Context(cli), group)
    return command.commands[sub] if sub else command


@pytest.mark.parametrize("name", sorted({name for option in _optiontable.OPTIONS for name in option.commands}))
def test_each_command_takes_the_tables_options_as_the_table_spells_them(name):
    """click's options of a command the table names are the table's, spelled as it spells them; lint, validate and
    compile take no option beside the table (the fast path would not know it)."""
    command = _click_command(name)
    clicks = {p.name: p for p in command.params if isinstance(p, click.Option) and p.name != "help"}
    table = {option.param: option for option in _optiontable.options_of(name)}
    if name in _fast.FAST_COMMANDS:
        assert set(clicks) == set(table)
    for param, option in table.items():
        spelled = clicks[param].opts + clicks[param].secondary_opts
        assert spelled == list(option.flags), (param, spelled)
        assert clicks[param].hidden == option.hidden and clicks[param].help == option.help_for(name)


def test_a_usage_problem_found_after_parsing_is_reported_by_click(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "lint", "--disable", "NOPE", str(path)],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 2 and "Usage: ascend-compile lint" in proc.stderr and "unknown rule NOPE" in proc.stderr


def test_a_plain_lint_does_not_load_click(tmp_path):
    path = tmp_path / "cm.yaml"
    path.write_text("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['lint', '--no-cache', sys.argv[1]])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'click' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, env=checkout_env())
    assert proc.stdout.strip().endswith("exit 0 False"), proc.stdout + proc.stderr


@pytest.mark.parametrize("extra, said", [
    (["--check"], "--check compares against files on disk"),
    (["--set", "spec.nope"], "Invalid value for"),
    (["-o", "{file}"], "is a file"),
])
def test_a_compile_usage_problem_is_reported_by_click(tmp_path, extra, said):
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "pytorch-module-910b-8.yaml").read_text())
    args = [a.format(file=spec) for a in extra]
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "compile", str(spec), *args],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 2 and "Usage: ascend-compile compile" in proc.stderr and said in proc.stderr, proc.stderr
    assert proc.stdout == ""


def test_compile_check_does_not_load_click(tmp_path):
    spec = tmp_path / "spec.yaml"
    spec.write_text((EXAMPLES / "pytorch-module-910b-8.yaml").read_text())
    code = ("import sys; from ascend_compile.cli import main\n"
            "try:\n    main(['compile', sys.argv[1], '-o', sys.argv[2], '--check'])\nexcept SystemExit as exc:\n"
            "    print('exit', exc.code, 'click' in sys.modules)\n")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "ascend_compile", "compile", str(spec), "-o", str(out)],
                          capture_output=True, text=True, env=checkout_env())
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run([sys.executable, "-c", code, str(spec), str(out)], capture_output=True, text=True,
                          env=checkout_env())
    assert proc.stdout.strip().endswith("exit 0 False"), proc.stdout + proc.stderr
