"""``ascend-compile validate``: check manifests against the built-in JSON Schemas."""
from __future__ import annotations

import sys
from typing import Optional, Tuple

import click

from ._options import fail_on_option

FORMAT_CHOICES = ("text", "json", "sarif", "github")


def _volcano_option(ctx: click.Context, param: click.Parameter, value: Optional[str]) -> Optional[str]:
    if value is None:
        return None
    from ..schemacheck.registry import normalize_volcano_version

    try:
        return normalize_volcano_version(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("paths", nargs=-1, metavar="[PATH...|-]")
@click.option("--format", "fmt", type=click.Choice(FORMAT_CHOICES), default="text", show_default=True,
              help="Report format.")
@click.option("-f", "fmt_alias", type=click.Choice(FORMAT_CHOICES), default=None, hidden=True,
              help="The old spelling of --format.")
@click.option("--strict/--no-strict", default=True, show_default=True,
              help="Reject fields the schema does not define (--no-strict allows them).")
@click.option("--strict-kinds", is_flag=True,
              help="Treat an apiVersion/kind without a built-in schema as an error, not a warning.")
@click.option("--include", multiple=True, metavar="GLOB",
              help="File names to read when walking directories (repeatable; default *.yaml, *.yml).")
@click.option("--exclude", multiple=True, metavar="GLOB",
              help="Files or directories to skip when walking directories: a name, or a path from the directory "
                   "walked or from here (repeatable).")
@click.option("--volcano-version", callback=_volcano_option, metavar="1.9|1.15",
              help="Volcano release whose Job/PodGroup/Queue schemas to use (default 1.15).")
@click.option("--max-bytes", type=click.IntRange(min=1), default=None, metavar="N",
              help="Largest input file accepted, in bytes (default 16 MiB).")
@click.option("--quiet", "-q", is_flag=True, help="Print only the findings, no summary line.")
@fail_on_option()
@click.option("--config", "config_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Project config whose lint.disable applies (default: .ascend-compile.yaml found from here up "
                   "to the repository root).")
@click.option("--no-config", is_flag=True, help="Do not read a project config.")
@click.option("--disable", "disable", multiple=True, metavar="ID",
              help="Do not report this rule (ID or name, e.g. AC009; repeatable, or comma-separated). Input errors "
                   "(AC001-AC006) cannot be disabled.")
def validate_command(paths: Tuple[str, ...], fmt: str, fmt_alias: Optional[str], strict: bool, strict_kinds: bool,
                     include: Tuple[str, ...], exclude: Tuple[str, ...], volcano_version: Optional[str],
                     max_bytes: Optional[int], quiet: bool, config_path: Optional[str], no_config: bool,
                     disable: Tuple[str, ...], fail_on: Optional[str]) -> None:
    """Check Kubernetes manifests (AscendJob, Volcano Job/PodGroup/Queue, ConfigMap,
    Namespace) against strict JSON Schemas shipped with ascend-compile. Works offline.

    PATH may be a file, a directory (searched recursively for *.yaml and *.yml)
    or - for standard input. Multi-document files are split on ---, and each
    document is checked against the schema for its apiVersion and kind.

    \b
    Examples:
      ascend-compile validate manifests/
      ascend-compile validate job.yaml --format sarif > validate.sarif
      ascend-compile compile spec.yaml | ascend-compile validate -
      ascend-compile validate k8s/ --exclude 'k8s/legacy/**' --volcano-version 1.9

    \b
    Exit status: 0 clean, 1 findings at or above --fail-on (default: errors), 2 bad
    usage or unreadable input.
    """
    from ._plain import Usage, validate

    try:
        code = validate(paths, {"fmt": fmt, "fmt_alias": fmt_alias, "strict": strict, "strict_kinds": strict_kinds, "include": include,
                                "exclude": exclude, "volcano_version": volcano_version, "max_bytes": max_bytes,
                                "quiet": quiet, "disable": disable, "config_path": config_path,
                                "no_config": no_config, "fail_on": fail_on})
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    raise SystemExit(code)
