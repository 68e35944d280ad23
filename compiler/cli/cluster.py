"""``ascend-compile cluster snapshot``: what a cluster has, as a file the cluster-aware lint reads offline.

Read-only, through kubectl (the cluster commands' flags); the reading is :mod:`ascend_compile.kube.inventory`'s,
the format :mod:`ascend_compile.inventory.snapshot`'s (``docs/cluster-snapshot.md``).
"""
from __future__ import annotations

import sys
from typing import Any, Optional

import click

from ._cluster import fail, handle_kubectl_errors, make_kubectl
from ._options import table_options
from ._settings import KubectlFlags, options_for


@click.group(
    "cluster",
    epilog="""\b
Examples:
  ascend-compile cluster snapshot -o cluster.yaml
  ascend-compile lint k8s/ --cluster-snapshot cluster.yaml""",
)
def cluster_command() -> None:
    """Read what a cluster has: nodes, queues, claims and versions.

    'cluster snapshot' writes it to a file that 'lint --cluster-snapshot'
    checks jobs against offline (in CI, in pre-commit hooks).  It reads the
    cluster through kubectl with the cluster commands' flags (--kubeconfig,
    --context, -n, ...).
    """


@cluster_command.command(  # type: ignore[untyped-decorator, unused-ignore]  # click 8.1 types group.command loosely
    "snapshot",
    epilog="""\b
Examples:
  ascend-compile cluster snapshot -o cluster.yaml
  ascend-compile cluster snapshot --context prod -n training > cluster.yaml
  ascend-compile lint k8s/ --cluster-snapshot cluster.yaml

\b
The snapshot holds node labels, allocatable NPUs and the taints that keep
pods off; queue states, capabilities and deserved shares; the names of the
PriorityClasses, of the Volcano HyperNodes (with their tiers) and of the
PersistentVolumeClaims and ConfigMaps of each namespace (never their data);
the image tags of Volcano, the Ascend plugin and ascend-operator.  No Secret,
no environment, no node annotation, no pod or job is ever written.

\b
Capacity only by default: the same cluster gives the same bytes, so a
committed snapshot changes only when its capacity does.  --usage also
records the NPUs pods hold now, with the time they were read; lint reports
"no room now" (AC907) from such a snapshot as info, never failing a build
by default.

\b
Exit codes: 0 written; 2 usage or input error (or FILE may not be written:
a link, a folder); 4 the cluster could not be reached or did not answer,
or answered with a value Kubernetes never writes (the object is named).""",
)
@click.option("-o", "--output", "output_file", metavar="FILE", default=None,
              help="Write the snapshot to FILE (default: standard output).")
@click.option("--name", metavar="NAME", default=None,
              help="The cluster's name in the snapshot (default: --context, else 'cluster').")
@click.option("--usage/--no-usage", default=False, show_default=True,
              help="Also record the NPUs in use now, with the time (UTC) they were read.")
@table_options("cluster snapshot")
@handle_kubectl_errors
def snapshot(output_file: Optional[str], name: Optional[str], usage: bool, **params: Any) -> None:
    """Write a snapshot of the cluster: what the cluster-aware lint rules (AC901-AC915) check against.

    With -n NS only that namespace's (and kube-system's) claims and ConfigMaps
    are read; without it, every namespace's.  Parts that may not be read
    (RBAC) are left out, with a note on stderr.
    """
    import dataclasses

    from ..errors import AscendCompileError
    from ..inventory.snapshot import dump
    from ..kube.inventory import read_inventory
    from ..kube.planning import job_namespace
    from ..kube.reading import KubectlReader
    from ..safeio.text import printable

    flags = options_for(KubectlFlags, params)
    kubectl = make_kubectl(flags)
    stamp = _utc_now() if usage else None  # before the read: the NPUs in use are as they were at this time or later
    inventory, notes = read_inventory(KubectlReader(kubectl), flags.namespace, name or flags.context or "",
                                      job_namespace(kubectl))
    for note in notes:
        click.echo(f"note: {printable(note)}", err=True)
    text = dump(dataclasses.replace(inventory, usage=stamp))
    if not output_file or output_file == "-":
        sys.stdout.write(text)
        return
    from ..safeio.write import write_file

    try:
        write_file(output_file, text)
    except AscendCompileError as exc:
        fail("; ".join(f"{f.file}: {f.message}" + (f" ({f.hint})" if f.hint else "") for f in exc.findings), 2)
    except OSError as exc:
        fail(f"cannot write {output_file}: {exc.strerror or exc}", 2)
    recorded = f"the NPUs in use as of {stamp}" if stamp else "capacity only (--usage also records the NPUs in use)"
    click.echo(f"wrote {output_file}: {len(inventory.nodes or ())} nodes, {len(inventory.queues or {})} queues; {recorded}",
               err=True)


def _utc_now() -> str:
    """Now, in UTC, as a snapshot's ``usageTime`` records it."""
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
