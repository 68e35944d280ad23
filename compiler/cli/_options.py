"""Options and plumbing shared by the commands: config, profiles, size limit, reporting."""
from __future__ import annotations

import functools
import sys
from typing import Any, Callable, Dict, Optional, Tuple

import click

from ._optiontable import DIR, FILE, FLAG, INT, MANY, SWITCH, TEXT, Option, options_of
from ._session import describe, load_profiles, with_config_snapshot
from ._settings import Inputs, Judging, options_for


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
            func = _showing_config(func, any(option.param == "cluster_snapshot" for option in options))
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


def _showing_config(func: Callable[..., Any], takes_snapshot: bool) -> Callable[..., Any]:
    """``--show-config`` given: report the config and exit, before the command runs (``takes_snapshot``: the command
    takes ``--cluster-snapshot``, so the config's ``cluster.snapshot`` is what it would read)."""

    @functools.wraps(func)
    def command(*args: Any, **params: Any) -> Any:
        inputs = options_for(Inputs, params)
        if inputs.show_config:
            show_config(inputs, options_for(Judging, params), takes_snapshot)
            sys.exit(0)
        return func(*args, **params)

    return command


def show_config(inputs: Inputs, judging: Judging, takes_snapshot: bool = False) -> None:
    """``--show-config``: the config and profile directories on stdout, then the settings they give."""
    import json
    from dataclasses import replace

    from ..podtemplates import described
    from ..safeio.text import printable

    config, _registry = load_profiles(replace(inputs, verbose=False))
    lines = describe(config, inputs)
    click.echo(lines[0])
    click.echo(lines[1])
    settings = {"defaults": dict(config.defaults), "lint": {"disable": list(config.lint.disable),
                                                            "severity": dict(config.lint.severity),
                                                            "failOn": config.lint.fail_on,
                                                            "baseline": config.lint.baseline},
                "cluster": {"mindcluster": config.cluster.mindcluster,
                            "volcanoWebhook": config.cluster.volcano_webhook,
                            "deviceStack": config.cluster.device_stack, "snapshot": config.cluster.snapshot},
                "podTemplates": described(config.pod_templates)}
    click.echo("settings: " + json.dumps(settings, sort_keys=True))
    if takes_snapshot:
        judging = with_config_snapshot(judging, config)
        if judging.cluster_snapshot:
            click.echo("cluster snapshot: " + printable(judging.cluster_snapshot) +
                       (" (cluster.snapshot)" if judging.cluster_snapshot == config.cluster.snapshot else
                        " (--cluster-snapshot)"))
    click.echo("target: " + _target_line(judging, config))


def _target_line(judging: Judging, config: Any) -> str:
    """What the command would judge the jobs for, and why (a snapshot named with --cluster-snapshot is read for its
    versions; the live cluster is not contacted: --show-config reports without running)."""
    from ..errors import AscendCompileError
    from ..safeio.text import printable
    from ._session import Usage, cluster_inventory, run_target

    inventory = None
    if judging.cluster_snapshot:
        try:
            inventory = cluster_inventory(judging)
        except AscendCompileError as exc:
            found = exc.findings[0]
            where = f"{found.file}: " if found.file else ""
            hint = f" ({found.hint})" if found.hint else ""
            raise click.UsageError(printable(f"{where}{found.message}{hint}")) from None
    try:
        target = run_target(judging, config, inventory)
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    note = "" if judging.cluster_snapshot or not judging.cluster else \
        " (the live cluster's versions are read when the command runs)"
    return printable(target.describe() + note)


def click_command(name: str, run: Callable[[Tuple[str, ...], Any], int], argument: str, metavar: str, epilog: str,
                  doc: str, *, required: bool = True, context_settings: Optional[Dict[str, Any]] = None
                  ) -> click.Command:
    """The click command ``name`` of a command whose body is ``run(arguments, options)`` (no click: the fast path
    runs it too): its arguments ``argument`` (``metavar``), the option table's options, its record of them
    (:mod:`._settings`) made once; a usage problem the body finds is click's usage error."""
    from ._session import BadParameter, Usage
    from ._settings import COMMAND_OPTIONS

    record = COMMAND_OPTIONS[name]

    def command(**params: Any) -> None:
        arguments = params.pop(argument)
        try:
            code = run(arguments, options_for(record, params))
        except BadParameter as exc:
            raise click.BadParameter(str(exc), param_hint=exc.hint) from None
        except Usage as exc:
            raise click.UsageError(str(exc)) from None
        sys.exit(code)

    command.__doc__ = doc
    made = table_options(name)(command)
    made = click.argument(argument, nargs=-1, required=required, metavar=metavar)(made)
    return click.command(name, epilog=epilog, context_settings=context_settings)(made)
