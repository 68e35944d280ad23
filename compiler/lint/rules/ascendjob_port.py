"""An AscendJob leader's ``ascend`` container has no port named ``ascendjob-port``.

**What.** The ``ascend`` container of every non-Worker replica (Master,
Scheduler, Chief) should declare ``ports: [{name: ascendjob-port,
containerPort: 2222}]``.

**Why.** The operator builds the leader's Service, and MASTER_PORT /
MS_SCHED_PORT / CM_CHIEF_PORT, from the port with that name. It adds port 2222
by default when no port has the name, so a missing port works; but a port
under another name (say ``master``) is then shadowed by the default 2222 and
your chosen port is ignored; if the Service ends up without the port, pod
creation fails with "job<%s/%s> chief service Ip<%s> or port<%s> is empty".
Every upstream sample declares it. Source:
``MC: component/ascend-operator/pkg/api/v1/defaults.go``, ``pkg/controllers/v1/service.go``.


**How to fix.** Declare the port explicitly on the leader's ``ascend`` container.

Failing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1

Passing::

    Master:
      template:
        spec:
          containers:
          - name: ascend
            image: torch:2.1
            ports: [{name: ascendjob-port, containerPort: 2222}]
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
        if any(p.get("name") == PORT_NAME for p in ports):
            continue
        where = container.path + ("ports",) if "ports" in container.data else container.path + ("name",)
        yield Problem(where, f"the ascend container of {pod_set.role} declares no port named {PORT_NAME}; "
                             "the operator's Service and MASTER_PORT use that port",
                      key="ports" in container.data)
