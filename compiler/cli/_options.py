"""Options and plumbing shared by the commands: config, profiles, size limit, reporting."""
from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, TextIO

import click

from ..findings import Finding


@dataclass
class RunContext:
    config: Any
    registry: Any
    max_bytes: int
    fmt: str


def _arguments_optional(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    """``--show-config`` runs without the command's other arguments: it reports and exits."""
    if value:
        for param in ctx.command.params:
            if isinstance(param, click.Argument) and param.required:
                param.required = False
                ctx.call_on_close(functools.partial(setattr, param, "required", True))  # for later runs in-process
    return value


def common_input_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--config, --no-config, --profile-dir, --max-bytes, --format, -v/--verbose, --show-config."""
    from ..yamlio import DEFAULT_MAX_BYTES

    @functools.wraps(func)
    def command(*args: Any, **options: Any) -> Any:
        if options.get("show_config"):
            show_config(options)
            sys.exit(0)
        return func(*args, **options)

    decorators = [
        click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
                     help="Project config file (default: .ascend-compile.yaml found upward from here to the "
                          "repository root)."),
        click.option("--no-config", is_flag=True, help="Ignore any project config file."),
        click.option("--profile-dir", "profile_dirs", multiple=True, type=click.Path(file_okay=False),
                     help="Extra directory of hardware profiles (repeatable; later ones win)."),
        click.option("--max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES, show_default=True,
                     help="Refuse input files larger than this."),
        click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
                     show_default=True, help="How to report problems."),
        click.option("-v", "--verbose", is_flag=True,
                     help="Say on stderr which project config and profile directories are used."),
        click.option("--show-config", is_flag=True, is_eager=True, callback=_arguments_optional,
                     help="Print the project config and profile directories this command would use, and exit."),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def load_context(options: Dict[str, Any]) -> RunContext:
    """Load config and profiles for a command; input errors exit with code 2."""
    from ..config import ProjectConfig, load_config
    from ..errors import AscendCompileError
    from ..profiles import ProfileRegistry

    fmt = str(options.get("fmt") or "text")
    try:
        config = ProjectConfig() if options.get("no_config") else load_config(options.get("config_path"))
        registry = ProfileRegistry([*config.profile_dirs, *(options.get("profile_dirs") or ())])
        if options.get("verbose"):
            for line in describe(config, options):
                click.echo(f"ascend-compile: {line}", err=True)
        registry.check()  # a bad profile directory is one error now, not one per use later
    except AscendCompileError as exc:
        report_and_exit(exc.findings, RunContext(None, None, 0, fmt), stream=sys.stderr)
        raise  # unreachable
    return RunContext(config, registry, int(options.get("max_bytes") or 0), fmt)


def describe(config: Any, options: Dict[str, Any]) -> List[str]:
    """Which project config is used and why, and the profile directories in the order they apply."""
    from ..config import search_config
    from ..resources import profiles_dir
    from ..safetext import printable

    if options.get("no_config"):
        where = "no project config (--no-config)"
    elif options.get("config_path"):
        where = f"project config {config.path} (--config)"
    else:
        found = search_config()
        stop = f"the repository root {found.root}" if found.root else "this directory (no repository root found)"
        where = (f"project config {found.path}" if found.path else "no project config") + \
            f" (searched from {found.searched[0]} up to {stop})"
    dirs = [f"{profiles_dir()} (built-in)", *(f"{d} (profileDirs)" for d in config.profile_dirs),
            *(f"{d} (--profile-dir)" for d in options.get("profile_dirs") or ())]
    return [printable(where), "profile directories: " + printable(", ".join(dirs))]


def show_config(options: Dict[str, Any]) -> None:
    """``--show-config``: the config and profile directories on stdout, then the settings they give."""
    import json

    ctx = load_context({**options, "verbose": False})
    lines = describe(ctx.config, options)
    click.echo(lines[0])
    click.echo(lines[1])
    config = ctx.config
    settings = {"defaults": dict(config.defaults), "lint": {"disable": list(config.lint.disable),
                                                            "severity": dict(config.lint.severity),
                                                            "failOn": config.lint.fail_on}}
    click.echo("settings: " + json.dumps(settings, sort_keys=True))


def report(findings: Iterable[Finding], ctx: RunContext, stream: Optional[TextIO] = None) -> None:
    from ..report import render

    from ..report import catalogue_rules

    rules = catalogue_rules() if ctx.fmt == "sarif" else None
    render(sorted(findings, key=Finding.sort_key), ctx.fmt, rules=rules, stream=stream or sys.stdout)


def report_and_exit(findings: Iterable[Finding], ctx: RunContext, stream: Optional[TextIO] = None) -> None:
    from ..findings import exit_code

    findings = list(findings)
    report(findings, ctx, stream)
    sys.exit(exit_code(findings) or 1)
