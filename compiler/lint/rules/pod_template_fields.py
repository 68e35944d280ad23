"""A pod template field Kubernetes refuses: a bad or repeated name, a port out of range, an unknown enum value.

**What.** Kubernetes checks every pod template, beyond what the schemas can say:

- container names are DNS-1123 labels (lower-case letters, digits and ``-``, at most 63
  characters), unique among the pod's containers and init containers;
- every container and init container names an ``image`` (a template is checked as a pod is;
  an AscendJob's ``ascend`` container is AC210's);
- port names are IANA service names (at most 15 lower-case letters, digits and ``-``, at least
  one letter, no ``--``, no ``-`` at either end), unique in their container; ``containerPort``
  and ``hostPort`` are 1 to 65535; ``protocol`` is ``TCP``, ``UDP`` or ``SCTP``;
- volume names are DNS-1123 labels; a container mounts each path once;
- ``imagePullPolicy`` is ``Always``, ``IfNotPresent`` or ``Never``;
- env var names are letters, digits, ``_``, ``-`` and ``.``, not starting with a digit;
- no two containers of a pod ask for the same ``hostPort`` (with the same protocol and
  ``hostIP``; an init container's ports are checked on their own, init containers run one by one);
- a toleration's ``operator`` is ``Equal`` or ``Exists`` (an empty key needs ``Exists``, which
  takes no value), its ``effect`` ``NoSchedule``, ``PreferNoSchedule`` or ``NoExecute``, and
  ``tolerationSeconds`` comes only with ``NoExecute``;
- with ``hostNetwork: true`` a container's ``hostPort``, when set, equals its ``containerPort``;
- ``dnsPolicy`` is ``ClusterFirst``, ``ClusterFirstWithHostNet``, ``Default`` or ``None`` (which needs
  ``dnsConfig.nameservers``); ``activeDeadlineSeconds`` is at least 1;
- a volume has one source; a ``hostPath`` ``path`` is not empty and has no ``..`` element, its
  ``type`` is ``DirectoryOrCreate``, ``Directory``, ``FileOrCreate``, ``File``, ``Socket``,
  ``CharDevice`` or ``BlockDevice`` (or empty);
- file modes are 0 to 0777 (``755`` written in decimal is not): the ``defaultMode`` of a
  configMap, secret, downwardAPI or projected volume, and the ``mode`` of their items (in a
  projected volume, of each configMap, secret and downwardAPI source's items); configMap and
  secret items' paths (projected ones too) are relative, without ``..``;
- node affinity match expressions use a known operator (``In``, ``NotIn``, ``Exists``,
  ``DoesNotExist``, ``Gt``, ``Lt``) with values as it needs (none for ``Exists``, one for ``Gt``), a
  required node affinity has a term, a preferred one a weight of 1 to 100;
- a topology spread constraint's ``maxSkew`` is at least 1, its ``whenUnsatisfiable``
  ``DoNotSchedule`` or ``ScheduleAnyway``;
- ``runAsUser``, ``runAsGroup``, ``fsGroup`` are 0 to 2147483647; a ``privileged`` container (or
  one adding ``CAP_SYS_ADMIN``) does not set ``allowPrivilegeEscalation: false``.

(Resources are AC701 and AC707's, an env ``fieldRef`` and a downwardAPI file's path and field AC708's,
volume mounts AC706's.)

**Why.** Volcano's job admission webhook runs Kubernetes' pod template
validation on every task (with its default options) and refuses the Volcano Job
("admission webhook validatejob.volcano.sh denied the request"). The API server
refuses a Deployment's or StatefulSet's template, and every pod ascend-operator
creates for an AscendJob, so such a job never runs. One exception: since
Kubernetes 1.32 the API server accepts any printable ASCII env name but ``=``
(RelaxedEnvironmentVariableValidation), so outside a Volcano Job a strict-form
violation is a warning (refused by older clusters); Volcano's webhook always
uses the strict form.

**How to fix.** Rename or correct the field as the message says.

Failing::

    containers:
    - name: Trainer_1
      ports:
      - {name: distributed-port, containerPort: 2222, protocol: tcp}
    tolerations:
    - {key: dedicated, operator: exists, effect: NoSchedule}
    volumes:
    - {name: hccl, configMap: {name: hccl, defaultMode: 755}}
    - {name: driver, hostPath: {path: /usr/local/Ascend/../driver}}

Passing::

    containers:
    - name: trainer-1
      ports:
      - {name: dist-port, containerPort: 2222, protocol: TCP}
    tolerations:
    - {key: dedicated, operator: Exists, effect: NoSchedule}
    volumes:
    - {name: hccl, configMap: {name: hccl, defaultMode: 0755}}
    - {name: driver, hostPath: {path: /usr/local/driver}}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Set, Tuple
import re

from ...catalogue.citations import Citation, K8S, K8V, Place, VC, VCJ
from ...findings import WARNING, Path
from ...vocabulary import ASCEND_JOB, CONTAINER_NAME, DNS1123_LABEL, VOLCANO_JOB
from ...manifest.values import as_int
from ..rule import Problem
from ._pod_spec import check_container, check_pod, check_volume, plain_volumes

if TYPE_CHECKING:
    from ..context import ObjectContext, RunContext

CITATION = Citation("validateTaskTemplate", VCJ, VC, "spec.task[%d].template.spec.volumes[%d].name: Invalid value: "
                                                      "\"%s\": a lowercase RFC 1123 label must consist of lower case "
                                                      "alphanumeric characters or '-' (and the other pod template checks)",
                    also=(Place("validateContainerCommon", K8V, K8S),
                          Place("validateContainerPorts", K8V, K8S),
                          Place("ValidateEnv", K8V, K8S),
                          Place("ValidateVolumeMounts", K8V, K8S),
                          Place("validateVolumes", K8V, K8S),
                          Place("AccumulateUniqueHostPorts", K8V, K8S),
                          Place("validatePodHostNetworkDeps", K8V, K8S),
                          Place("ValidateTolerations", K8V, K8S)))

_PORT_NAME = re.compile(r"^[-a-z0-9]+$")
_ENV_NAME = re.compile(r"^[-._a-zA-Z][-._a-zA-Z0-9]*$")
_PROTOCOLS = ("TCP", "UDP", "SCTP")
_PULL_POLICIES = ("Always", "IfNotPresent", "Never")
_OPERATORS = ("Equal", "Exists", "")
_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute", "")
_LABEL = "is not a DNS-1123 label (lower-case letters, digits and '-', at most 63 characters)"


def _refused(obj: ObjectContext) -> str:
    """What happens to the object when Kubernetes refuses one of its pod templates."""
    if obj.kind == VOLCANO_JOB:
        return "Volcano's admission webhook refuses the job"
    if obj.kind == ASCEND_JOB:
        return "the API server refuses the pods, so the job never runs"
    return "Kubernetes refuses it"


def _label_problem(name: str) -> Optional[str]:
    return None if len(name) <= 63 and DNS1123_LABEL.match(name) else _LABEL


def _port_name_problem(name: str) -> Optional[str]:
    if len(name) > 15:
        return "is longer than 15 characters"
    if not _PORT_NAME.match(name):
        return "may hold only lower-case letters, digits and '-'"
    if not re.search("[a-z]", name):
        return "needs at least one letter"
    if "--" in name or name.startswith("-") or name.endswith("-"):
        return "may not hold '--' or begin or end with '-'"
    return None


def _env_name_problem(name: str) -> Optional[str]:
    if _ENV_NAME.match(name) and name != "." and not name.startswith(".."):
        return None
    return "is not a valid env var name (letters, digits, '_', '-' and '.', not starting with a digit)"


_Judge = Callable[[str], Optional[str]]
#: a host port asked for: where, and its protocol/hostIP/hostPort
_HostPort = Tuple[Path, str]
#: names each judge found nothing wrong with: a run's jobs repeat their names (bounded, whatever the input)
_VALID: Dict[_Judge, Set[str]] = {_label_problem: set(), _port_name_problem: set(), _env_name_problem: set()}


def _problem(judge: _Judge, name: Any) -> Optional[str]:
    """``judge(name)`` for a non-empty string name, else None (the schema check reports other types)."""
    if not isinstance(name, str) or not name:
        return None
    valid = _VALID[judge]
    if name in valid:
        return None
    found = judge(name)
    if found is None and len(valid) < 8192:
        valid.add(name)
    return found


def _all_valid(judge: _Judge, items: List[Any]) -> bool:
    """Whether every item's name is one ``judge`` found nothing wrong with before (one set difference: most
    runs repeat their names); False sends the caller through the items one by one."""
    try:
        return {item["name"] for item in items} <= _VALID[judge]
    except (KeyError, TypeError):  # an item without a name, or not a mapping: one by one
        return False


def _container(obj: ObjectContext, path: Path, container: Dict[str, Any], refused: str, out: List[Problem],
               host: List[_HostPort]) -> None:
    name = container.get("name")
    if _problem(_label_problem, name):
        out.append(Problem(path + ("name",), f"container name {name!r} {_LABEL}: {refused}"))
    image = container.get("image")
    if (image is None or image == "") and not (obj.kind == ASCEND_JOB and name == CONTAINER_NAME
                                               and path[-2] == "containers"):
        out.append(Problem(path + ("image",), f"container {name!r} has no image: {refused}"))
    policy = container.get("imagePullPolicy")
    if policy is not None and isinstance(policy, str) and policy not in _PULL_POLICIES:
        out.append(Problem(path + ("imagePullPolicy",), f"imagePullPolicy {policy!r} is not one of "
                                                        f"{', '.join(_PULL_POLICIES)}: {refused}"))
    ports = container.get("ports")
    if ports:
        _ports(path, ports, refused, out, host)
    env = container.get("env")
    if isinstance(env, list) and not _all_valid(_env_name_problem, env):
        for i, item in enumerate(env):
            env_name = item.get("name") if isinstance(item, dict) else None
            why = _problem(_env_name_problem, env_name)
            if why is None:
                continue
            if obj.kind == VOLCANO_JOB:
                out.append(Problem(path + ("env", i, "name"), f"env {env_name!r} {why}: {refused}"))
            else:
                out.append(Problem(path + ("env", i, "name"), f"env {env_name!r} {why}: Kubernetes before 1.32 "
                                                              "refuses the pod (later ones accept it)",
                                   severity=WARNING))
    if "securityContext" in container:
        check_container(container, path, refused, out)
    mounts = container.get("volumeMounts")
    if isinstance(mounts, list) and len(mounts) > 1 and len(_paths(mounts)) < len(mounts):
        seen: Set[str] = set()
        for i, mount in enumerate(mounts):
            mount_path = mount.get("mountPath") if isinstance(mount, dict) else None
            if isinstance(mount_path, str) and mount_path:
                if mount_path in seen:
                    out.append(Problem(path + ("volumeMounts", i, "mountPath"),
                                       f"container {name!r} mounts {mount_path} twice: {refused}"))
                seen.add(mount_path)


def _paths(mounts: List[Any]) -> Set[Any]:
    """The distinct mount paths; an empty set (look one by one) when a mount is odd (the schema reports it)."""
    try:
        return {m["mountPath"] for m in mounts}
    except (KeyError, TypeError):
        return set()


def _ports(path: Path, ports: Any, refused: str, out: List[Problem], host: List[_HostPort]) -> None:
    """The ports' own checks; every port with a host port goes into ``host`` as (path, protocol/IP/port)."""
    if not isinstance(ports, list):
        return
    names: Set[str] = set()
    for i, port in enumerate(ports):
        if not isinstance(port, dict):
            continue
        name = port.get("name")
        why = _problem(_port_name_problem, name)
        if why:
            out.append(Problem(path + ("ports", i, "name"), f"port name {name!r} {why} (an IANA service name): "
                                                            f"{refused}"))
        elif isinstance(name, str) and name:
            if name in names:
                out.append(Problem(path + ("ports", i, "name"),
                                   f"port name {name!r} is used twice in one container: {refused}"))
            names.add(name)
        for key in ("containerPort", "hostPort"):
            number = port.get(key)
            if number is None or (number.__class__ is int and 0 < number < 65536):
                continue  # most ports: an int in range, or no host port
            number = as_int(number)
            if number is not None and not 1 <= number <= 65535 and not (key == "hostPort" and number == 0):
                out.append(Problem(path + ("ports", i, key), f"{key} {number} is not between 1 and 65535: {refused}"))
        protocol = port.get("protocol")
        if isinstance(protocol, str) and protocol not in _PROTOCOLS:
            out.append(Problem(path + ("ports", i, "protocol"), f"protocol {protocol!r} is not one of "
                                                                f"{', '.join(_PROTOCOLS)} (upper case): {refused}"))
        if port.get("hostPort"):
            host.append((path + ("ports", i, "hostPort"),
                         f"{protocol or 'TCP'}/{port.get('hostIP') or ''}/{as_int(port['hostPort'])}"))


