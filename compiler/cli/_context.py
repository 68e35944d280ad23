"""What the commands share without click: the run's config and profiles, and reporting.

The click commands and the fast path of ``lint`` and ``validate`` (:mod:`._fast`) both use these, so
the fast path never loads click.
"""
from __future__ import annotations

import sys
from typing import Any, Iterable, List, Mapping, Optional, TextIO

from ..findings import Finding


class RunContext:
    """The project config, the profile registry, the size limit and the report format of one command."""

    __slots__ = ("config", "registry", "max_bytes", "fmt")

    def __init__(self, config: Any, registry: Any, max_bytes: int, fmt: str):
        self.config = config
        self.registry = registry
        self.max_bytes = max_bytes
        self.fmt = fmt


def load_context(options: Mapping[str, Any]) -> RunContext:
    """Load config and profiles for a command; input errors exit with code 2."""
    from ..config import ProjectConfig, load_config
    from ..errors import AscendCompileError
    from ..hardware.profiles import ProfileRegistry

    fmt = str(options.get("fmt") or "text")
    try:
        config = ProjectConfig() if options.get("no_config") else load_config(options.get("config_path"))
        registry = ProfileRegistry([*config.profile_dirs, *(options.get("profile_dirs") or ())])
        if options.get("verbose"):
            for line in describe(config, options):
                sys.stderr.write(f"ascend-compile: {line}\n")
        registry.check()  # a bad profile directory is one error now, not one per use later
    except AscendCompileError as exc:
        report_and_exit(exc.findings, RunContext(None, None, 0, fmt), stream=sys.stderr)
        raise  # unreachable
    return RunContext(config, registry, int(options.get("max_bytes") or 0), fmt)


def describe(config: Any, options: Mapping[str, Any]) -> List[str]:
    """Which project config is used and why, and the profile directories in the order they apply."""
    from ..config import search_config
    from ..resources import profiles_dir
    from ..safeio.text import printable

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


def report(findings: Iterable[Finding], ctx: RunContext, stream: Optional[TextIO] = None,
           files_checked: Optional[int] = None) -> None:
    from ..report import render

    from ..report import catalogue_rules

    rules = catalogue_rules() if ctx.fmt == "sarif" else None
    render(sorted(findings, key=Finding.sort_key), ctx.fmt, rules=rules, stream=stream or sys.stdout,
           files_checked=files_checked)


def report_and_exit(findings: Iterable[Finding], ctx: RunContext, stream: Optional[TextIO] = None,
                    files_checked: Optional[int] = None) -> None:
    from ..findings import exit_code

    findings = list(findings)
    report(findings, ctx, stream, files_checked)
    sys.exit(exit_code(findings) or 1)


def nothing_found(command: str, what: str, left_out: Iterable[Finding]) -> int:
    """Say on stderr that the paths held no ``what``, and name what discovery left out on purpose (a Helm chart,
    kustomize's files: their notes' text); the exit code of an input error."""
    from ..findings import EXIT_INPUT
    from ..safeio.text import printable

    notes = [f"  {printable(note.file)}: {printable(note.message)} [{note.rule}]\n" for note in left_out]
    said = "; left out on purpose:" if notes else ""
    sys.stderr.write(f"ascend-compile {command}: no {what} in the given paths{said}\n" + "".join(notes))
    return EXIT_INPUT
