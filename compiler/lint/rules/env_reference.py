"""An env value, command or argument refers to ``$(VAR)`` that the container does not define before it: it stays as written.

**What.** Kubernetes replaces ``$(VAR)`` in a container's env values with the value of
``VAR`` only when an **earlier** entry of the same container's ``env`` (or its ``envFrom``, or a
Service link variable) defines it; in ``command`` and ``args`` any entry of the container's
``env`` counts. A reference to anything else is left as it is: the program gets the text
``$(VAR)``. ``$$(VAR)`` is the escape for a literal ``$(VAR)`` and is not a reference.

Not reported: references in a container with ``envFrom`` (its ConfigMap or Secret may define any
name), names the kubelet's Service links may define (``KUBERNETES_*``, ``*_SERVICE_HOST``,
``*_SERVICE_PORT*``, ``*_PORT*``), text inside ``$(...)`` that is no env var name, and in
``command``/``args``: names with lower-case letters (``$(hostname)`` is the shell's command
substitution) and any name in an AscendJob or Volcano Job (the operator and Volcano's job
plugins add variables of their own, ``MASTER_ADDR``, ``VC_TASK_INDEX``, ... at the end of
``env``: an env value cannot use them, ``command`` and ``args`` can).

**Why.** The container starts with a wrong value (a path such as
``$(MINDIE_USER_HOME_PATH)/mindie`` that does not exist), very likely not as meant: a warning.
The kubelet expands each env entry against the entries before it, then adds it; the variables
ascend-operator and Volcano's plugins add come after the pod's own.

**How to fix.** Define the variable in an env entry above the one that uses it, or write the
value out.

Failing::

    env:
    - name: MIES_INSTALL_PATH
      value: $(MINDIE_USER_HOME_PATH)/Ascend/mindie/latest/mindie-service
    - name: MINDIE_USER_HOME_PATH
      value: /usr/local

Passing::

    env:
    - name: MINDIE_USER_HOME_PATH
      value: /usr/local
    - name: MIES_INSTALL_PATH
      value: $(MINDIE_USER_HOME_PATH)/Ascend/mindie/latest/mindie-service
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Set, Tuple

from ...catalogue.citations import Citation, K8S, MC, OP, Place, VC
from ...manifest.values import as_list
from ...vocabulary import JOBS
from ..rule import Problem
from ._util import pod_containers

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext
    from ...findings import Path

CITATION = Citation("makeEnvironmentVariables", "pkg/kubelet/kubelet_pods.go", K8S,
                    also=(Place("ExpandContainerCommandAndArgs", "pkg/kubelet/container/helpers.go", K8S),
                          Place("Expand", "third_party/forked/golang/expansion/expand.go", K8S),
                          Place("addEnvValue", OP + "env.go", MC),
                          Place("", "pkg/controllers/job/plugins/env/env.go", VC),
                          Place("", "pkg/controllers/job/plugins/svc/svc.go", VC)))

#: an env var name as Kubernetes validates it (IsEnvVarName)
_ENV_NAME = re.compile(r"[-._a-zA-Z][-._a-zA-Z0-9]*")


def _service_link(name: str) -> bool:
    """Whether ``name`` can be a Service link variable of the kubelet (envvars.FromServices: ``X_SERVICE_HOST``,
    ``X_SERVICE_PORT[_...]``, ``X_PORT[_...]``) or the master service's (``KUBERNETES_...``).  A scan, not a
    regular expression: ``.+_PORT(_.+)?`` backtracks quadratically on a long name full of ``_PORT``."""
    if name.startswith("KUBERNETES_"):
        return True
    for marker in ("_SERVICE_HOST", "_PORT"):  # "_SERVICE_PORT" ends in "_PORT"
        start = name.find(marker, 1)  # something before the marker
        while start >= 0:
            end = start + len(marker)
            if end == len(name) or (name[end] == "_" and end + 1 < len(name)):
                return True
            start = name.find(marker, start + 1)
    return False


def references(text: str) -> List[str]:
    """The names ``text`` refers to as ``$(NAME)``, in order, as the kubelet's expansion reads them."""
    found = []
    cursor = 0
    while cursor < len(text) - 1:
        if text[cursor] != "$":
            cursor += 1
            continue
        following = text[cursor + 1]
        if following == "(":
            closer = text.find(")", cursor + 2)
            if closer >= 0:
                found.append(text[cursor + 2:closer])
                cursor = closer + 1
                continue
        cursor += 2 if following == "$" else 1  # "$$" is an escaped "$"; a lone "$" or "$(" stays as it is
    return found


def _unknowable(name: str, links: bool) -> bool:
    """Whether ``name`` may be defined by what lint cannot see (a Service link), or is no env var name at all."""
    if not _ENV_NAME.fullmatch(name):
        return True
    return _service_link(name) and (links or name.startswith("KUBERNETES_"))


def check(obj: ObjectContext, run: RunContext) -> Iterator[Problem]:
    for pod_set in obj.pod_sets():
        links = pod_set.spec.get("enableServiceLinks") is not False
        for path, container in pod_containers(pod_set):
            if container.get("envFrom"):
                continue
            yield from _check_container(obj, path, container, links)


def _check_container(obj: ObjectContext, path: Path, container: Dict[str, Any], links: bool) -> Iterator[Problem]:
    entries: List[Tuple[int, Any, Any]] = [(i, e.get("name"), e.get("value"))
                                           for i, e in enumerate(as_list(container.get("env"))) if isinstance(e, dict)]
    first_at: Dict[str, int] = {}
    for i, name, _ in entries:
        if isinstance(name, str):
            first_at.setdefault(name, i)
    label = container.get("name") if isinstance(container.get("name"), str) else "?"
    defined: Set[str] = set()
    for i, name, value in entries:
        if isinstance(value, str) and value:
            for ref in dict.fromkeys(references(value)):
                if ref in defined or _unknowable(ref, links):
                    continue
                later = next((j for j, other, _ in entries if j > i and other == ref), None)
                where = f"env[{later}] defines it after this entry, and Kubernetes expands only the entries before" \
                    if later is not None else f"container {label!r} defines no such variable"
                yield Problem(path + ("env", i, "value"),
                              f"env {name!r} refers to $({ref}): {where}, so the value keeps the text $({ref})")
        if isinstance(name, str):
            defined.add(name)
    if obj.kind in JOBS:
        return  # the operator and Volcano add variables to the env that command and args may use
    for section in ("command", "args"):
        for j, item in enumerate(as_list(container.get(section))):
            if not isinstance(item, str):
                continue
            for ref in dict.fromkeys(references(item)):
                if ref in first_at or ref.upper() != ref or _unknowable(ref, links):
                    continue
                yield Problem(path + (section, j),
                              f"{section}[{j}] refers to $({ref}), which container {label!r} does not define in its "
                              f"env, so it keeps the text $({ref})")
