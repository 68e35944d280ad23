"""An AscendJob leader's ``ascend`` container declares ports, none of them named ``ascendjob-port``.

**What.** The ``ascend`` container of a non-Worker replica (Master, Scheduler,
Chief) lists ``ports`` but none is named ``ascendjob-port``.

**Why.** A missing port is not a defect: the operator's defaulting adds
``{name: ascendjob-port, containerPort: 2222}`` to the ``ascend`` container of
every replica that lacks it, and builds the leader's Service and MASTER_PORT /
MS_SCHED_PORT / CM_CHIEF_PORT from that port. So a port declared under another
name (say ``master: 29500``) is not the one the operator advertises: the job
runs, with the rendezvous on 2222. A convention note, hence info.
Source: ``setDefaultPort`` in ``component/ascend-operator/pkg/api/v1/defaults.go``
(mind-cluster ``22bb3d98``); the operator reports nothing.

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
from ..context import as_list
from ...vocabulary import PORT_NAME, WORKER
from ..rule import Problem
from ._util import ascend_container


def check(obj, run):
    for pod_set in obj.pod_sets():
        if pod_set.role == WORKER:
            continue
        container = ascend_container(pod_set)
        if container is None:
            continue  # AC210
        ports = [p for p in as_list(container.data.get("ports")) if isinstance(p, dict)]
        if not ports or any(p.get("name") == PORT_NAME for p in ports):
            continue  # the operator adds the port when it is missing
        yield Problem(container.path + ("ports",),
                      f"the ascend container of {pod_set.role} declares ports but none named {PORT_NAME}; the "
                      f"operator adds {PORT_NAME} (2222) and its Service and MASTER_PORT use that one", key=True)
