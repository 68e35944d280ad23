"""Options and plumbing shared by the commands: config, profiles, size limit, reporting."""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Dict

import click

from ._context import describe, load_context

#: ``--fail-on``'s choices, lowest last: the severities of findings
FAIL_ON_CHOICES = ("error", "warning", "info")


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


def fail_on_option(consequence: str = "") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--fail-on``: one spelling, one choice list and one meaning on every command that reports findings
    (``lint``, ``validate``, ``compile``'s output lint, ``krm``); ``consequence`` says what else exit 1 means."""
    then = f" {consequence}" if consequence else ""
    return click.option("--fail-on", type=click.Choice(FAIL_ON_CHOICES), default=None,
                        help="Lowest severity of a finding that makes the exit code 1 (default: lint.failOn in the "
                             f"config, else error).{then}")


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
                                                            "failOn": config.lint.fail_on,
                                                            "baseline": config.lint.baseline}}
    click.echo("settings: " + json.dumps(settings, sort_keys=True))


