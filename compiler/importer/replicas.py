"""What a manifest says per replica type, read as candidate ``replicaTypes``: the env, ports and resources of
each replica's container, split into what every replica type has (the shared ``env``, ``ports``,
``resources``) and what only some have (``replicaTypes.<type>``)."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Set

from ..manifest.job import Manifest
from ..manifest.pods import PodSet
from ..manifest.values import as_list
from .fields import TOGETHER, Candidate, main_pod_set, pod_resources


def _first(pods: Optional[PodSet]) -> Dict[str, Any]:
    containers = pods.containers() if pods is not None else []
    return containers[0].data if containers else {}


def _names(items: Any) -> Set[Any]:
    return {i.get("name") for i in as_list(items) if isinstance(i, dict) and not isinstance(i.get("name"), _UNHASHABLE)}


#: what YAML gives that cannot be in a set: such a name is nobody's (the schema check reports it)
_UNHASHABLE = (list, dict)


def _own(job: Manifest, generated: Manifest, shared: Dict[str, Any]) -> Dict[str, Dict[str, Any]]:
    """Per replica type: its plain env and its ports, leaving out what the compiler writes itself."""
    made = {p.role: p for p in generated.pod_sets()}
    out: Dict[str, Dict[str, Any]] = {}
    for pods in job.pod_sets():
        if pods.role not in made:
            continue
        mine, theirs = _first(pods), _first(made[pods.role])
        env = shared.get("env")
        written_env = _names(theirs.get("env")) - (_names(env) if isinstance(env, list) else set(env or {}))
        written_ports = _names(theirs.get("ports")) - _names(shared.get("ports"))
        out[pods.role] = {
            "env": {e["name"]: e["value"] for e in as_list(mine.get("env"))
                    if isinstance(e, dict) and set(e) == {"name", "value"} and isinstance(e["name"], str)
                    and isinstance(e["value"], str) and e["name"] not in written_env},
            "ports": [p for p in as_list(mine.get("ports")) if isinstance(p, dict) and (
                      isinstance(p.get("name"), _UNHASHABLE) or p.get("name") not in written_ports)],
            "resources": pod_resources(pods)}
    return out


def per_replica(job: Manifest, generated: Manifest, spec: Dict[str, Any]) -> List[Candidate]:
    """The shared env and ports and the ``replicaTypes`` of a job whose replica types differ."""
    own = _own(job, generated, spec)
    if len(own) < 2:
        return []
    first = next(iter(own.values()))
    env = {k: v for k, v in first["env"].items() if all(o["env"].get(k) == v for o in own.values())}
    ports = [p for p in first["ports"] if all(p in o["ports"] for o in own.values())]
    main = main_pod_set(job)
    resources = pod_resources(main) if main is not None else {}
    types: Dict[str, Dict[str, Any]] = {}
    for role, settings in own.items():
        mine: Dict[str, Any] = {
            "env": {k: v for k, v in settings["env"].items() if env.get(k) != v},
            "ports": [p for p in settings["ports"] if p not in ports],
            "resources": settings["resources"] if settings["resources"] != resources else {}}
        if any(mine.values()):
            types[role] = {k: v for k, v in mine.items() if v}
    if not types:
        return []
    return [(TOGETHER, {"env": env or None, "ports": ports or None, "replicaTypes": types}),
            ("replicaTypes", types)]
