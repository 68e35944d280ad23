"""``ascend-compile compile``: specs in, manifests out (stdout, a directory, or a staleness check)."""
from __future__ import annotations

import sys
from typing import Any, Tuple

import click

from ._options import table_options


@click.command(
    "compile",
    epilog="""\b
Examples:
  ascend-compile compile job.yaml          # e.g. the starter spec 'ascend-compile init job.yaml' writes
  ascend-compile compile specs/ -o manifests/
  ascend-compile compile specs/*.yaml -o manifests/ --check   # exit 1 if manifests/ is stale
  ascend-compile compile specs/ --set spec.image=registry.example.com/train:2.1 --set spec.queue=release
  ascend-compile compile job.yaml --cluster   # refused if the cluster would refuse or never schedule it
  cat job.yaml | ascend-compile compile - | kubectl apply -f -""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@table_options("compile")
def compile_command(specs: Tuple[str, ...], **options: Any) -> None:
    """Compile job specs (kind: TrainingJob) into AscendJob / Volcano Job / ConfigMap YAML.

    SPEC is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    Output order per job: Namespace (if asked), ranktable ConfigMap, reset ConfigMap, job.
    Nothing is written unless every spec compiles. The output is linted: its warnings are
    printed to stderr, and a lint error (or any finding at or above --fail-on) refuses it like a
    compile error (--no-lint skips this).
    """
    from ._compiling import BadParameter, compile_specs
    from ._plain import Usage

    live_inventory = None
    if options["cluster"] and not options["cluster_snapshot"]:  # both: a usage error, before any read
        from ._cluster import read_live_inventory

        live_inventory = read_live_inventory(options)
    try:
        code = compile_specs(specs, options, live_inventory)
    except BadParameter as exc:
        raise click.BadParameter(str(exc), param_hint=exc.hint) from None
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(code)
