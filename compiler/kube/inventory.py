"""The cluster inventory (:mod:`ascend_compile.inventory`) read live, through a :class:`~.jobview.Reader`.

Read-only: ``list`` on nodes, pods (for the NPUs they hold), Volcano queues, namespaces,
PersistentVolumeClaims, ConfigMaps, Deployments, PriorityClasses and Volcano HyperNodes (in one namespace: ``get`` on
the ConfigMaps the Volcano scheduler's Deployment mounts, its configuration, by name).  Of the ConfigMaps and claims only the names are
kept (and of the Volcano scheduler's configuration the Ascend plugin's multi-level topology and the Ascend modes its
deviceshare plugin turns on), of the
Deployments only the image tags; Secrets are never read.  A part that may not be read
(RBAC) or whose type the cluster lacks is left out of the inventory, with a note saying why; a cluster
that does not answer is an error (exit code 4 on the command line).
"""
from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

from ..inventory.model import Inventory
from ..inventory.objects import inventory_from, scheduler_config_maps
from .jobview import NODE_RESOURCE, POD_RESOURCE, QUEUE_RESOURCE, Reader
from .kubectl import EXIT_UNREACHABLE

NAMESPACE_RESOURCE = "namespaces"
CLAIM_RESOURCE = "persistentvolumeclaims"
CONFIG_MAP_RESOURCE = "configmaps"
DEPLOYMENT_RESOURCE = "deployments.apps"
PRIORITY_CLASS_RESOURCE = "priorityclasses.scheduling.k8s.io"
HYPER_NODE_RESOURCE = "hypernodes.topology.volcano.sh"
#: the namespace of the Ascend plugin's cluster-wide ConfigMaps (device information, switch topology)
SYSTEM_NAMESPACE = "kube-system"
#: every resource :func:`read_inventory` lists: what a reader of the inventory may read (``webhook manifests``'
#: ClusterRole grants these, read-only, and nothing else)
RESOURCES: Tuple[str, ...] = (NODE_RESOURCE, POD_RESOURCE, QUEUE_RESOURCE, DEPLOYMENT_RESOURCE, PRIORITY_CLASS_RESOURCE,
                              HYPER_NODE_RESOURCE, NAMESPACE_RESOURCE, CLAIM_RESOURCE, CONFIG_MAP_RESOURCE)


def read_inventory(reader: Reader, namespace: Optional[str] = None, name: str = "", default_namespace: str = ""
                   ) -> Tuple[Inventory, List[str]]:
    """(the inventory, notes on what could not be read).  ``namespace``: read claims and ConfigMaps there (and in
    kube-system, where the plugin's topology ConfigMaps live) only; None: in every namespace.  ``default_namespace``:
    where a job that names none lands (recorded: the claim and ConfigMap rules look there)."""
    notes: List[str] = []

    def optional(what: str, read: Callable[[], List[Any]]) -> Optional[List[Any]]:
        try:
            return read()
        except reader.errors as exc:
            if getattr(exc, "exit_code", None) == EXIT_UNREACHABLE:
                raise
            notes.append(f"could not read {what}: {getattr(exc, 'message', None) or exc}")
            return None

    nodes = optional("nodes", lambda: reader.list(NODE_RESOURCE, None))
    pods = optional("pods", lambda: reader.list(POD_RESOURCE, None,
                                                fields="status.phase!=Succeeded,status.phase!=Failed")) or []
    queues = optional("Volcano queues", lambda: reader.list(QUEUE_RESOURCE, None))
    deployments = optional("Deployments", lambda: reader.list(DEPLOYMENT_RESOURCE, None)) or []
    priority_classes = optional("PriorityClasses", lambda: reader.list(PRIORITY_CLASS_RESOURCE, None))
    hyper_nodes = optional("Volcano HyperNodes", lambda: reader.list(HYPER_NODE_RESOURCE, None))
    settings: List[Any] = []
    if namespace is None:
        listed = optional("namespaces", lambda: reader.list(NAMESPACE_RESOURCE, None)) or []
        spaces: Sequence[str] = sorted(str((n.get("metadata") or {}).get("name") or "") for n in listed)
        claims = optional("PersistentVolumeClaims", lambda: reader.list(CLAIM_RESOURCE, None))
        config_maps = optional("ConfigMaps", lambda: reader.list(CONFIG_MAP_RESOURCE, None))
    else:
        spaces = sorted({namespace, SYSTEM_NAMESPACE})
        claims = _each(optional, CLAIM_RESOURCE, "PersistentVolumeClaims", spaces, reader)
        config_maps = _each(optional, CONFIG_MAP_RESOURCE, "ConfigMaps", spaces, reader)
        for space, cm in scheduler_config_maps(deployments):  # the scheduler's configuration, by name (RBAC: get it)
            if space not in spaces:
                settings += optional(f"ConfigMap {space}/{cm}", lambda: [
                    found for found in [reader.get(CONFIG_MAP_RESOURCE, cm, space)] if found]) or []
    return inventory_from(nodes, pods, queues, claims, config_maps, deployments, spaces, name,
                          default_namespace, settings, priority_classes, hyper_nodes), notes


def _each(optional: Callable[[str, Callable[[], List[Any]]], Optional[List[Any]]], resource: str, what: str,
          spaces: Sequence[str], reader: Reader) -> Optional[List[Any]]:
    out: List[Any] = []
    for space in spaces:
        found = optional(f"{what} in {space}", lambda: reader.list(resource, space))
        if found is None:
            return None
        out += found
    return out
