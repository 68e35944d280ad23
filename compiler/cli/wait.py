"""``ascend-compile wait JOB --for=running|succeeded|finished``: block until the job gets there.

Exit 0 when it did, 1 when it ended in another state (or is gone) or time ran out (as ``status --watch``),
4 when the cluster could not be reached; the decision
is :func:`ascend_compile.kube.lifecycle.wait_for`'s, shared with ``Cluster.wait`` in Python.  Each
kubectl run is limited to the time left, so a hung kubectl cannot outlast ``--timeout``.
"""
from __future__ import annotations

import json
import sys
import time
from typing import Any

import click

from ._cluster import fail, handle_kubectl_errors, make_kubectl
from ._jobarg import fetch_job, job_argument, one_target, output_option
from ._options import table_options
from ._settings import KubectlFlags, options_for



@click.command(
    "wait",
    epilog="""\b
Examples:
  ascend-compile wait resnet50-pytorch -n training --for=running --timeout 10m
  ascend-compile wait job.yaml --for=succeeded --timeout 24h
  ascend-compile wait resnet50-pytorch -n training --for=finished --format json

\b
Exit codes: 0 the state was reached; 1 the job ended in another state, is
gone, or the timeout passed first (as status --watch); 2 usage error; 4 the
cluster could not be reached or did not answer.""",
)
@job_argument
@click.option("--for", "until", type=click.Choice(["running", "succeeded", "finished"]), default="finished",
              show_default=True, help="running: running (or already succeeded); succeeded; finished: ended either way.")
@click.option("--timeout", default="1h", show_default=True, metavar="DURATION",
              help="Give up after this long; 0 waits forever.")
@click.option("--interval", default="2s", show_default=True, metavar="DURATION", help="How often to read the job.")
@click.option("-q", "--quiet", is_flag=True, help="Print nothing but errors; the exit code says it.")
@output_option
@table_options("wait")
@handle_kubectl_errors
def wait_command(target: str, kind: str, until: str, timeout: str, interval: str, quiet: bool, output: str,
                 **params: Any) -> None:
    """Wait until a job is running, has succeeded, or has finished.

    Prints each state the job passes through (text), or the last state
    with the outcome (json).
    """
    from ..kube.jobs import job_state
    from ..kube.kubectl import KubectlError
    from ..kube.kubectl import EXIT_REJECTED, EXIT_UNREACHABLE, duration_seconds
    from ..kube.lifecycle import TIMED_OUT, Waited, wait_for
    from ..safeio.text import printable
    from .status import _within

    limit = duration_seconds(timeout, "timeout")
    pause = max(duration_seconds(interval, "interval"), 0.1)
    flags = options_for(KubectlFlags, params)
    kubectl = make_kubectl(flags)
    deadline = time.monotonic() + limit if limit > 0 else None
    chosen = one_target(target, kind, flags)

    answered: "list[Any]" = []  # the last state read: the cluster answered at least once

    def read(_left: float) -> Any:
        _reader, job = fetch_job(_within(kubectl, deadline), chosen)
        answered[:] = [job_state(job)]
        return answered[0]

    def seen(state: Any) -> None:
        if output == "text" and not quiet:
            click.echo(time.strftime("%H:%M:%S ") + printable(state.line()))

    try:
        waited = wait_for(read, until, limit, pause, seen)
    except KubectlError as exc:
        if deadline is None or time.monotonic() < deadline:
            raise
        if not answered:  # not one answer in the whole time: the cluster, not the job
            fail(f"timed out after {timeout} waiting for {target} to be {until} (kubectl did not answer)",
                 exc.exit_code if exc.exit_code == EXIT_UNREACHABLE else EXIT_REJECTED, output == "json")
        # the deadline cut a read short after the cluster had answered: the wait's own timeout
        waited = Waited(TIMED_OUT, answered[0])
    state = waited.state
    if output == "json" and not quiet:
        click.echo(json.dumps({"for": until, "result": waited.result, "exitCode": waited.code,
                               "state": state.as_dict() if state else None}, indent=2, sort_keys=True))
    if waited.outcome == TIMED_OUT:
        now = f"; it is {printable(state.summary())}" if state else ""
        click.echo(f"error: timed out after {timeout} waiting for {target} to be {until}{now}", err=True)
    elif waited.code and state is not None:
        click.echo(f"error: {printable(state.line())}: it ended without being {until}", err=True)
    sys.exit(waited.code)
