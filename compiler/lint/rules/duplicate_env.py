"""A container defines the same env var twice: the later entry hides the earlier one.

**What.** Two entries of one container's ``env`` (or init container's) share a name, and the later
one does not build on the earlier: it reads a ``valueFrom`` source, or its value does not use
``$(NAME)``, or is exactly ``$(NAME)``.  Extending a variable on purpose (``PATH`` then
``PATH: $(PATH):/opt/bin``) is not reported.

**Why.** The container sees only the last definition, so the first one is dead text that a
reader takes for the value; a patch or ``kubectl apply``, which merge ``env`` by name, may
drop one of the two; the API server answers such a pod with a warning.  The job still runs, so
|severity|.  A template copied and edited, or env added by a patch, easily repeats a name.

**How to fix.** Keep one entry per name (the value you mean), or write the later value in terms
of the earlier one with ``$(NAME)``.

Failing::

    env:
    - name: HCCL_CONNECT_TIMEOUT
      value: "1200"
    - name: HCCL_CONNECT_TIMEOUT
      value: "600"

Passing::

    env:
    - name: HCCL_CONNECT_TIMEOUT
      value: "1200"
    - name: LD_LIBRARY_PATH
      value: /usr/local/Ascend/driver/lib64
    - name: LD_LIBRARY_PATH
      value: $(LD_LIBRARY_PATH):/usr/local/lib
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Dict, Iterator

from ...catalogue.citations import Citation, K8S, Place
from ...manifest.values import as_list
from ..rule import Problem
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("warningsForPodSpecAndMeta", "pkg/api/pod/warnings.go", K8S,
                    "%s: hides previous definition of %q, which may be dropped when using apply",
                    also=(Place("makeEnvironmentVariables", "pkg/kubelet/kubelet_pods.go", K8S),))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        for path, container in pod_containers(pod_set):
            first: Dict[str, int] = {}
            for index, entry in enumerate(as_list(container.get("env"))):
                name = entry.get("name") if isinstance(entry, dict) else None
                if not isinstance(name, str):
                    continue
                if name not in first:
                    first[name] = index
                    continue
                value, reference = entry.get("value"), f"$({name})"
                builds_on = "valueFrom" not in entry and isinstance(value, str) and reference in value and \
                    value != reference
                if not builds_on:
                    yield Problem(path + ("env", index, "name"),
                                  f"env {name!r} is defined again (first at env[{first[name]}]): the container "
                                  "sees only this one, and a merge by name may drop either")
