"""``ascend-compile lint``: schema checks plus the operator's and scheduler's rules, in one run."""
from __future__ import annotations

import sys
from typing import Any, Tuple

import click

from ._options import table_options


@click.command(
    "lint",
    epilog="""\b
Examples:
  ascend-compile lint manifests/
  ascend-compile lint train.yaml rings-config.yaml --fail-on warning
  ascend-compile lint manifests/ --format sarif > lint.sarif
  ascend-compile lint k8s/ --exclude 'charts/**' --disable AC305
  kustomize build overlays/prod | ascend-compile lint -
  ascend-compile lint k8s/ --write-baseline .ascend-compile-baseline.json   # accept today's findings
  ascend-compile lint k8s/ --baseline .ascend-compile-baseline.json         # CI: fail on new ones only
  ascend-compile lint k8s/ --diff      # what --fix would change (e.g. env values quoted as strings)
  ascend-compile lint k8s/ --cluster-snapshot cluster.yaml   # and against the cluster (cluster snapshot)
  ascend-compile lint manifests/ --cache   # in CI (CI=true) too: keep that cache per branch (docs/ci.md)

\b
Suppress a finding on one line (or on the next line, from a comment line):
  accelerator-type: module   # ascend-compile: disable=AC305 old Atlas 800 pool
For the whole file:   # ascend-compile: disable-file=AC303
For one object (reason required):
  metadata.annotations: {ascend-compile.io/ignore: "AC303: benchmark uses 4 NPUs"}

\b
Exit codes: 0 clean, 1 findings at or above --fail-on, 2 unreadable input or usage error.
List the rules with 'ascend-compile rules'; explain one with 'ascend-compile explain AC301'.""",
)
@click.argument("paths", nargs=-1, required=True, metavar="PATH...")
@table_options("lint")
def lint_command(paths: Tuple[str, ...], **options: Any) -> None:
    """Lint Kubernetes manifests: AscendJob, Volcano Job, their ranktable ConfigMaps, and more.

    PATH is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    All files are checked together, so a Volcano Job and its rings-config
    ConfigMap in different files are matched. Schema checks (AC1xx) run as
    part of lint.
    """
    from ._plain import Usage, lint

    live_inventory = None
    if options["cluster"] and not options["cluster_snapshot"]:  # both: lint's usage error, before any read
        from ._cluster import read_live_inventory

        live_inventory = read_live_inventory(options)
    try:
        code = lint(paths, options, live_inventory)
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(code)
