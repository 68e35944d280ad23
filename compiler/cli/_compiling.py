"""What ``compile`` does once its command line is read: no click here.

The click command (:mod:`.compile`) and the fast path (:mod:`._fast`) both call :func:`compile_specs`, so
the ``compile --check`` pre-commit hook runs without loading click; the cluster commands compile their SPEC
arguments with :func:`compile_or_exit`, the same steps.  A usage problem raises
:class:`~._plain.Usage` (or :class:`BadParameter`, about one value) before anything is written or printed:
click reports it (the fast path hands such a command line to click).
"""
from __future__ import annotations

import sys
from typing import Any, List, Mapping, Optional, Sequence

from ._plain import Usage, cluster_inventory, run_target


class BadParameter(Usage):
    """One parameter's value is wrong (a ``--set``): ``hint`` names it as click's message would."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def compile_specs(specs: Sequence[str], options: Mapping[str, Any], live_inventory: Any = None) -> int:
    """Run ``compile`` with its parsed options (the click parameter names; ``live_inventory``: the cluster
    ``--cluster`` read, :func:`ascend_compile.cli._cluster.read_live_inventory`); return the exit code."""
    from ..errors import AscendCompileError
    from ..findings import EXIT_INPUT
    from ..compiling.writer import render_jobs, write_outputs
    from ._context import load_context, nothing_found, report_and_exit

    output_dir, check = options.get("output_dir"), bool(options.get("check"))
    if check and not output_dir:
        raise Usage("--check compares against files on disk: give --output-dir too")
    overrides = _parse_overrides(options.get("overrides") or ())
    ctx = load_context(options)
    left_out: List[Any] = []
    try:
        inventory = cluster_inventory(options, live_inventory)
    except AscendCompileError as exc:  # a snapshot that cannot be read (AC016)
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        return EXIT_INPUT
    jobs = compile_or_exit(specs, ctx, overrides, lint=not options.get("no_lint"), left_out=left_out,
                           fail_on=options.get("fail_on"), inventory=inventory,
                           target=run_target(options, ctx.config, inventory))
    if not jobs:
        return nothing_found("compile", "job specs (kind: TrainingJob)", left_out)
    if output_dir is None:
        sys.stdout.write(render_jobs(jobs))
        return 0
    try:
        if check:
            return _check(jobs, output_dir, ctx)
        written = write_outputs(jobs, output_dir)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        return EXIT_INPUT
    for path in written:
        sys.stderr.write(f"wrote {path}\n")
    return 0


def compile_or_exit(specs: Sequence[str], ctx: Any, overrides: Sequence[Any] = (), *, lint: bool = True,
                    left_out: Optional[List[Any]] = None, fail_on: Optional[str] = None,
                    inventory: Any = None, target: Any = None) -> List[Any]:
    """Read the specs and compile them (:func:`ascend_compile.compiling.pipeline.compile_specs`), every ``--set`` applied
    to every spec: what ``compile``, ``apply``, ``diff`` and the commands that take a SPEC run.

    A problem is reported on stderr and exits (1 a spec or its output refused, 2 unreadable input; findings
    about a --set name it); the output's warnings go to stderr.  ``left_out`` receives the notes of what
    discovery left out on purpose.  ``fail_on`` (``compile --fail-on``; default the config's ``lint.failOn``, else
    error) is the lowest severity of an output finding that refuses its spec; ``inventory`` checks the output against
    the cluster too (``--cluster-snapshot``, ``--cluster``); ``target`` is the release it is judged for.
    """
    from ..compiling import overrides as setting
    from ..files.discovery import read_documents
    from ..errors import AscendCompileError
    from ..jobspec.model import is_spec
    from ..compiling.pipeline import compile_specs as compile_documents
    from ._context import report, report_and_exit

    files = None
    try:
        docs = read_documents(list(specs), ctx.max_bytes, left_out)
        files = len({doc.source for doc in docs})
        docs = [setting.apply(doc, overrides) if is_spec(doc.data) else doc for doc in docs]
        jobs = compile_documents(docs, ctx.registry, ctx.config, lint=lint, fail_on=fail_on, inventory=inventory,
                                 target=target)
    except setting.OverrideError as exc:
        raise _bad(exc) from None
    except AscendCompileError as exc:
        report_and_exit(setting.blame(exc.findings, overrides), ctx, stream=sys.stderr, files_checked=files)
        raise
    warnings = [finding for job in jobs for finding in job.warnings]
    if warnings:
        report(warnings, ctx, stream=sys.stderr, files_checked=files)
    return jobs


def _parse_overrides(arguments: Sequence[str]) -> List[Any]:
    from ..compiling import overrides

    try:
        return [overrides.parse(argument) for argument in arguments]
    except overrides.OverrideError as exc:
        raise _bad(exc) from None


def _bad(exc: Exception) -> BadParameter:
    hint, _, message = str(exc).partition(": ")
    return BadParameter(message, hint)


def _check(jobs: List[Any], output_dir: str, ctx: Any) -> int:
    """``--check``: the diff (or one JSON document) on stdout, a summary on stderr; 1 unless up to date."""
    from ..safeio.text import printable
    from ..compiling.stale import check_outputs

    report = check_outputs(jobs, output_dir, ctx.max_bytes)
    if ctx.fmt == "json":
        import json

        sys.stdout.write(json.dumps(report.as_dict(), indent=2) + "\n")
    else:
        for diff in report.diffs:
            sys.stdout.write(diff)
    if report.up_to_date:
        return 0
    parts = [f"{len(report.stale)} stale" if report.stale else "", f"{len(report.missing)} missing"
             if report.missing else "", f"{len(report.orphans)} orphan" if report.orphans else ""]
    sys.stdout.flush()
    say = sys.stderr.write
    say(f"{output_dir} is not what compile would write: {', '.join(p for p in parts if p)} file(s)\n")
    for path in report.orphans:
        say(f"orphan: {printable(path)} was generated by ascend-compile, but no spec produces it any more; "
            f"delete it (or restore its spec)\n")
    if report.stale or report.missing:
        say(f"run ascend-compile compile without --check to update {'the others' if report.orphans else 'them'}\n")
    return 1