def _host_conflicts(host: List[_HostPort], refused: str, out: List[Problem]) -> None:
    """A protocol/hostIP/hostPort a second time in one pod, which Kubernetes refuses."""
    seen: Set[str] = set()
    for path, key in host:
        if key in seen:
            out.append(Problem(path, f"host port {key} is asked for twice in one pod: {refused}"))
        seen.add(key)


def _tolerations(path: Path, tolerations: List[Any], refused: str, out: List[Problem]) -> None:
    for i, item in enumerate(tolerations):
        if not isinstance(item, dict):
            continue
        at = path + ("tolerations", i)
        operator, effect = item.get("operator") or "", item.get("effect") or ""
        if operator not in _OPERATORS:
            out.append(Problem(at + ("operator",), f"toleration operator {operator!r} is not Equal or Exists: "
                                                   f"{refused}"))
        elif not item.get("key") and operator != "Exists":
            out.append(Problem(at + ("operator",), f"a toleration without a key needs operator Exists: {refused}"))
        elif operator == "Exists" and item.get("value"):
            out.append(Problem(at + ("value",), f"a toleration with operator Exists takes no value: {refused}"))
        if effect not in _EFFECTS:
            out.append(Problem(at + ("effect",), f"toleration effect {effect!r} is not one of "
                                                 f"{', '.join(_EFFECTS[:3])}: {refused}"))
        elif item.get("tolerationSeconds") is not None and effect != "NoExecute":
            out.append(Problem(at + ("tolerationSeconds",), f"tolerationSeconds needs effect NoExecute: {refused}"))


