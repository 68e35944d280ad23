"""Options and plumbing shared by the commands: config, profiles, size limit, reporting."""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Dict, Mapping

import click

from ._context import describe, load_context
from ._optiontable import DIR, FILE, FLAG, INT, MANY, SWITCH, TEXT, Option, options_of


def _arguments_optional(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    """``--show-config`` runs without the command's other arguments: it reports and exits."""
    if value:
        for param in ctx.command.params:
            if isinstance(param, click.Argument) and param.required:
                param.required = False
                ctx.call_on_close(functools.partial(setattr, param, "required", True))  # for later runs in-process
    return value


def table_options(command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """click's options of ``command``, made from the option table (:mod:`._optiontable`), in its order; with
    ``--show-config`` among them, the command reports its config and exits when it is given."""
    options = options_of(command)

    def decorate(func: Callable[..., Any]) -> Callable[..., Any]:
        if any(option.param == "show_config" for option in options):
            func = _showing_config(func)
        for option in reversed(options):
            func = _click_option(option, command)(func)
        return func

    return decorate


def _click_option(option: Option, command: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    takes = option.takes
    flags = list(option.flags)
    extra: Dict[str, Any] = {}
    if takes == FLAG:
        extra["is_flag"] = True
    elif takes == SWITCH:
        flags = ["/".join(option.flags)]
    elif takes == MANY:
        extra["multiple"] = True
    elif takes == INT:
        extra["type"] = click.IntRange(min=1)
    elif takes in (FILE, DIR):
        extra["type"] = click.Path(dir_okay=False) if takes == FILE else click.Path(file_okay=False)
        extra["multiple"] = option.default == ()
    elif takes != TEXT:
        extra["type"] = click.Choice(takes)
    if option.param == "show_config":
        extra.update(is_eager=True, callback=_arguments_optional)
    default = None if option.default == () else option.default
    return click.option(*flags, option.param, default=default, metavar=option.metavar, hidden=option.hidden,
                        show_default=option.show_default, help=option.help_for(command), **extra)


def _showing_config(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--show-config`` given: report the config and exit, before the command runs."""

    @functools.wraps(func)
    def command(*args: Any, **options: Any) -> Any:
        if options.get("show_config"):
            show_config(options)
            sys.exit(0)
        return func(*args, **options)

    return command


def show_config(options: Mapping[str, Any]) -> None:
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
                                                            "baseline": config.lint.baseline},
                "cluster": {"mindcluster": config.cluster.mindcluster,
                            "volcanoWebhook": config.cluster.volcano_webhook,
                            "deviceStack": config.cluster.device_stack}}
    click.echo("settings: " + json.dumps(settings, sort_keys=True))
    click.echo("target: " + _target_line(options, config))


def _target_line(options: Mapping[str, Any], config: Any) -> str:
    """What the command would judge the jobs for, and why (a snapshot named with --cluster-snapshot is read for its
    versions; the live cluster is not contacted: --show-config reports without running)."""
    from ..errors import AscendCompileError
    from ..safeio.text import printable
    from ._plain import Usage, cluster_inventory, run_target

    inventory = None
    if options.get("cluster_snapshot"):
        try:
            inventory = cluster_inventory({**options, "cluster": False})
        except AscendCompileError as exc:
            raise click.UsageError(exc.findings[0].message) from None
    try:
        target = run_target(options, config, inventory)
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    note = "" if options.get("cluster_snapshot") or not options.get("cluster") else \
        " (the live cluster's versions are read when the command runs)"
    return printable(target.describe() + note)


