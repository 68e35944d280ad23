"""``ascend-compile why JOB``: why a job is Pending, Failed or Restarting, real cause first.

Reads the job, its PodGroup and queue, its pods, their events, the nodes and the failed containers'
logs (read-only) through kubectl; the diagnosis is :mod:`ascend_compile.kube.why`'s, shared with
``Cluster.why`` in Python.  Everything read from the cluster is printed with control characters escaped.
"""
from __future__ import annotations

import json
from typing import Any

import click

from ._cluster import EXIT_CODES_EPILOG, handle_kubectl_errors, make_kubectl
from ._jobarg import job_argument, output_option, read_job
from ._options import table_options
from ._settings import WhyOptions, options_for


@click.command(
    "why",
    epilog="""\b
Examples:
  ascend-compile why resnet50-pytorch -n training
  ascend-compile why job.yaml
  ascend-compile why resnet50-pytorch -n training --format json

\b
Output (text): the job's state, then 'why:' and the real cause, then what it rests on:
  AscendJob training/big: Created (PodGroupNotInitialized): ...
  why: the job needs 5 pods running together (minAvailable 5) but has only 2: ...
  PodGroup ..., Queue ..., Nodes: ..., Pods ..., Events ..., Log of ...""" + EXIT_CODES_EPILOG,
)
@job_argument
@click.option("--log-lines", type=click.IntRange(min=0), default=10, show_default=True,
              help="Lines of each failed container's log to show (0: none).")
@click.option("--no-lint", is_flag=True, help="Do not lint the job as stored to name the rule that predicts a cause.")
@output_option
@table_options("why")
@handle_kubectl_errors
def why_command(target: str, **params: Any) -> None:
    """Explain why a job is in the state it is in (Pending, Failed, Restarting...).

    Looks at the job's conditions, its PodGroup (phase, the scheduler's
    Unschedulable reasons), its Volcano queue, the nodes its pods select
    (labels and free NPUs: the nearest miss), its pods (container waiting
    reasons), recent events and the last lines of failed containers' logs,
    and says the real cause first.  Read-only.  Exit 0 when the job was
    found and explained, 1 when there is no such job, 2 for usage errors.
    """
    from ..kube.why import explain
    from ..safeio.text import printable
    from ._session import open_for

    options = options_for(WhyOptions, params)
    # the team's config and profiles: the stored job is linted as lint would lint it (a SPEC compiled as compile would)
    session = None if options.no_lint else open_for(options.inputs)
    kubectl = make_kubectl(options.kubectl)
    reader, job = read_job(kubectl, target, options.kind, options.kubectl, session)
    why = explain(reader, job, lint=not options.no_lint, log_lines=options.log_lines, session=session)
    if options.output == "json":
        click.echo(json.dumps(why.as_dict(), indent=2, sort_keys=True))
        return
    for line in why.lines():
        click.echo(printable(line))
