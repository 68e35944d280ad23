"""``ascend-compile logs JOB``: the log of one pod of a job, chosen by replica type and index.

The pod is picked from the shared job-state model (:func:`ascend_compile.kube.lifecycle.pick_pod`,
as ``Cluster.logs`` does); kubectl reads the log.  Control characters in the log are escaped.
"""
from __future__ import annotations

from typing import Any, Optional

import click

from ._cluster import EXIT_CODES_EPILOG, fail, handle_kubectl_errors, make_kubectl
from ._jobarg import job_argument, read_job
from ._options import table_options
from ._settings import KubectlFlags, options_for


@click.command(
    "logs",
    epilog="""\b
Examples:
  ascend-compile logs resnet50-pytorch -n training                 # the first pod (the Master)
  ascend-compile logs resnet50-pytorch -n training --replica Worker --index 1 --tail 100
  ascend-compile logs resnet50-pytorch -n training --previous     # the run before a restart""" + EXIT_CODES_EPILOG,
)
@job_argument
@click.option("--replica", metavar="TYPE", default=None,
              help="Replica type (AscendJob: Master, Scheduler, Worker, Chief...) or Volcano task name; any case.")
@click.option("--index", type=click.IntRange(min=0), default=None, help="The pod's index within its replica type.")
@click.option("-c", "--container", default=None, metavar="NAME", help="Container (default: the pod's first).")
@click.option("--tail", type=click.IntRange(min=0), default=0, show_default=True, help="Last lines only (0: all).")
@click.option("-p", "--previous", is_flag=True, help="The log of the previous run (after a restart in place).")
@table_options("logs")
@handle_kubectl_errors
def logs_command(target: str, kind: str, replica: Optional[str], index: Optional[int], container: Optional[str],
                 tail: int, previous: bool, **params: Any) -> None:
    """Show the log of one pod of a job (the first one unless --replica/--index say which)."""
    from ..kube.jobview import gather
    from ..kube.lifecycle import container_of, pick_pod
    from ..safeio.text import printable_lines

    flags = options_for(KubectlFlags, params)
    kubectl = make_kubectl(flags)
    reader, job = read_job(kubectl, target, kind, flags)
    view = gather(reader, job, nodes=False, events=False)
    try:
        pod = pick_pod(view.pods, view.state.name, replica, index)
    except LookupError as exc:
        fail(str(exc), 1)
    name, names = container_of(pod, container)
    if container and names and container not in names:
        fail(f"pod {pod.name} has no container {container!r}; its containers: {', '.join(names)}", 2)
    text = reader.logs(pod.name, pod.namespace, name, tail, previous)
    click.echo(printable_lines(text), nl=not text.endswith("\n") and bool(text))
