"""What the cluster commands share: kubectl with a time limit, the live cluster's inventory, errors.

``apply``, ``diff`` and ``delete`` (:mod:`.kubectl_cmds`), ``status`` (:mod:`.status`) and the commands of one job
build on this, and on :mod:`._targets` for the jobs they act on; the decisions themselves are made in
:mod:`ascend_compile.kube.planning`.
"""
from __future__ import annotations

import functools
import json
import sys
from typing import Any, Callable, NoReturn

import click

from ._settings import KubectlFlags

DRY_RUN_CHOICES = ("none", "server", "client")
KIND_CHOICES = ("auto", "acjob", "vcjob")


#: what each exit code of a cluster command means (``--format json``'s ``error.reason``)
EXIT_REASONS = {1: "job", 2: "usage", 4: "unreachable"}
#: the reason of exit code 4 when the cluster answered, but with a value Kubernetes never writes
MALFORMED = "malformed-reply"
#: the end of every cluster command's --help (wait and diff say their own first two codes)
EXIT_CODES_EPILOG = """

\b
Exit codes: 0 done; 1 the cluster refused, or the job is not there (or not in
the state asked); 2 usage or input error; 4 the cluster could not be reached
or did not answer (no job outcome is known).  --format json prints
{"error": {"message", "exitCode", "reason"}} on stdout when it fails."""


def fail(message: str, code: int, json_error: bool = False, reason: str = "") -> NoReturn:
    """``error: <message>`` on stderr and exit ``code``; with ``json_error`` also a JSON error object on stdout
    (one line, so that it also ends the JSON-lines output of ``status --watch``); ``reason`` for it (default: the
    code's, :data:`EXIT_REASONS`)."""
    from ..safeio.text import printable_lines

    if json_error:
        click.echo(json.dumps({"error": {"message": message, "exitCode": code,
                                         "reason": reason or EXIT_REASONS.get(code, "error")}}, sort_keys=True))
    click.echo(f"error: {printable_lines(message)}", err=True)
    sys.exit(code)


def handle_kubectl_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn KubectlError into ``error: <message>`` on stderr and its exit code (and, when the command was asked
    for ``--format json``, a JSON error object on stdout)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..inventory.replies import ClusterDataError
        from ..kube.kubectl import EXIT_UNREACHABLE, KubectlError

        json_error = "json" in (kwargs.get("output"), kwargs.get("fmt"))
        try:
            return func(*args, **kwargs)
        except KubectlError as exc:
            fail(exc.message, exc.exit_code, json_error)
        except ClusterDataError as exc:  # a malformed reply: a cluster error, never our bug
            fail(exc.findings[0].message, EXIT_UNREACHABLE, json_error, MALFORMED)

    return wrapper


def make_kubectl(flags: KubectlFlags, at_least: float = 0.0) -> Any:
    """kubectl with the run's global flags; each run of it stopped after --kubectl-timeout (or ``at_least``)."""
    from ..kube.kubectl import Kubectl
    from ..kube.kubectl import duration_seconds

    from ..kube.kubectl import DEFAULT_REQUEST_TIMEOUT, SLOW_CALL_NOTE_AFTER

    limit = duration_seconds(str(flags.kubectl_timeout or "5m"), "kubectl timeout")
    if limit <= 0:
        raise click.BadParameter("must be longer than 0s", param_hint="--kubectl-timeout")
    # a run that waits on purpose (delete --wait: at_least) keeps kubectl's own limits and says nothing
    request_timeout = flags.request_timeout or (None if at_least else DEFAULT_REQUEST_TIMEOUT)
    return Kubectl.locate(flags.kubectl_path, kubeconfig=flags.kubeconfig, context=flags.context,
                          namespace=flags.namespace,
                          request_timeout=request_timeout, process_timeout=max(limit, at_least),
                          slow_note_after=None if at_least else SLOW_CALL_NOTE_AFTER)


def stdout_sink(sanitize: bool = True) -> Callable[[str], None]:
    """Where kubectl's standard output goes as it comes: our stdout, with control characters escaped."""
    from ..safeio.text import printable_lines

    def write(text: str) -> None:
        sys.stdout.write(printable_lines(text) if sanitize else text)
        sys.stdout.flush()

    return write


def read_live_inventory(flags: KubectlFlags, json_error: bool = False) -> Any:
    """The live cluster's inventory (``--cluster``), read through kubectl with the cluster commands' flags; what could
    not be read is said on stderr; a kubectl failure is ``error: ...`` and its exit code (4: unreachable), and with
    ``json_error`` a JSON error object on stdout too."""
    from ..inventory.replies import ClusterDataError
    from ..kube.kubectl import EXIT_UNREACHABLE, KubectlError
    from ..kube.inventory import read_inventory
    from ..kube.planning import job_namespace
    from ..kube.reading import KubectlReader
    from ..safeio.text import printable

    try:
        kubectl = make_kubectl(flags)
        inventory, notes = read_inventory(KubectlReader(kubectl), flags.namespace, flags.context or "",
                                          job_namespace(kubectl))
    except KubectlError as exc:
        fail(exc.message, exc.exit_code, json_error)
    except ClusterDataError as exc:
        fail(exc.findings[0].message, EXIT_UNREACHABLE, json_error, MALFORMED)
    for note in notes:
        click.echo(f"note: {printable(note)}", err=True)
    return inventory
