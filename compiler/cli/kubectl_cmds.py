"""``apply``, ``diff``, ``status`` and ``delete``: the optional cluster step, through kubectl.

Each command compiles its specs exactly as ``compile`` does (nothing reaches
the cluster unless every spec compiles), then runs kubectl without a shell,
manifests on standard input.  See docs/cluster.md.

Exit codes: 0 done; 1 the cluster refused (kubectl's message is shown), a job
was not found, or a watched job failed or timed out; 2 usage problems (bad
spec file, bad name/namespace/context, kubectl missing); 4 the cluster could not
be reached or did not answer.  ``diff`` follows kubectl diff instead: 0 no
changes, 1 changes, 2 any other error.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, Optional, Set, Tuple

import click

from ..vocabulary import CONFIG_MAP, RANKTABLE_KEY
from ._cluster import (DRY_RUN_CHOICES, EXIT_CODES_EPILOG, KIND_CHOICES, fail, handle_kubectl_errors, make_kubectl,
                       stdout_sink)
from ._options import table_options
from ._settings import ApplyOptions, DeleteOptions, DiffOptions, options_for
from ._targets import compile_for_cluster, job_targets

#: kubectl runs this diff program instead of its own when set
EXTERNAL_DIFF = "KUBECTL_EXTERNAL_DIFF"


# --------------------------------------------------------------------------
# apply

#: a client dry run that could not reach the cluster: kubectl's own advice (--validate=false) would not help
CLIENT_DRY_RUN_HINT = ("\nhint: a client dry run changes nothing but still reads the cluster (kubectl's API list, "
                       "its OpenAPI document and the live objects), so --validate=false would not make it offline; "
                       "to see what apply would send without a cluster, run: ascend-compile compile SPEC...")


@click.command(
    "apply",
    epilog="""\b
Examples:
  ascend-compile apply job.yaml
  ascend-compile apply specs/ --context prod-cluster
  ascend-compile apply job.yaml --dry-run=server      # the server checks everything, stores nothing
  ascend-compile apply job.yaml --kubeconfig ~/.kube/ascend.yaml -n training""" + EXIT_CODES_EPILOG,
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@click.option("--dry-run", type=click.Choice(DRY_RUN_CHOICES), default="none", show_default=True,
              help="server: the API server validates and admits every object but stores nothing; "
                   "client: kubectl changes nothing but still reads the cluster (its API list, its OpenAPI "
                   "document, the live objects), so it needs one; with no cluster, 'ascend-compile compile' "
                   "prints what apply would send.")
@click.option("--force-conflicts", is_flag=True,
              help="Take over fields another field manager owns (server-side apply conflicts).")
@table_options("apply")
@handle_kubectl_errors
def apply_command(specs: Tuple[str, ...], **params: Any) -> None:
    """Compile job specs and apply the result to the cluster with kubectl.

    Applies, per job and in this order: the Namespace (if the spec sets
    createNamespace), the ranktable ConfigMap rings-config-<job> (if any), the
    AscendJob or Volcano Job.  Uses server-side apply with field manager
    "ascend-compile", so applying the same spec twice changes nothing.
    Nothing is sent unless every spec compiles; the first object the server
    refuses stops the run (exit code 1, with the server's message).
    """
    from ..kube.kubectl import KubectlError
    from ..kube.objects import apply_object
    from ..kube.kubectl import EXIT_UNREACHABLE
    from ..kube.objects import namespace_missing
    from ..kube.planning import check_namespaces, planned_namespaces

    options = options_for(ApplyOptions, params)
    dry_run = options.dry_run
    jobs = compile_for_cluster(specs, options)
    kubectl = make_kubectl(options.kubectl)
    check_namespaces(jobs, kubectl.namespace)
    created = planned_namespaces(jobs)
    for job in jobs:
        for obj in job.objects:
            try:
                apply_object(kubectl, obj, dry_run=dry_run, force_conflicts=options.force_conflicts,
                             sink=stdout_sink())
            except KubectlError as exc:
                if dry_run == "client" and exc.exit_code == EXIT_UNREACHABLE:
                    exc.message += CLIENT_DRY_RUN_HINT
                    raise
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


# --------------------------------------------------------------------------
# diff


def _new_object_diff(obj: Dict[str, Any]) -> str:
    from ..textdiff import of_texts
    from ..yamlio.dump import dump_document

    meta = obj.get("metadata") or {}
    label = f"{obj.get('apiVersion', '').replace('/', '.')}.{obj.get('kind')}.{meta.get('namespace')}.{meta.get('name')}"
    return of_texts("", dump_document(obj), f"LIVE/{label}", f"MERGED/{label}")


@click.command(
    "diff",
    epilog="""\b
Exit codes: 0 no differences, 1 differences, 2 an error (as kubectl diff), 4 the
cluster could not be reached or did not answer.

\b
Examples:
  ascend-compile diff job.yaml
  ascend-compile diff specs/ --context prod-cluster && echo "cluster is up to date"
  KUBECTL_EXTERNAL_DIFF="diff -u --color=always" ascend-compile diff job.yaml""",
)
@click.argument("specs", nargs=-1, required=True, metavar="SPEC...")
@table_options("diff")
def diff_command(specs: Tuple[str, ...], **params: Any) -> None:
    """Compile job specs and show what applying them would change (kubectl diff --server-side).

    The server computes the result of a server-side apply by field manager
    "ascend-compile" and kubectl prints it against the live objects, so
    defaults the server fills in never show up as differences.  Objects in a
    namespace that this apply would create are shown as wholly new.
    """
    from ..kube.kubectl import KubectlError
    from ..kube.objects import diff_object
    from ..kube.kubectl import EXIT_UNREACHABLE
    from ..kube.objects import namespace_missing
    from ..kube.planning import check_namespaces, planned_namespaces

    options = options_for(DiffOptions, params)
    try:
        jobs = compile_for_cluster(specs, options)
    except SystemExit as exc:  # compile problems: 2 either way, 1 means "changes" here
        sys.exit(2 if exc.code else 0)
    changed = False
    noted: Set[str] = set()
    try:
        kubectl = make_kubectl(options.kubectl)
        check_namespaces(jobs, kubectl.namespace)
        created = planned_namespaces(jobs)
        for job in jobs:
            for obj in job.objects:
                try:
                    # kubectl prints values as YAML, escaped; an external diff tool's colours are the user's choice
                    differs, out = diff_object(kubectl, obj, sink=stdout_sink(not os.environ.get(EXTERNAL_DIFF)))
                except KubectlError as exc:
                    missing = namespace_missing(exc)
                    if not missing:
                        raise
                    if missing not in created and missing not in noted:
                        noted.add(missing)
                        click.echo(f"note: namespace {missing!r} does not exist, so its objects are shown as new; "
                                   f"apply will refuse them until it exists (kubectl create namespace {missing}, "
                                   "or createNamespace: true in the spec)", err=True)
                    differs, out = True, _new_object_diff(obj)
                changed = changed or differs
                sys.stdout.write(out)
    except KubectlError as exc:  # kubectl diff's convention: 2 for any error, but 4 (unreachable) stays 4
        fail(exc.message, exc.exit_code if exc.exit_code == EXIT_UNREACHABLE else 2, options.inputs.fmt == "json")
    sys.exit(1 if changed else 0)


# --------------------------------------------------------------------------
# delete


@click.command(
    "delete",
    epilog="""\b
Examples:
  ascend-compile delete job.yaml
  ascend-compile delete resnet50-pytorch -n training --wait
  ascend-compile delete specs/ --ignore-not-found      # safe to run twice""" + EXIT_CODES_EPILOG,
)
@click.argument("targets", nargs=-1, required=True, metavar="SPEC...|NAME")
@click.option("--kind", type=click.Choice(KIND_CHOICES), default="auto", show_default=True,
              help="Which job a NAME is: AscendJob (acjob), Volcano Job (vcjob), or whichever exists.")