def check(obj: ObjectContext, run: RunContext) -> Iterable[Problem]:
    refused = _refused(obj)
    out: List[Problem] = []
    for pod_set in obj.pod_sets():
        names: Set[str] = set()
        host: List[_HostPort] = []
        for path, container in pod_set.all_containers():
            if path[-2] == "containers":
                _container(obj, path, container, refused, out, host)
            else:  # init containers run one by one: each one's host ports on their own
                own: List[_HostPort] = []
                _container(obj, path, container, refused, out, own)
                if len(own) > 1:
                    _host_conflicts(own, refused, out)
            name = container.get("name")
            if isinstance(name, str) and name:
                if name in names:
                    out.append(Problem(path + ("name",), f"the {pod_set.role} pods have two containers named "
                                                         f"{name!r}: {refused}"))
                names.add(name)
        if len(host) > 1:
            _host_conflicts(host, refused, out)
        tolerations = pod_set.spec.get("tolerations")
        if tolerations and isinstance(tolerations, list):
            _tolerations(pod_set.spec_path, tolerations, refused, out)
        check_pod(pod_set.spec, pod_set.spec_path, refused, out)
        if plain_volumes(pod_set.spec, _VALID[_label_problem]) and not pod_set.downward_volumes():
            continue
        for i, volume in pod_set.volumes():
            at = pod_set.spec_path + ("volumes", i)
            check_volume(volume, at, refused, out)
            name = volume.get("name")
            if _problem(_label_problem, name):
                out.append(Problem(at + ("name",), f"volume name {name!r} {_LABEL}: {refused}"))
    return out
