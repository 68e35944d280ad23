"""Options and plumbing shared by the commands: config, profiles, size limit, reporting."""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, Optional, TextIO

import click

from ..findings import Finding


@dataclass
class RunContext:
    config: Any
    registry: Any
    max_bytes: int
    fmt: str


def common_input_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--config, --no-config, --profile-dir, --max-bytes, --format."""
    from ..yamlio import DEFAULT_MAX_BYTES

    decorators = [
        click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None,
                     help="Project config file (default: .ascend-compile.yaml found upward from here)."),
        click.option("--no-config", is_flag=True, help="Ignore any project config file."),
        click.option("--profile-dir", "profile_dirs", multiple=True, type=click.Path(file_okay=False),
                     help="Extra directory of hardware profiles (repeatable; later ones win)."),
        click.option("--max-bytes", type=click.IntRange(min=1), default=DEFAULT_MAX_BYTES, show_default=True,
                     help="Refuse input files larger than this."),
        click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
                     show_default=True, help="How to report problems."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def load_context(options: Dict[str, Any]) -> RunContext:
    """Load config and profiles for a command; input errors exit with code 2."""
    from ..config import ProjectConfig, load_config
    from ..errors import AscendCompileError
    from ..profiles import ProfileRegistry

    fmt = str(options.get("fmt") or "text")
    try:
        config = ProjectConfig() if options.get("no_config") else load_config(options.get("config_path"))
        registry = ProfileRegistry([*config.profile_dirs, *(options.get("profile_dirs") or ())])
        registry.check()  # a bad profile directory is one error now, not one per use later
    except AscendCompileError as exc:
        report_and_exit(exc.findings, RunContext(None, None, 0, fmt), stream=sys.stderr)
        raise  # unreachable
    return RunContext(config, registry, int(options.get("max_bytes") or 0), fmt)


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
