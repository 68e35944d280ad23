"""``apply``, ``diff``, ``status`` and ``delete``: the optional cluster step, through kubectl.

Each command compiles its specs exactly as ``compile`` does (nothing reaches
the cluster unless every spec compiles), then runs kubectl without a shell,
manifests on standard input.  See docs/cluster.md.

Exit codes: 0 done; 1 the cluster refused (kubectl's message is shown), a job
was not found, or a watched job failed or timed out; 2 usage problems (bad
spec file, bad name/namespace/context, kubectl missing).  ``diff`` follows
kubectl diff instead: 0 no changes, 1 changes, 2 any error.
"""
from __future__ import annotations

import difflib
import functools
import json
import sys
import time
from typing import Any, Callable, Dict, List, NoReturn, Optional, Sequence, Set, Tuple

import click

from ..vocabulary import CONFIG_MAP, RANKTABLE_KEY
from ._options import common_input_options, load_context, report_and_exit

DRY_RUN_CHOICES = ("none", "server", "client")
KIND_CHOICES = ("auto", "acjob", "vcjob")


# --------------------------------------------------------------------------
# shared plumbing


def cluster_options(func: Callable[..., Any]) -> Callable[..., Any]:
    """--kubectl, --kubeconfig, --context, -n/--namespace, --request-timeout."""
    decorators = [
        click.option("--kubectl", "kubectl_path", metavar="PATH", default=None,
                     help="kubectl to run (default: $ASCEND_COMPILE_KUBECTL, else kubectl on PATH)."),
        click.option("--kubeconfig", metavar="FILE", default=None,
                     help="kubeconfig file (default: $KUBECONFIG, else ~/.kube/config)."),
        click.option("--context", metavar="NAME", default=None,
                     help="kubeconfig context to use (default: the current context)."),
        click.option("-n", "--namespace", metavar="NS", default=None,
                     help="Namespace for jobs whose spec names none (default: the context's namespace). "
                          "A spec's own namespace must agree with it."),
        click.option("--request-timeout", metavar="DURATION", default=None,
                     help="How long kubectl waits for one server request, e.g. 30s (default: no limit)."),
    ]
    for decorator in reversed(decorators):
        func = decorator(func)
    return func


def _fail(message: str, code: int) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def handle_kubectl_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Turn KubectlError into ``error: <message>`` on stderr and its exit code."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from ..kube import KubectlError

        try:
            return func(*args, **kwargs)
        except KubectlError as exc:
            _fail(exc.message, exc.exit_code)

    return wrapper


def make_kubectl(options: Dict[str, Any]) -> Any:
    from ..kube import Kubectl

    return Kubectl.locate(options.get("kubectl_path"), kubeconfig=options.get("kubeconfig"),
                          context=options.get("context"), namespace=options.get("namespace"),
                          request_timeout=options.get("request_timeout"))


def compile_specs(specs: Sequence[str], options: Dict[str, Any]) -> List[Any]:
    """Compile like ``compile`` does; any problem is reported and exits (1 bad spec, 2 unreadable)."""
    from .. import api
    from ..errors import AscendCompileError

    ctx = load_context(options)
    try:
        return api.compile_paths(list(specs), config=ctx.config, registry=ctx.registry, max_bytes=ctx.max_bytes)
    except AscendCompileError as exc:
        report_and_exit(exc.findings, ctx, stream=sys.stderr)
        raise  # unreachable


def _targets(targets: Sequence[str], kind: str, options: Dict[str, Any]) -> List[Any]:
    """The jobs the arguments name: SPEC paths are compiled (problems reported, exit), NAMEs checked."""
    from ..kube.planning import check_namespaces, is_spec_path, targets as plan_targets

    specs = [t for t in targets if is_spec_path(t)]
    jobs = compile_specs(specs, options) if specs else []
    check_namespaces(jobs, options.get("namespace"))
    return plan_targets(targets, jobs, kind)


# --------------------------------------------------------------------------
# apply


