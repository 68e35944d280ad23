"""``ascend-compile status``: the state of jobs in the cluster, once or followed until they finish.

Every value read from the cluster is printed with its control characters escaped (a condition
message cannot move the cursor, recolour the terminal or forge a second status line), and a watch
keeps its deadline even when kubectl hangs: each kubectl run is limited to the time left.
"""
from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import click

from ..safeio.text import printable
from ._cluster import EXIT_CODES_EPILOG, KIND_CHOICES, fail, handle_kubectl_errors, make_kubectl
from ._options import table_options
from ._settings import StatusOptions, options_for
from ._targets import job_targets


def _read_states(kubectl: Any, targets: Sequence[Any]
                 ) -> List[Tuple[Tuple[Optional[str], str, Optional[str]], Optional[Any], str]]:
    """Per target: (key, JobState or None, not-found message)."""
    from ..kube.jobs import job_state
    from ..kube.planning import find_jobs, not_found

    out: List[Tuple[Tuple[Optional[str], str, Optional[str]], Optional[Any], str]] = []
    for target in targets:
        found = find_jobs(kubectl, target.resource, target.name, target.namespace)
        key = (target.resource, target.name, target.namespace)
        if not found:
            out.append((key, None, not_found(kubectl, target.resource, target.name, target.namespace)))
        for obj in found:
            out.append((key, job_state(obj), ""))
    return out


def _print_state(state: Any, output: str, stamp: bool = False) -> None:
    if output == "json":
        click.echo(json.dumps(state.as_dict(), sort_keys=True))
    else:
        prefix = time.strftime("%H:%M:%S ") if stamp else ""
        click.echo(prefix + printable(state.line()))  # the cluster's words, control characters escaped
        if state.times() and not stamp:
            click.echo("  " + printable(state.times()))


@click.command(
    "status",
    epilog="""\b
Examples:
  ascend-compile status resnet50-pytorch -n training
  ascend-compile status job.yaml
  ascend-compile status resnet50-pytorch -n training --watch --timeout 2h
  ascend-compile status resnet50-pytorch -n training --format json

\b
Output (text):
  AscendJob training/resnet50-pytorch: Running (JobRunning): ...
    started 2026-11-30T08:00:00Z
  AscendJob training/bad-job: Failed (JobValidFailed): <the operator's message>
  Volcano Job training/mindspore-job: Pending (no phase yet ...)""" + EXIT_CODES_EPILOG,
)
@click.argument("targets", nargs=-1, required=True, metavar="NAME|SPEC...")
@click.option("--kind", type=click.Choice(KIND_CHOICES), default="auto", show_default=True,
              help="Which job a NAME is: AscendJob (acjob), Volcano Job (vcjob), or look for both.")
@click.option("-w", "--watch", is_flag=True,
              help="Follow the job(s) until every one is finished (Succeeded/Failed, Completed/Failed/Aborted/"
                   "Terminated), printing each change. Exit 0 if all succeeded, 1 otherwise.")
@click.option("--timeout", default="1h", show_default=True, metavar="DURATION",
              help="With --watch: give up after this long (exit 1); 0 waits forever.")
@click.option("--interval", default="2s", show_default=True, metavar="DURATION",
              help="With --watch: how often to read the job.")
@click.option("-o", "--output", type=click.Choice(["text", "json"]), default=None, hidden=True,
              help="The old spelling of --format (text or json).")
