"""``ascend-compile compile``: specs in, manifests out (stdout, a directory, or a staleness check).

:func:`run` is the command's body (no click: the fast path runs the ``compile --check`` pre-commit hook without
it); ``compile_command``, the click command, is made when the command group asks for it.  :func:`compile_or_exit`
is the compile of SPEC arguments that ``compile``, ``apply`` and ``diff`` run, in the command's session.
"""
from __future__ import annotations

import sys
from typing import Any, List, Optional, Sequence

from ..lint.session import Session
from ._session import BadParameter, Usage
from ._settings import CompileOptions

EPILOG = """\b
Examples:
  ascend-compile compile job.yaml          # e.g. the starter spec 'ascend-compile init job.yaml' writes
  ascend-compile compile specs/ -o manifests/
  ascend-compile compile specs/*.yaml -o manifests/ --check   # exit 1 if manifests/ is stale
  ascend-compile compile specs/ --set spec.image=registry.example.com/train:2.1 --set spec.queue=release
  ascend-compile compile job.yaml --cluster   # refused if the cluster would refuse or never schedule it
  cat job.yaml | ascend-compile compile - | kubectl apply -f -"""

DOC = """Compile job specs (kind: TrainingJob) into AscendJob / Volcano Job / ConfigMap YAML.

    SPEC is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    Output order per job: Namespace (if asked), ranktable ConfigMap, reset ConfigMap, job.
    Nothing is written unless every spec compiles. The output is linted: its warnings are
    printed to stderr, and a lint error (or any finding at or above --fail-on) refuses it like a
    compile error (--no-lint skips this).
    """


def __getattr__(name: str) -> Any:
    """``compile_command``: the click command, made on first use (importing this module loads no click)."""
    if name != "compile_command":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ._options import click_command

    command = globals()[name] = click_command("compile", run, "specs", "SPEC...", EPILOG, DOC)
    return command


def run(specs: Sequence[str], options: CompileOptions) -> int:
    """Run ``compile``; return the exit code."""
    from ..compiling.writer import render_jobs, write_outputs
    from ..errors import AscendCompileError
    from ..findings import EXIT_INPUT
    from ._session import nothing_found, open_for, report_and_exit

    if options.check and not options.output_dir:
        raise Usage("--check compares against files on disk: give --output-dir too")
    overrides = _parse_overrides(options.overrides)
    fmt = options.inputs.fmt
    try:
        session = open_for(options.inputs, options.judging, options.kubectl, output_lint=not options.no_lint,
                           config_snapshot=True)
    except AscendCompileError as exc:  # a snapshot that cannot be read (AC016)
        report_and_exit(exc.findings, fmt, stream=sys.stderr)
        return EXIT_INPUT
    left_out: List[Any] = []
    jobs = compile_or_exit(specs, session, fmt, overrides, left_out=left_out)
    if not jobs:
        return nothing_found("compile", "job specs (kind: TrainingJob)", left_out)
    if options.output_dir is None:
        sys.stdout.write(render_jobs(jobs))
        return 0
    try:
        if options.check:
            return _check(jobs, options.output_dir, session.max_bytes, fmt)
        written = write_outputs(jobs, options.output_dir)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, fmt, stream=sys.stderr)
        return EXIT_INPUT
    for path in written:
        sys.stderr.write(f"wrote {path}\n")
    return 0


def compile_or_exit(specs: Sequence[str], session: Session, fmt: str, overrides: Sequence[Any] = (), *,
                    left_out: Optional[List[Any]] = None) -> List[Any]:
    """Read the specs and compile them in ``session`` (:func:`ascend_compile.compiling.pipeline.compile_specs`: its
    cluster, target and fail-on level, its output lint), every ``--set`` applied to every spec: what ``compile``,
    ``apply`` and ``diff`` run.

    A problem is reported on stderr (in ``fmt``) and exits (1 a spec or its output refused, 2 unreadable input;
    findings about a --set name it); the output's warnings go to stderr.  ``left_out`` receives the notes of what
    discovery left out on purpose.
    """
    from ..compiling import overrides as setting
    from ..compiling.pipeline import compile_specs
    from ..errors import AscendCompileError
    from ..files.discovery import read_documents
    from ..jobspec.model import is_spec
    from ._session import report, report_and_exit

    files = None
    try:
        docs = read_documents(list(specs), session.max_bytes, left_out)
        files = len({doc.source for doc in docs})
        docs = [setting.apply(doc, overrides) if is_spec(doc.data) else doc for doc in docs]
        jobs = compile_specs(docs, session)
    except setting.OverrideError as exc:
        raise _bad(exc) from None
    except AscendCompileError as exc:
        report_and_exit(setting.blame(exc.findings, overrides), fmt, stream=sys.stderr, files_checked=files)
        raise
    warnings = [finding for job in jobs for finding in job.warnings]
    if warnings:
        report(warnings, fmt, stream=sys.stderr, files_checked=files)
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


def _check(jobs: List[Any], output_dir: str, max_bytes: int, fmt: str) -> int:
    """``--check``: the diff (or one JSON document) on stdout, a summary on stderr; 1 unless up to date."""
    from ..compiling.stale import check_outputs
    from ..safeio.text import printable

    report = check_outputs(jobs, output_dir, max_bytes)
    if fmt == "json":
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
