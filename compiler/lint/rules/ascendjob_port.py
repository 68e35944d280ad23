"""An AscendJob leader's ``ascend`` container declares ports, none of them named ``ascendjob-port``.

**What.** The ``ascend`` container of a non-Worker replica (Master, Scheduler,
Chief) lists ``ports`` but none is named ``ascendjob-port``.

**Why.** A missing port is not a defect: the operator's defaulting adds ``{name:
ascendjob-port, containerPort: 2222}`` to the ``ascend`` container of every
replica that lacks it, and builds the leader's Service and MASTER_PORT /
MS_SCHED_PORT / CM_CHIEF_PORT from that port. So a port declared under another
name (say ``master: 29500``) is not the one the operator advertises: the job
runs, with the rendezvous on 2222. A convention note, hence info. A port without
a name, or one on 2222 under another name, is another matter: the leader's
Service cannot be created (AC217, an error).

**How to fix.** Name the rendezvous port ``ascendjob-port``, or leave ``ports`` out.

Failing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{name: master, containerPort: 29500}]

Passing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{name: ascendjob-port, containerPort: 29500}]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Optional, Sequence

from ...catalogue.citations import Citation, MC
from ...vocabulary import PORT_NAME
from ..rule import Problem
from .leader_service_port import leader_ports

if TYPE_CHECKING:
    from ...findings import Finding
    from ..fixing import Fix
    from ..context import ObjectContext, RunContext

CITATION = Citation("setDefaultPort", "component/ascend-operator/pkg/api/v1/defaults.go", MC)


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, container, ports, refused in leader_ports(obj):
        if not ports or refused or any(p.get("name") == PORT_NAME for p in ports):
            continue  # the operator adds the port when it is missing; AC217 reports a Service it cannot create
        yield Problem(container.path + ("ports",),
                      f"the ascend container of {pod_set.role} declares ports but none named {PORT_NAME}; the "
                      f"operator adds {PORT_NAME} (2222) and its Service and MASTER_PORT use that one", key=True)


def fix(finding: Finding, text: str, docs: Sequence[Any]) -> Optional[Fix]:
    """``lint --fix``: declare the port with the default number, which the operator's defaulting adds anyway, so the
    job runs as before and the file says so; nothing when a declared port already uses that number (AC217 reports
    that leader instead: renaming that port is the fix, not mechanical)."""
    import yaml

    from .. import yamledit
    from ..fixing import Change, Fix, locate
    from ...vocabulary import DEFAULT_PORT
    from ...yamlio.locations import child

    found = locate(finding, docs)
    if found is None or not isinstance(found[1], yaml.SequenceNode):
        return None
    doc, ports = found
    if any(isinstance(port, yaml.MappingNode) and getattr(child(port, "containerPort")[0], "value", None)
           == str(DEFAULT_PORT) for port in ports.value):
        return None  # a port already uses it: renaming that one is the fix, not mechanical
    edit = yamledit.append_item(text, ports, [("name", PORT_NAME), ("containerPort", str(DEFAULT_PORT))])
    if edit is None:
        return None
    return Fix(finding, edit.start, edit.end, edit.text,
               f"declare the port the operator adds anyway: {PORT_NAME} {DEFAULT_PORT}",
               Change(doc, finding.path + (len(ports.value),), {"name": PORT_NAME, "containerPort": DEFAULT_PORT}))
