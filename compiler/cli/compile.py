"""``ascend-compile compile``: specs in, manifests out (stdout, a directory, or a staleness check)."""
from __future__ import annotations

import sys
from typing import Any, List, Optional, Tuple

import click

from ..safetext import printable
from ._options import common_input_options, load_context, report, report_and_exit


@click.command(
    "compile",
    epilog="""\b
Examples:
  ascend-compile compile examples/pytorch-module-910b-8.yaml
  ascend-compile compile specs/ -o manifests/
  ascend-compile compile specs/*.yaml -o manifests/ --check   # exit 1 if manifests/ is stale
  ascend-compile compile specs/ --set spec.image=registry.example.com/train:2.1 --set spec.queue=release
  cat job.yaml | ascend-compile compile - | kubectl apply -f -""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("-o", "--output-dir", type=click.Path(file_okay=False), default=None,
              help="Write one file per job (<name>.yaml) into this directory instead of stdout.")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 and print a diff if the files in --output-dir are not what compile would "
                   "write, or if it holds a generated file no spec produces any more (an orphan). With --format "
                   "json: one JSON document (upToDate, stale, missing, orphans, diff).")
@click.option("--set", "overrides", multiple=True, metavar="PATH=VALUE",
              help="Set a field of every spec before compiling (repeatable), e.g. spec.image=repo/train:2.1; "
                   "VALUE is read as YAML (quote it for a string: 'spec.env.V=\"1.0\"'). Checked like the spec.")
@click.option("--no-lint", is_flag=True,
              help="Do not lint the compiled output (by default its warnings are printed to stderr, and an error "
                   "refuses the spec as a compile error would).")
@common_input_options
def compile_command(specs: Tuple[str, ...], output_dir: Optional[str], check: bool, overrides: Tuple[str, ...],
                    no_lint: bool, **options: object) -> None:
    """Compile job specs (kind: TrainingJob) into AscendJob / Volcano Job / ConfigMap YAML.

    SPEC is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    Output order per job: Namespace (if asked), ranktable ConfigMap, reset ConfigMap, job.
    Nothing is written unless every spec compiles. The output is linted: its warnings are
    printed to stderr, and a lint error refuses it like a compile error (--no-lint skips this).
    """
    from ..errors import AscendCompileError
    from ..findings import EXIT_INPUT
    from ..writer import render_jobs, write_outputs

    ctx = load_context(options)
    if check and not output_dir:
        raise click.UsageError("--check compares against files on disk: give --output-dir too")
    jobs, files = _compile(specs, overrides, ctx)
    if not jobs:
        click.echo("ascend-compile compile: no job specs (kind: TrainingJob) in the given paths", err=True)
        sys.exit(EXIT_INPUT)
    if not no_lint:
        _lint_output(jobs, ctx, files)
    if output_dir is None:
        sys.stdout.write(render_jobs(jobs))
        return
    try:
        if check:
            _check(jobs, output_dir, ctx)
            return
        written = write_outputs(jobs, output_dir)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        sys.exit(EXIT_INPUT)
    for path in written:
        click.echo(f"wrote {path}", err=True)


def _compile(specs: Tuple[str, ...], arguments: Tuple[str, ...], ctx: Any) -> Tuple[List[Any], int]:
    """The compiled jobs and the number of files read, with every --set applied to every spec (findings about
    a --set name it)."""
    from .. import api, overrides
    from ..errors import AscendCompileError
    from ..jobspec import is_spec
    from ..pipeline import compile_specs

    try:
        parsed = [overrides.parse(argument) for argument in arguments]
    except overrides.OverrideError as exc:
        raise click.BadParameter(str(exc).partition(": ")[2], param_hint=str(exc).partition(": ")[0]) from None
    files = None
    try:
        docs = api.read_documents(list(specs), ctx.max_bytes)
        files = len({doc.source for doc in docs})
        docs = [overrides.apply(doc, parsed) if is_spec(doc.data) else doc for doc in docs]
        return compile_specs(docs, ctx.registry, ctx.config), files
    except overrides.OverrideError as exc:
        raise click.BadParameter(str(exc).partition(": ")[2], param_hint=str(exc).partition(": ")[0]) from None
    except AscendCompileError as exc:
        report_and_exit(overrides.blame(exc.findings, parsed), ctx, stream=sys.stderr, files_checked=files)
        raise


def _lint_output(jobs: List[Any], ctx: Any, files: int) -> None:
    """Lint the compiled objects: warnings go to stderr, an error refuses the output (nothing written)."""
    from ..findings import ERROR
    from ..pipeline import lint_output

    findings = lint_output(jobs, ctx.registry, ctx.config)
    if any(f.severity == ERROR for f in findings):
        report_and_exit(findings, ctx, stream=sys.stderr, files_checked=files)
    if findings:
        report(findings, ctx, stream=sys.stderr, files_checked=files)


def _check(jobs: List[Any], output_dir: str, ctx: Any) -> None:
    """``--check``: the diff (or one JSON document) on stdout, a summary on stderr, exit 1 unless up to date."""
    import json

    from ..stale import check_outputs

    report = check_outputs(jobs, output_dir, ctx.max_bytes)
    if ctx.fmt == "json":
        sys.stdout.write(json.dumps(report.as_dict(), indent=2) + "\n")
    else:
        for diff in report.diffs:
            sys.stdout.write(diff)
    if report.up_to_date:
        return
    parts = [f"{len(report.stale)} stale" if report.stale else "", f"{len(report.missing)} missing"
             if report.missing else "", f"{len(report.orphans)} orphan" if report.orphans else ""]
    click.echo(f"{output_dir} is not what compile would write: {', '.join(p for p in parts if p)} file(s)", err=True)
    for path in report.orphans:
        click.echo(f"orphan: {printable(path)} was generated by ascend-compile, but no spec produces it any more; "
                   f"delete it (or restore its spec)", err=True)
    click.echo("run ascend-compile compile without --check to update the others", err=True)
    sys.exit(1)
