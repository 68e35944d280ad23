"""``ascend-compile validate``: check manifests against the built-in JSON Schemas.

:func:`run` is the command's body (no click: the fast path runs it); ``validate_command``, the click command, is
made when the command group asks for it.  The project config's ``lint.disable`` and ``lint.failOn`` hold for
validate too (its rules are lint's schema rules): they come with the session, as for every command.
"""
from __future__ import annotations

import sys
from typing import Any, List, Sequence

from ._session import Usage, color_of
from ._settings import ValidateOptions

DOC = """Check Kubernetes manifests (AscendJob, Volcano Job/PodGroup/Queue, ConfigMap,
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


def __getattr__(name: str) -> Any:
    """``validate_command``: the click command, made on first use (importing this module loads no click)."""
    if name != "validate_command":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ._options import click_command

    command = globals()[name] = click_command(
        "validate", run, "paths", "[PATH...|-]", "", DOC, required=False,
        context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
    return command


def run(paths: Sequence[str], options: ValidateOptions) -> int:
    """Run ``validate``; return the exit code."""
    if not paths:
        raise Usage("give at least one PATH (a file or directory), or - to read standard input")
    from ..files.validate import validate_paths
    from ..findings import exit_code
    from ..report import render
    from ._checking import disabled_rules, nothing_read, volcano
    from ._session import open_for

    disabled = disabled_rules(options.checks.disable)
    volcano_version = volcano(options.checks.volcano_version)
    session = open_for(options.inputs, options.judging)
    disabled += list(session.config.lint.disable)
    left_out: List[Any] = []
    checks = options.checks
    findings, files = validate_paths(paths, strict=checks.strict, strict_kinds=checks.strict_kinds,
                                     include=checks.include, exclude=checks.exclude,
                                     volcano_version=volcano_version, max_bytes=session.max_bytes,
                                     disable=disabled, left_out=left_out)
    if files == 0 and not findings and not left_out:  # nothing read: an input error, no "No problems found"
        return nothing_read("validate", files, 0, left_out)
    try:
        render(findings, options.fmt_alias or options.inputs.fmt, stream=sys.stdout, files_checked=files,
               quiet=options.checks.quiet, color=color_of(options.inputs))
        sys.stdout.flush()
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return nothing_read("validate", files, exit_code(findings, session.fail_on), left_out)
