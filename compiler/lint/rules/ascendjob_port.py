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

from typing import TYPE_CHECKING, Iterator

from ...vocabulary import PORT_NAME
from ..rule import Problem
from .leader_service_port import leader_ports

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set, container, ports, refused in leader_ports(obj):
        if not ports or refused or any(p.get("name") == PORT_NAME for p in ports):
            continue  # the operator adds the port when it is missing; AC217 reports a Service it cannot create
        yield Problem(container.path + ("ports",),
                      f"the ascend container of {pod_set.role} declares ports but none named {PORT_NAME}; the "
                      f"operator adds {PORT_NAME} (2222) and its Service and MASTER_PORT use that one", key=True)
