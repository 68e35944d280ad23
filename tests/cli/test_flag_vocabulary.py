"""One flag vocabulary (issue 36 item 5, in part): a walk over every command's click options checks that a
flag means one thing everywhere, and the journey "lint's AC106 hint names --strict-kinds" works with lint.

validate reads the project config's lint.disable (and takes --config/--no-config).  Not yet covered (a known
gap, see issue 36): --fail-on exists only on lint."""
from __future__ import annotations

from pathlib import Path
from typing import Dict, List

import click

from tests.checkout import run_cli


def _commands() -> Dict[str, click.Command]:
    from ascend_compile.cli._group import cli

    ctx = click.Context(cli)
    return {name: cli.get_command(ctx, name) for name in cli.list_commands(ctx)}


def _visible(command: click.Command) -> List[click.Option]:
    return [p for p in command.params if isinstance(p, click.Option) and not p.hidden]


def test_every_command_is_walked() -> None:
    names = set(_commands())
    assert {"lint", "validate", "compile", "import", "status", "why", "wait", "apply", "diff", "delete"} <= names


def test_dash_o_is_an_output_folder_wherever_it_is_shown() -> None:
    for name, command in _commands().items():
        for option in _visible(command):
            if "-o" in option.opts:
                assert "--output-dir" in option.opts, (name, option.opts)


def test_the_output_format_is_spelled_format_wherever_it_is_shown() -> None:
    for name, command in _commands().items():
        for option in _visible(command):
            if option.name in ("fmt", "output") and option.type and isinstance(option.type, click.Choice) \
                    and "json" in option.type.choices:
                assert option.opts == ["--format"], (name, option.opts)


def test_schema_strictness_flags_are_the_same_on_lint_and_validate() -> None:
    commands = _commands()
    for name, command in commands.items():
        flags = {flag for option in _visible(command) for flag in option.opts + option.secondary_opts}
        if "--strict" in flags:  # a command that checks schemas takes both strictness flags
            assert "--strict-kinds" in flags, name
    assert {"lint", "validate"} <= {name for name, c in commands.items()
                                     if any("--strict-kinds" in o.opts for o in _visible(c))}


def test_lint_takes_the_flag_its_unknown_kind_hint_names(tmp_path: Path) -> None:
    manifest = tmp_path / "rollout.yaml"
    manifest.write_text("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n", encoding="utf-8")
    plain = run_cli("lint", "--no-cache", "--fail-on", "info", "--format", "json", str(manifest))
    assert "--strict-kinds makes this an error" in plain.stdout
    strict = run_cli("lint", "--no-cache", "--strict-kinds", str(manifest))
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert "error: no built-in schema for argoproj.io/v1alpha1 Rollout" in strict.stdout
    assert "[AC106]" in strict.stdout
    # through click too (a flag the fast path does not read sends the line to click)
    slow = run_cli("lint", "--no-cache", "--strict-kinds", "-v", str(manifest))
    assert slow.returncode == 1 and "[AC106]" in slow.stdout, slow.stdout + slow.stderr


def test_validate_reads_the_project_configs_lint_disable(tmp_path: Path) -> None:
    (tmp_path / ".ascend-compile-root").write_text("", encoding="utf-8")
    manifest = tmp_path / "rollout.yaml"
    manifest.write_text("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata:\n  name: web\n", encoding="utf-8")
    assert "[AC106]" in run_cli("validate", "rollout.yaml", cwd=tmp_path).stdout
    (tmp_path / ".ascend-compile.yaml").write_text("lint:\n  disable: [AC106]\n", encoding="utf-8")
    quiet = run_cli("validate", "rollout.yaml", cwd=tmp_path)
    assert quiet.returncode == 0 and "AC106" not in quiet.stdout, quiet.stdout + quiet.stderr
    assert "[AC106]" in run_cli("validate", "--no-config", "rollout.yaml", cwd=tmp_path).stdout
    other = tmp_path / "other.yaml"
    other.write_text("lint:\n  disable: [AC106]\n", encoding="utf-8")
    (tmp_path / ".ascend-compile.yaml").unlink()
    named = run_cli("validate", "--config", str(other), "rollout.yaml", cwd=tmp_path)
    assert named.returncode == 0 and "AC106" not in named.stdout, named.stdout + named.stderr