@table_options("status")
@handle_kubectl_errors
def status_command(targets: Tuple[str, ...], **params: Any) -> None:
    """Show the state of jobs in the cluster.

    NAME is a job name (looked up as AscendJob and as Volcano Job unless
    --kind says which); SPEC is a spec file, directory or -, whose jobs are
    compiled to find their kind, name and namespace, or a compiled manifest
    file (one AscendJob or Volcano Job, with its ConfigMaps), which names its job.

    An AscendJob's state is its last condition (Created, Running, Restarting,
    Succeeded, Failed) with reason and message; a Volcano Job's is its phase.
    A job no controller has touched yet shows as Pending.  Start and
    completion times follow on their own line when the controller wrote
    them (--format json: startTime, completionTime).  Exit code 0 when
    every job was found, 1 when one was not.  --format json: a list of job
    states; with --watch one JSON object per line and change; on an error, an
    object {"error": {"message", "exitCode", "reason"}}.
    """
    from ..kube.kubectl import duration_seconds

    options = options_for(StatusOptions, params)
    output = options.output or ("json" if options.inputs.fmt == "json" else "text")
    timeout = options.timeout
    limit = duration_seconds(timeout, "timeout")
    pause = max(duration_seconds(options.interval, "interval"), 0.1)
    kubectl = make_kubectl(options.kubectl)
    resolved = job_targets(targets, options.kind, options.inputs, options.kubectl)
    if options.watch:
        _watch(kubectl, resolved, output, limit, pause, timeout)
    rows = _read_states(kubectl, resolved)
    missing = [_name_namespace(kubectl, msg) for _key, state, msg in rows if state is None]
    if output == "json":
        click.echo(json.dumps([state.as_dict() for _key, state, _msg in rows if state is not None],
                              indent=2, sort_keys=True))
    else:
        for _key, state, _msg in rows:
            if state is not None:
                _print_state(state, output)
    for msg in missing:
        click.echo(f"error: {msg}", err=True)
    sys.exit(1 if missing else 0)


def _name_namespace(kubectl: Any, message: str) -> str:
    """A not-found message that names the namespace looked in, also when it was the context's default."""
    from ..kube.kubectl import KubectlError
    from ..kube.planning import job_namespace, where

    default = where(kubectl, None)
    if kubectl.namespace or default not in message:
        return message
    try:
        found = job_namespace(kubectl)
    except KubectlError:
        return message
    return message.replace(default, f"namespace {found!r} (the context's default; -n to choose another)")


def _watch(kubectl: Any, resolved: Sequence[Any], output: str, limit: float, pause: float, timeout: str) -> None:
    """Follow the jobs until all are finished (exit 0 if all succeeded, else 1), a job is gone, or the deadline."""
    from ..kube.kubectl import KubectlError
    from ..kube.kubectl import EXIT_REJECTED, EXIT_UNREACHABLE

    deadline = time.monotonic() + limit if limit > 0 else None
    last: Dict[Tuple[Any, ...], str] = {}
    seen: Set[Tuple[Optional[str], str, Optional[str]]] = set()
    while True:
        try:
            rows = _read_states(_within(kubectl, deadline), resolved)
        except KubectlError as exc:
            if deadline is None or time.monotonic() < deadline:
                raise
            if not seen:  # not one answer in the whole time: the cluster, not the jobs
                fail(f"timed out after {timeout} waiting for the job(s) to finish (kubectl did not answer)",
                     EXIT_UNREACHABLE if exc.exit_code == EXIT_UNREACHABLE else EXIT_REJECTED, output == "json")
            # the deadline cut a read short after the cluster had answered: the watch's own timeout
            fail(f"timed out after {timeout} waiting for the job(s) to finish", EXIT_REJECTED, output == "json")
        gone = [(key, msg) for key, state, msg in rows if state is None]
        for key, msg in gone:
            click.echo(f"error: {msg}" + (" any more (deleted)" if key in seen else ""), err=True)
        if gone:
            sys.exit(1)
        done, failed = True, False
        for key, state, _msg in rows:
            assert state is not None
            seen.add(key)
            ident = (*key, state.kind)
            summary = json.dumps(state.as_dict(), sort_keys=True)
            if last.get(ident) != summary:
                last[ident] = summary
                _print_state(state, output, stamp=True)
            done = done and state.terminal
            failed = failed or (state.terminal and not state.succeeded)
        if done:
            sys.exit(1 if failed else 0)
        if deadline is not None and time.monotonic() + pause > deadline:
            fail(f"timed out after {timeout} waiting for the job(s) to finish", EXIT_REJECTED, output == "json")
        time.sleep(pause)


def _within(kubectl: Any, deadline: Optional[float]) -> Any:
    """kubectl whose runs end by ``deadline`` (a hung kubectl must not outlast --watch --timeout)."""
    if deadline is None:
        return kubectl
    left = max(deadline - time.monotonic(), 0.5)
    return replace(kubectl, process_timeout=min(kubectl.process_timeout or left, left))
