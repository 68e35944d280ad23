"""``ascend-compile events JOB``: the events of a job, its PodGroup and its pods, oldest first.

The same events ``why`` weighs (:func:`ascend_compile.kube.jobview.job_events`, as ``Cluster.events``).
"""
from __future__ import annotations

import json
from typing import Any

import click

from ._cluster import EXIT_CODES_EPILOG, handle_kubectl_errors, make_kubectl
from ._jobarg import job_argument, output_option, read_job
from ._options import table_options
from ._settings import KubectlFlags, options_for


@click.command(
    "events",
    epilog="""\b
Examples:
  ascend-compile events resnet50-pytorch -n training
  ascend-compile events job.yaml --format json

\b
Output (text), one event a line:
  2026-11-30T08:00:01Z Warning PodGroup/resnet50-pytorch-<uid> Unschedulable (x12): <the scheduler's words>""" + EXIT_CODES_EPILOG,
)
@job_argument
@output_option
@table_options("events")
@handle_kubectl_errors
def events_command(target: str, kind: str, output: str, **params: Any) -> None:
    """Show the events of a job, its PodGroup and its pods.  Exit 0 (no events too)."""
    from ..kube.jobview import gather
    from ..safeio.text import printable

    flags = options_for(KubectlFlags, params)
    kubectl = make_kubectl(flags)
    reader, job = read_job(kubectl, target, kind, flags)
    view = gather(reader, job, nodes=False)
    if output == "json":
        click.echo(json.dumps([e.as_dict() for e in view.events], indent=2, sort_keys=True))
        return
    for event in view.events:
        click.echo(printable(event.line()))
    for note in view.notes:
        click.echo(f"note: {printable(note)}", err=True)
