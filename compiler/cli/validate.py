"""``ascend-compile validate``: check manifests against the built-in JSON Schemas."""
from __future__ import annotations

from typing import Any, Tuple

import click

from ._options import table_options


@click.command(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.argument("paths", nargs=-1, metavar="[PATH...|-]")
@table_options("validate")
def validate_command(paths: Tuple[str, ...], **options: Any) -> None:
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
        code = validate(paths, options)
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    raise SystemExit(code)
