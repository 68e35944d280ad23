"""``ascend-compile compile``: specs in, manifests out (stdout, a directory, or a staleness check)."""
from __future__ import annotations

import sys
from typing import Optional, Tuple

import click

from ._options import common_input_options, fail_on_option


@click.command(
    "compile",
    epilog="""\b
Examples:
  ascend-compile compile job.yaml          # e.g. the starter spec 'ascend-compile init job.yaml' writes
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
@fail_on_option("Such a finding in the compiled output refuses its spec: nothing is written.")
@click.option("--no-lint", is_flag=True,
              help="Do not lint the compiled output (by default its warnings are printed to stderr, and an error "
                   "refuses the spec as a compile error would).")
@click.option("--cluster-snapshot", metavar="FILE", default=None,
              help="Also check the compiled output against this cluster snapshot (ascend-compile cluster snapshot): "
                   "a job the cluster would refuse or never schedule (rules AC901-AC910) is refused.")
@common_input_options
def compile_command(specs: Tuple[str, ...], output_dir: Optional[str], check: bool, overrides: Tuple[str, ...],
                    fail_on: Optional[str], no_lint: bool, **options: object) -> None:
    """Compile job specs (kind: TrainingJob) into AscendJob / Volcano Job / ConfigMap YAML.

    SPEC is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    Output order per job: Namespace (if asked), ranktable ConfigMap, reset ConfigMap, job.
    Nothing is written unless every spec compiles. The output is linted: its warnings are
    printed to stderr, and a lint error (or any finding at or above --fail-on) refuses it like a
    compile error (--no-lint skips this).
    """
    from ._compiling import BadParameter, compile_specs
    from ._plain import Usage

    try:
        code = compile_specs(specs, {"output_dir": output_dir, "check": check, "overrides": overrides,
                                     "fail_on": fail_on, "no_lint": no_lint, **options})
    except BadParameter as exc:
        raise click.BadParameter(str(exc), param_hint=exc.hint) from None
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(code)
