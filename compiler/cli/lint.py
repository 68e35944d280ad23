"""``ascend-compile lint``: schema checks plus the operator's and scheduler's rules, in one run."""
from __future__ import annotations

import sys
from typing import Optional, Tuple

import click

from ._cluster import cluster_check_options, cluster_options
from ._options import common_input_options, fail_on_option


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
@fail_on_option()
@click.option("--disable", "disable", multiple=True, metavar="ID",
              help="Do not run this rule (ID or name; repeatable, or comma-separated). Input, config, output and spec "
                   "errors cannot be disabled.")
@click.option("--strict/--no-strict", default=True, show_default=True,
              help="Report fields the schemas do not define (typos) as errors.")
@click.option("--strict-kinds", is_flag=True,
              help="Treat an apiVersion/kind without a built-in schema as an error, not a warning (as validate).")
@click.option("--volcano-version", default=None, metavar="X.Y",
              help="The cluster's Volcano release (1.9 or 1.15; default: the cluster's with --cluster or "
                   "--cluster-snapshot when it is one of them, else the newest): the schemas Volcano objects are "
                   "checked against, and whether the policy action Ignore works there (AC408).")
@click.option("--include", "include", multiple=True, metavar="GLOB",
              help="In directories, read files matching this glob (repeatable; default *.yaml, *.yml).")
@click.option("--exclude", "exclude", multiple=True, metavar="GLOB",
              help="In directories, skip files and directories matching this glob: a name, or a path from the "
                   "directory walked or from here (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="Text format: print findings only, no summary line.")
@click.option("--no-cache", is_flag=True,
              help="Do not read or write the result cache (files whose text did not change are not checked "
                   "again; it lives in $ASCEND_COMPILE_CACHE_DIR or ~/.cache/ascend-compile and is safe to delete).")
@click.option("--write-baseline", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Record the current findings in FILE (JSON) and exit 0: adopt lint on a legacy repository.")
@click.option("--baseline", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Report only findings FILE does not record (matched by rule, file, object and field path, "
                   "not line), and say how many were baselined and how many entries are stale.")
@click.option("--fix", is_flag=True,
              help="Fix what can be fixed mechanically and safely, in place, changing only the fixed places "
                   "(env values quoted as strings, NPU limits equal to requests, the leader's rendezvous port, "
                   "ASCEND_VISIBLE_DEVICES wiring, a Volcano Job's ring-controller label); then report what is left.")
@click.option("--diff", "show_diff", is_flag=True,
              help="Print the changes --fix would make, as a diff; change nothing (also with --fix).")
@cluster_check_options
@cluster_options(namespace_help="With --cluster: read the PersistentVolumeClaims and ConfigMaps of this namespace "
                                "(and kube-system) only, not those of every namespace; jobs in other namespaces are "
                                "then not checked for missing ones (AC908, AC909). The manifests' namespaces stay as "
                                "they are.")
@common_input_options
def lint_command(paths: Tuple[str, ...], fail_on: Optional[str], disable: Tuple[str, ...], strict: bool,
                 volcano_version: Optional[str], include: Tuple[str, ...], exclude: Tuple[str, ...],
                 quiet: bool, no_cache: bool, write_baseline: Optional[str], baseline: Optional[str],
                 fix: bool, show_diff: bool, **options: object) -> None:
    """Lint Kubernetes manifests: AscendJob, Volcano Job, their ranktable ConfigMaps, and more.

    PATH is a file, a directory (searched for *.yaml / *.yml) or - for stdin.
    All files are checked together, so a Volcano Job and its rings-config
    ConfigMap in different files are matched. Schema checks (AC1xx) run as
    part of lint.
    """
    from ._plain import Usage, lint

    if options.get("cluster") and not options.get("cluster_snapshot"):  # both: lint's usage error, before any read
        from ._cluster import read_live_inventory

        options["live_inventory"] = read_live_inventory(options)
    try:
        code = lint(paths, {"fail_on": fail_on, "disable": disable, "strict": strict,
                            "volcano_version": volcano_version, "include": include, "exclude": exclude,
                            "quiet": quiet, "no_cache": no_cache, "write_baseline": write_baseline,
                            "baseline": baseline, "fix": fix, "show_diff": show_diff, **options})
    except Usage as exc:
        raise click.UsageError(str(exc)) from None
    sys.exit(code)
