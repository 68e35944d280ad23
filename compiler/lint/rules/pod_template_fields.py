"""A pod template field Kubernetes refuses: a bad or repeated name, a port out of range, an unknown enum value.

**What.** Kubernetes checks every pod template, beyond what the schemas can say:

- container names are DNS-1123 labels (lower-case letters, digits and ``-``, at most 63
  characters), unique among the pod's containers and init containers;
- port names are IANA service names (at most 15 lower-case letters, digits and ``-``, at least
  one letter, no ``--``, no ``-`` at either end), unique in their container; ``containerPort``
  and ``hostPort`` are 1 to 65535; ``protocol`` is ``TCP``, ``UDP`` or ``SCTP``;
- volume names are DNS-1123 labels; a container mounts each path once;
- ``imagePullPolicy`` is ``Always``, ``IfNotPresent`` or ``Never``;
- env var names are letters, digits, ``_``, ``-`` and ``.``, not starting with a digit.

(Resources are AC701 and AC707's, an env ``fieldRef`` AC708's, volume mounts AC706's.)

**Why.** Volcano's job admission webhook runs Kubernetes' pod template validation on every task
(with its default options) and refuses the Volcano Job ("admission webhook validatejob.volcano.sh
denied the request"). The API server refuses a Deployment's or StatefulSet's template, and
every pod ascend-operator creates for an AscendJob, so such a job never runs. One exception:
since Kubernetes 1.32 the API server accepts any printable ASCII env name but ``=``
(RelaxedEnvironmentVariableValidation), so outside a Volcano Job a strict-form violation is a
warning (refused by older clusters); Volcano's webhook always uses the strict form. Sources:
kubernetes ``pkg/apis/core/validation/validation.go`` (validateContainerCommon,
validateContainerPorts, ValidateEnv, ValidateVolumeMounts, validateVolumes),
``VC: pkg/webhooks/admission/jobs/validate/admit_job.go`` (validateTaskTemplate).

**How to fix.** Rename or correct the field as the message says.

Failing::

    containers:
    - name: Trainer_1
      ports:
      - {name: distributed-port, containerPort: 2222, protocol: tcp}

Passing::

    containers:
    - name: trainer-1
      ports:
      - {name: dist-port, containerPort: 2222, protocol: TCP}
"""
import re

from ...findings import WARNING
from ...vocabulary import ASCEND_JOB, DNS1123_LABEL, VOLCANO_JOB
from ..context import as_dict, as_int, as_list
from ..rule import Problem

_CONTAINER_LISTS = ("initContainers", "containers")
_PORT_NAME = re.compile(r"^[-a-z0-9]+$")
_ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_PROTOCOLS = ("TCP", "UDP", "SCTP")
_PULL_POLICIES = ("Always", "IfNotPresent", "Never")


def _refused(obj):
    """What happens to the object when Kubernetes refuses one of its pod templates."""
    if obj.kind == VOLCANO_JOB:
        return "Volcano's admission webhook refuses the job"
    if obj.kind == ASCEND_JOB:
        return "the API server refuses the pods, so the job never runs"
    return "Kubernetes refuses it"


def _port_name_problem(name):
    if len(name) > 15:
        return "is longer than 15 characters"
    if not _PORT_NAME.match(name):
        return "may hold only lower-case letters, digits and '-'"
    if not re.search("[a-z]", name):
        return "needs at least one letter"
    if "--" in name or name.startswith("-") or name.endswith("-"):
        return "may not hold '--' or begin or end with '-'"
    return None


def _env_name_problem(name):
    if _ENV_NAME.match(name) and name != "." and not name.startswith(".."):
        return None
    return "is not a valid env var name (letters, digits, '_', '-' and '.', not starting with a digit)"


def _container(obj, path, container, refused):
    name = container.get("name")
    if isinstance(name, str) and name and (len(name) > 63 or not DNS1123_LABEL.match(name)):
        yield Problem(path + ("name",), f"container name {name!r} is not a DNS-1123 label (lower-case letters, "
                                        f"digits and '-', at most 63 characters): {refused}")
    policy = container.get("imagePullPolicy")
    if isinstance(policy, str) and policy not in _PULL_POLICIES:
        yield Problem(path + ("imagePullPolicy",), f"imagePullPolicy {policy!r} is not one of "
                                                   f"{', '.join(_PULL_POLICIES)}: {refused}")
    yield from _ports(path, container, refused)
    for i, item in enumerate(as_list(container.get("env"))):
        env_name = as_dict(item).get("name")
        why = _env_name_problem(env_name) if isinstance(env_name, str) and env_name else None
        if why:
            if obj.kind == VOLCANO_JOB:
                yield Problem(path + ("env", i, "name"), f"env {env_name!r} {why}: {refused}")
            else:
                yield Problem(path + ("env", i, "name"), f"env {env_name!r} {why}: Kubernetes before 1.32 "
                                                         "refuses the pod (later ones accept it)", severity=WARNING)
    seen = set()
    for i, mount in enumerate(as_list(container.get("volumeMounts"))):
        mount_path = as_dict(mount).get("mountPath")
        if isinstance(mount_path, str) and mount_path:
            if mount_path in seen:
                yield Problem(path + ("volumeMounts", i, "mountPath"),
                              f"container {name!r} mounts {mount_path} twice: {refused}")
            seen.add(mount_path)


def _ports(path, container, refused):
    names = set()
    for i, port in enumerate(as_list(container.get("ports"))):
        port = as_dict(port)
        where = path + ("ports", i)
        name = port.get("name")
        if isinstance(name, str) and name:
            why = _port_name_problem(name)
            if why:
                yield Problem(where + ("name",), f"port name {name!r} {why} (an IANA service name): {refused}")
            elif name in names:
                yield Problem(where + ("name",), f"port name {name!r} is used twice in one container: {refused}")
            names.add(name)
        for key in ("containerPort", "hostPort"):
            number = as_int(port.get(key))
            if number is not None and not 1 <= number <= 65535 and not (key == "hostPort" and number == 0):
                yield Problem(where + (key,), f"{key} {number} is not between 1 and 65535: {refused}")
        protocol = port.get("protocol")
        if isinstance(protocol, str) and protocol not in _PROTOCOLS:
            yield Problem(where + ("protocol",), f"protocol {protocol!r} is not one of {', '.join(_PROTOCOLS)} "
                                                 f"(upper case): {refused}")


def check(obj, run):
    refused = _refused(obj)
    for pod_set in obj.pod_sets():
        spec = pod_set.spec
        names = set()
        for section in _CONTAINER_LISTS:
            for c, container in enumerate(as_list(spec.get(section))):
                if not isinstance(container, dict):
                    continue
                path = pod_set.spec_path + (section, c)
                yield from _container(obj, path, container, refused)
                name = container.get("name")
                if isinstance(name, str) and name:
                    if name in names:
                        yield Problem(path + ("name",), f"the {pod_set.role} pods have two containers named "
                                                        f"{name!r}: {refused}")
                    names.add(name)
        for i, volume in pod_set.volumes():
            name = volume.get("name")
            if isinstance(name, str) and name and (len(name) > 63 or not DNS1123_LABEL.match(name)):
                yield Problem(pod_set.spec_path + ("volumes", i, "name"),
                              f"volume name {name!r} is not a DNS-1123 label (lower-case letters, digits and '-', "
                              f"at most 63 characters): {refused}")