@click.command(
    "apply",
    epilog="""\b
Examples:
  ascend-compile apply examples/pytorch-module-910b-8.yaml
  ascend-compile apply specs/ --context prod-cluster
  ascend-compile apply job.yaml --dry-run=server      # the server checks everything, stores nothing
  ascend-compile apply job.yaml --kubeconfig ~/.kube/ascend.yaml -n training""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--dry-run", type=click.Choice(DRY_RUN_CHOICES), default="none", show_default=True,
              help="server: the API server validates and admits every object but stores nothing; "
                   "client: kubectl only prints what it would send.")
@click.option("--force-conflicts", is_flag=True,
              help="Take over fields another field manager owns (server-side apply conflicts).")
@cluster_options
@common_input_options
@handle_kubectl_errors
def apply_command(specs: Tuple[str, ...], dry_run: str, force_conflicts: bool, **options: Any) -> None:
    """Compile job specs and apply the result to the cluster with kubectl.

    Applies, per job and in this order: the Namespace (if the spec sets
    createNamespace), the ranktable ConfigMap rings-config-<job> (if any), the
    AscendJob or Volcano Job.  Uses server-side apply with field manager
    "ascend-compile", so applying the same spec twice changes nothing.
    Nothing is sent unless every spec compiles; the first object the server
    refuses stops the run (exit code 1, with the server's message).
    """
    from ..kube import KubectlError, apply_object
    from ..kube.objects import namespace_missing
    from ..kube.planning import check_namespaces, planned_namespaces

    jobs = compile_specs(specs, options)
    kubectl = make_kubectl(options)
    check_namespaces(jobs, kubectl.namespace)
    created = planned_namespaces(jobs)
    for job in jobs:
        for obj in job.objects:
            try:
                out = apply_object(kubectl, obj, dry_run=dry_run, force_conflicts=force_conflicts)
            except KubectlError as exc:
                missing = namespace_missing(exc)
                if dry_run != "none" and missing and missing in created:
                    meta = obj.get("metadata") or {}
                    click.echo(f"note: {obj.get('kind')} {missing}/{meta.get('name')} not checked: namespace "
                               f"{missing!r} does not exist yet (this apply would create it), so the server "
                               f"cannot dry-run objects inside it", err=True)
                    continue
                if missing:
                    exc.message += (f"\nhint: create the namespace first (kubectl create namespace {missing}) "
                                    "or set createNamespace: true in the spec")
                elif obj.get("kind") == CONFIG_MAP and f".data.{RANKTABLE_KEY}" in exc.message:
                    exc.message += ("\nhint: ascend-operator has already written this job's ranktable, so the job "
                                    "is running; to change it, delete it and apply again (--force-conflicts would "
                                    "reset the ranktable under the running job)")
                raise
            sys.stdout.write(out)


# --------------------------------------------------------------------------
# diff


def _new_object_diff(obj: Dict[str, Any]) -> str:
    from ..yamlio import dump_document

    meta = obj.get("metadata") or {}
    label = f"{obj.get('apiVersion', '').replace('/', '.')}.{obj.get('kind')}.{meta.get('namespace')}.{meta.get('name')}"
    lines = dump_document(obj).splitlines(keepends=True)
    return "".join(difflib.unified_diff([], lines, fromfile=f"LIVE/{label}", tofile=f"MERGED/{label}"))


@click.command(
    "diff",
    epilog="""\b
Exit codes: 0 no differences, 1 differences, 2 an error (as kubectl diff).

\b
Examples:
  ascend-compile diff examples/pytorch-module-910b-8.yaml
  ascend-compile diff specs/ --context prod-cluster && echo "cluster is up to date"
  KUBECTL_EXTERNAL_DIFF="diff -u --color=always" ascend-compile diff job.yaml""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@cluster_options
@common_input_options
def diff_command(specs: Tuple[str, ...], **options: Any) -> None:
    """Compile job specs and show what applying them would change (kubectl diff --server-side).

    The server computes the result of a server-side apply by field manager
    "ascend-compile" and kubectl prints it against the live objects, so
    defaults the server fills in never show up as differences.  Objects in a
    namespace that this apply would create are shown as wholly new.
    """
    from ..kube import KubectlError, diff_object
    from ..kube.objects import namespace_missing
    from ..kube.planning import check_namespaces, planned_namespaces

    try:
        jobs = compile_specs(specs, options)
    except SystemExit as exc:  # compile problems: 2 either way, 1 means "changes" here
        sys.exit(2 if exc.code else 0)
    changed = False
    try:
        kubectl = make_kubectl(options)
        check_namespaces(jobs, kubectl.namespace)
        created = planned_namespaces(jobs)
        for job in jobs:
            for obj in job.objects:
                try:
                    differs, out = diff_object(kubectl, obj)
                except KubectlError as exc:
                    missing = namespace_missing(exc)
                    if not (missing and missing in created):
                        raise
                    differs, out = True, _new_object_diff(obj)
                changed = changed or differs
                sys.stdout.write(out)
    except KubectlError as exc:
        _fail(exc.message, 2)
    sys.exit(1 if changed else 0)


# --------------------------------------------------------------------------
# status


def _read_states(kubectl: Any, targets: Sequence[Any]
                 ) -> List[Tuple[Tuple[Optional[str], str, Optional[str]], Optional[Any], str]]:
    """Per target: (key, JobState or None, not-found message)."""
    from ..kube import job_state
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
        click.echo(prefix + state.line())


@click.command(
    "status",
    epilog="""\b
Examples:
  ascend-compile status resnet50-pytorch -n training
  ascend-compile status examples/pytorch-module-910b-8.yaml
  ascend-compile status resnet50-pytorch -n training --watch --timeout 2h
  ascend-compile status resnet50-pytorch -n training -o json

\b
Output (text):
  AscendJob training/resnet50-pytorch: Running (JobRunning): ...
  AscendJob training/bad-job: Failed (JobValidFailed): <the operator's message>
  Volcano Job training/mindspore-job: Pending (no phase yet ...)""",
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
@click.option("-o", "--output", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: a list of job states; with --watch one JSON object per line and change.")
@cluster_options
@common_input_options
@handle_kubectl_errors
def status_command(targets: Tuple[str, ...], kind: str, watch: bool, timeout: str, interval: str, output: str,
                   **options: Any) -> None:
    """Show the state of jobs in the cluster.

    NAME is a job name (looked up as AscendJob and as Volcano Job unless
    --kind says which); SPEC is a spec file, directory or -, whose jobs are
    compiled to find their kind, name and namespace.

    An AscendJob's state is its last condition (Created, Running, Restarting,
    Succeeded, Failed) with reason and message; a Volcano Job's is its phase.
    A job no controller has touched yet shows as Pending.  Exit code 0 when
    every job was found, 1 when one was not.
    """
    from ..kube.kubectl import duration_seconds

    kubectl = make_kubectl(options)
    resolved = _targets(targets, kind, options)
    if not watch:
        rows = _read_states(kubectl, resolved)
        missing = [msg for _key, state, msg in rows if state is None]
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

    limit = duration_seconds(timeout)
    pause = max(duration_seconds(interval), 0.1)
    deadline = time.monotonic() + limit if limit > 0 else None
    last: Dict[Tuple[Any, ...], str] = {}
    seen: Set[Tuple[Optional[str], str, Optional[str]]] = set()
    while True:
        rows = _read_states(kubectl, resolved)
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
            _fail(f"timed out after {timeout} waiting for the job(s) to finish", 1)
        time.sleep(pause)


# --------------------------------------------------------------------------
# delete


@click.command(
    "delete",
    epilog="""\b
Examples:
  ascend-compile delete examples/pytorch-module-910b-8.yaml
  ascend-compile delete resnet50-pytorch -n training --wait
  ascend-compile delete specs/ --ignore-not-found      # safe to run twice""",
)
@click.argument("targets", nargs=-1, required=True, metavar="SPEC...|NAME")
@click.option("--kind", type=click.Choice(KIND_CHOICES), default="auto", show_default=True,
              help="Which job a NAME is: AscendJob (acjob), Volcano Job (vcjob), or whichever exists.")
@click.option("--wait", is_flag=True, help="Return only once the objects are gone (kubectl delete --wait).")
@click.option("--timeout", default=None, metavar="DURATION",
              help="With --wait: give up after this long, e.g. 5m (default: kubectl's).")
@click.option("--ignore-not-found", is_flag=True, help="Succeed when an object is already gone.")
@click.option("--dry-run", type=click.Choice(DRY_RUN_CHOICES), default="none", show_default=True,
              help="server: the server checks the deletion but deletes nothing; client: print only.")
@cluster_options
@common_input_options
@handle_kubectl_errors
def delete_command(targets: Tuple[str, ...], kind: str, wait: bool, timeout: Optional[str], ignore_not_found: bool,
                   dry_run: str, **options: Any) -> None:
    """Delete jobs and their ranktable ConfigMaps from the cluster.

    For a SPEC (file, directory or -) the compiled job and its ConfigMap
    rings-config-<job> are deleted, job first; a Namespace the spec creates is
    never deleted.  For a NAME the job is looked up as AscendJob and as
    Volcano Job (unless --kind says which), and rings-config-NAME is deleted
    if it exists.  The job's pods go with it (Kubernetes garbage collection).
    """
    from ..kube import delete_object
    from ..kube.kubectl import check_duration
    from ..kube.planning import deletion_plan

    if timeout is not None:
        check_duration(timeout)
    kubectl = make_kubectl(options)
    plan = deletion_plan(kubectl, _targets(targets, kind, options), ignore_not_found)
    for ref, ignore in plan:
        out = delete_object(kubectl, ref, wait=wait, timeout=timeout if wait else None,
                            ignore_not_found=ignore, dry_run=dry_run)
        sys.stdout.write(out)
