"""``ascend-compile compile``: specs in, manifests out (stdout, a directory, or a staleness check)."""
from __future__ import annotations

import sys
from typing import List, Optional, Tuple

import click

from ._options import common_input_options, load_context, report_and_exit


@click.command(
    "compile",
    epilog="""\b
Examples:
  ascend-compile compile examples/pytorch-module-910b-8.yaml
  ascend-compile compile specs/ -o manifests/
  ascend-compile compile specs/*.yaml -o manifests/ --check   # exit 1 if manifests/ is stale
  cat job.yaml | ascend-compile compile - | kubectl apply -f -""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("-o", "--output-dir", type=click.Path(file_okay=False), default=None,
              help="Write one file per job (<name>.yaml) into this directory instead of stdout.")
@click.option("--check", is_flag=True,
              help="Write nothing; exit 1 and print a diff if the files in --output-dir are not what compile would write.")
@common_input_options
def compile_command(specs: Tuple[str, ...], output_dir: Optional[str], check: bool, **options: object) -> None:
    """Compile job specs (kind: TrainingJob) into AscendJob / Volcano Job / ConfigMap YAML.

    SPEC is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    Output order per job: Namespace (if asked), ranktable ConfigMap, job.
    Nothing is written unless every spec compiles.
    """
    from .. import api
    from ..errors import AscendCompileError
    from ..findings import EXIT_INPUT
    from ..writer import check_outputs, render_jobs, write_outputs

    ctx = load_context(options)
    if check and not output_dir:
        raise click.UsageError("--check compares against files on disk: give --output-dir too")
    try:
        jobs = api.compile_paths(list(specs), config=ctx.config, registry=ctx.registry,
                                 max_bytes=ctx.max_bytes)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        return
    if not jobs:
        click.echo("ascend-compile compile: no job specs (kind: TrainingJob) in the given paths", err=True)
        sys.exit(EXIT_INPUT)
    if output_dir is None:
        sys.stdout.write(render_jobs(jobs))
        return
    try:
        if check:
            stale = check_outputs(jobs, output_dir)
            for diff in stale:
                sys.stdout.write(diff)
            if stale:
                click.echo(f"{len(stale)} generated file(s) in {output_dir} are stale; "
                           f"run ascend-compile compile without --check to update them", err=True)
                sys.exit(1)
            return
        written = write_outputs(jobs, output_dir)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        sys.exit(EXIT_INPUT)
    for path in written:
        click.echo(f"wrote {path}", err=True)
