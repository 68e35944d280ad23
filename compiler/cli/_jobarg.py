"""What ``why``, ``wait``, ``logs`` and ``events`` share: one job named on the command line, read from the cluster.

The job is a NAME (looked up as AscendJob and Volcano Job unless ``--kind`` says which) or a SPEC
path (a spec compiled to find its kind, name and namespace, or a compiled manifest file naming its one
job), as for ``status``.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Tuple

import click

from ..lint.session import Session
from ._cluster import KIND_CHOICES
from ._targets import job_targets
from ._settings import Inputs, KubectlFlags

OUTPUT_CHOICES = ("text", "json")


def job_argument(func: Callable[..., Any]) -> Callable[..., Any]:
    """NAME|SPEC and --kind."""
    func = click.option("--kind", type=click.Choice(KIND_CHOICES), default="auto", show_default=True,
                        help="Which job NAME is: AscendJob (acjob), Volcano Job (vcjob), or look for both.")(func)
    return click.argument("target", metavar="NAME|SPEC")(func)


def output_option(func: Callable[..., Any]) -> Callable[..., Any]:
    """``--format text|json`` (the spelling of every command), with ``-o/--output`` kept as a hidden alias."""

    def alias(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        if value is not None:  # given on the command line: processed before the options left to their defaults
            ctx.params["output"] = value
        return value

    def chosen(ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        return value if value is not None else ctx.params.get("output") or "text"

    func = click.option("-o", "--output", "output_alias", type=click.Choice(OUTPUT_CHOICES), default=None,
                        hidden=True, expose_value=False, callback=alias, help="The old spelling of --format.")(func)
    return click.option("--format", "output", type=click.Choice(OUTPUT_CHOICES), default=None, callback=chosen,
                        help="text for people, json for machines.  [default: text]")(func)


def read_job(kubectl: Any, target: str, kind: str, flags: KubectlFlags, session: Optional[Session] = None
             ) -> Tuple[Any, Dict[str, Any]]:
    """(reader, the job object); exits 1 when no such job, 2 when the NAME is both kinds or names several."""
    return fetch_job(kubectl, one_target(target, kind, flags, session))


def one_target(target: str, kind: str, flags: KubectlFlags, session: Optional[Session] = None) -> Any:
    """The one job a NAME or SPEC argument names (a SPEC is compiled, in ``session`` when the command has one: do it
    once)."""
    from ..kube.kubectl import KubectlUsageError

    chosen = job_targets([target], kind, Inputs(), flags, session)
    if len(chosen) != 1:
        raise KubectlUsageError(f"{target}: names {len(chosen)} jobs; name one job")
    return chosen[0]


def fetch_job(kubectl: Any, one: Any) -> Tuple[Any, Dict[str, Any]]:
    """(reader, the job object) for a target of :func:`one_target`."""
    from ..kube.kubectl import KubectlError, KubectlUsageError
    from ..kube.planning import find_jobs, not_found, where
    from ..kube.reading import KubectlReader

    found = find_jobs(kubectl, one.resource, one.name, one.namespace)
    if not found:
        raise KubectlError(not_found(kubectl, one.resource, one.name, one.namespace))
    if len(found) > 1:
        raise KubectlUsageError(f"both an AscendJob and a Volcano Job are named {one.name!r} in "
                                f"{where(kubectl, one.namespace)}: say which with --kind acjob|vcjob")
    return KubectlReader(kubectl.in_namespace(one.namespace)), found[0]
