"""``ascend-compile list``: the jobs ascend-compile applied, across namespaces (named so as not to shadow ``list``).

A job is ours when the field manager ``ascend-compile`` wrote it (``apply`` and ``Cluster.create``
do); ``--all`` lists every AscendJob and Volcano Job.  The listing is
:func:`ascend_compile.kube.lifecycle.list_jobs`, shared with ``Cluster.list`` in Python.
"""
from __future__ import annotations

import json
from typing import Any, List

import click

from ._cluster import EXIT_CODES_EPILOG, handle_kubectl_errors, make_kubectl
from ._jobarg import output_option
from ._options import table_options
from ._settings import KubectlFlags, options_for


@click.command(
    "list",
    epilog="""\b
Examples:
  ascend-compile list                        # every namespace
  ascend-compile list -n training -l framework=pytorch
  ascend-compile list --all --format json

\b
Output (text):
  NAMESPACE  NAME              KIND       STATE    STARTED               COMPLETED
  training   resnet50-pytorch  AscendJob  Running  2026-11-30T08:00:00Z  -""" + EXIT_CODES_EPILOG,
)
@click.option("-l", "--selector", default="", metavar="SELECTOR",
              help="Only jobs with these labels (kubectl's syntax).")
@click.option("--all", "everyone", is_flag=True, help="Every job, not only those ascend-compile applied.")
@output_option
@table_options("list")
@handle_kubectl_errors
def list_command(selector: str, everyone: bool, output: str, **params: Any) -> None:
    """List the jobs ascend-compile applied, with their state and times.

    All namespaces unless -n/--namespace names one.  Exit 0 (an empty list too).
    """
    from ..kube.kubectl import KubectlUsageError
    from ..kube.lifecycle import list_jobs
    from ..kube.reading import KubectlReader

    if selector.startswith("-") or any(ord(ch) < 32 for ch in selector):
        raise KubectlUsageError(f"--selector {selector!r}: not a label selector")
    flags = options_for(KubectlFlags, params)
    kubectl = make_kubectl(flags)
    namespace = flags.namespace
    states = list_jobs(KubectlReader(kubectl), namespace, selector, everyone)
    if output == "json":
        click.echo(json.dumps([s.as_dict() for s in states], indent=2, sort_keys=True))
        return
    _table(states)


def _table(states: List[Any]) -> None:
    from ..safeio.text import printable

    rows = [("NAMESPACE", "NAME", "KIND", "STATE", "STARTED", "COMPLETED")]
    rows += [(s.namespace or "", s.name, s.kind, s.state, s.start_time or "-", s.completion_time or "-")
             for s in states]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo(printable("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()))