@click.option("--wait", is_flag=True, help="Return only once the objects are gone (kubectl delete --wait).")
@click.option("--timeout", default=None, metavar="DURATION",
              help="With --wait: give up after this long, e.g. 5m (default: kubectl's).")
@click.option("--ignore-not-found", is_flag=True, help="Succeed when an object is already gone.")
@click.option("--dry-run", type=click.Choice(DRY_RUN_CHOICES), default="none", show_default=True,
              help="server: the server checks the deletion but deletes nothing; client: kubectl deletes "
                   "nothing but still reads the objects from the cluster.")
@table_options("delete")
@handle_kubectl_errors
def delete_command(targets: Tuple[str, ...], **params: Any) -> None:
    """Delete jobs and their ranktable ConfigMaps from the cluster.

    For a SPEC (file, directory or -) the compiled job and its ConfigMap
    rings-config-<job> are deleted, job first; a Namespace the spec creates is
    never deleted.  For a compiled manifest file (one job and its ConfigMaps)
    the objects it holds are deleted, job first.  For a NAME the job is looked up as AscendJob and as
    Volcano Job (unless --kind says which), and rings-config-NAME is deleted
    if it exists.  The job's pods go with it (Kubernetes garbage collection).
    """
    from ..kube.kubectl import KubectlError
    from ..kube.objects import delete_object
    from ..kube.kubectl import duration_seconds
    from ..kube.planning import deletion_plan

    options = options_for(DeleteOptions, params)
    timeout, wait = options.timeout, options.wait
    waited = duration_seconds(timeout) if timeout is not None else 0.0
    kubectl = make_kubectl(options.kubectl, at_least=waited + 60 if wait else 0.0)  # kubectl's own --timeout first
    try:
        targets_ = job_targets(targets, options.kind, options.inputs, options.kubectl)
        for ref, ignore in deletion_plan(kubectl, targets_, options.ignore_not_found):
            delete_object(kubectl, ref, wait=wait, timeout=timeout if wait else None,
                          ignore_not_found=ignore, dry_run=options.dry_run, sink=stdout_sink())
    except KubectlError as exc:
        if _not_found(exc):
            exc.message += "\nhint: already deleted? --ignore-not-found makes deleting what is gone succeed"
        raise


def _not_found(exc: Any) -> bool:
    from ..kube.objects import namespace_missing

    return namespace_missing(exc) is None and ("(NotFound)" in (exc.stderr or "") or exc.message.startswith("no "))
