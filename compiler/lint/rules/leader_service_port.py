"""An AscendJob leader's ``ascend`` container has ports the operator cannot put into the leader's Service.

**What.** The ``ascend`` container of the leader (Master, Scheduler, Chief)
declares a port without a name, or a port on the number of another of its
ports, counting the ``ascendjob-port`` (2222) the operator adds when none is
named so.

**Why.** The operator's defaulting adds ``{name: ascendjob-port, containerPort:
2222}`` to the ``ascend`` container when no port has that name, then builds the
leader's Service with one port per container port name. Kubernetes refuses a
Service with more than one port when a port has no name, and two ports on the
same number. Without the Service the operator creates no pod of the job: it
stays Pending with an empty PodGroup, as the simulated cluster shows (``ports:
[{containerPort: 2222}]`` on a Master). Workers' ports do not count: only the
leader gets a Service.

**How to fix.** Name the rendezvous port ``ascendjob-port``, give every other
port a name and a number of its own, or leave ``ports`` out.

Failing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{containerPort: 2222}]

Passing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{name: ascendjob-port, containerPort: 2222}]
"""
from __future__ import annotations

from typing import Any, Dict, Iterator, List, Optional, TYPE_CHECKING, Tuple

from ...catalogue.citations import Citation, K8S, K8V, MC, OP, Place
from ...manifest.values import as_int, as_list
from ...vocabulary import DEFAULT_PORT, PORT_NAME, WORKER
from ..rule import Problem
from ._util import ascend_container

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...manifest.pods import Container, PodSet

CITATION = Citation("validateServicePort", K8V, K8S, "spec.ports[%d].name: Required value",
                    also=(Place("setDefaultPort", "component/ascend-operator/pkg/api/v1/defaults.go", MC),
                          Place("genServicePorts", OP + "service.go", MC),
                          Place("getOrCreateSvc", OP + "jobinfo.go", MC)))


def service_ports(ports: List[Dict[str, Any]]) -> Dict[str, Optional[int]]:
    """The leader Service's ports (name -> number) the operator builds from the ascend container's ``ports``,
    after its defaulting adds ``ascendjob-port`` when no port has that name."""
    found: Dict[str, Optional[int]] = {}
    for port in ports:
        name = port.get("name")
        found[name if isinstance(name, str) else ""] = as_int(port.get("containerPort"))
    found.setdefault(PORT_NAME, DEFAULT_PORT)
    return found


def service_problem(ports: List[Dict[str, Any]]) -> Optional[Tuple[int, str]]:
    """(index of the offending port, why the Service is refused), or None when it is valid."""
    service = service_ports(ports)
    if len(service) == 1:
        return None  # one port: nothing to clash with
    names = [p.get("name") if isinstance(p.get("name"), str) else "" for p in ports]
    if len(service) > 1 and "" in service:
        return names.index(""), "has no name, and a Service with more than one port needs a name on each"
    seen: Dict[int, str] = {}
    for name, number in service.items():
        if number is None:
            continue
        if number not in seen:
            seen[number] = name
            continue
        mine, other = (name, seen[number]) if name in names else (seen[number], name)
        added = "" if other in names else " (the one the operator adds)"
        return names.index(mine), f"is on {number}, as is {other}{added}, and a Service takes each number once"
    return None


def leader_ports(obj: ObjectContext) -> List[Tuple[PodSet, Container, List[Dict[str, Any]], Optional[Tuple[int, str]]]]:
    """(pod set, ascend container, its port mappings, :func:`service_problem` of them) of every leader replica,
    worked out once per object (ascendjob-port asks too)."""
    found: Optional[List[Tuple[PodSet, Container, List[Dict[str, Any]], Optional[Tuple[int, str]]]]] = \
        obj.shared.get("leader_service_port.leaders")
    if found is None:
        found = []
        for pod_set in obj.pod_sets():
            if pod_set.role == WORKER:
                continue
            container = ascend_container(pod_set)
            if container is not None:
                ports = [p for p in as_list(container.data.get("ports")) if isinstance(p, dict)]
                found.append((pod_set, container, ports, service_problem(ports)))
        obj.shared["leader_service_port.leaders"] = found
    return found


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, container, _, found in leader_ports(obj):
        if found:
            index, why = found
            yield Problem(container.path + ("ports", index),
                          f"{pod_set.role}: this port of the ascend container {why}: Kubernetes refuses the "
                          "leader's Service, so the operator creates no pod")
