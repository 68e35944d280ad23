"""AC709's pod-level checks: the parts of Kubernetes' pod spec validation beyond names, ports and tolerations.

Each check reads the field it judges only when the field is there (most templates have none of them)
and reports what Kubernetes refuses *after* its defaults (an absent ``dnsPolicy`` becomes
``ClusterFirst``, a volume without a source an ``emptyDir``, an absent ``hostPort`` of a template is
left alone). A field of the wrong type is the schema check's. Sources, kubernetes
``pkg/apis/core/validation/validation.go``: validatePodHostNetworkDeps, validateDNSPolicy,
validatePodDNSConfig, ValidatePodSpec (activeDeadlineSeconds), validateVolumeSource,
validateHostPathVolumeSource, validatePathNoBacksteps, validateConfigMapVolumeSource, validateSecretVolumeSource,
validateDownwardAPIVolumeSource, validateDownwardAPIVolumeFile (its mode; the rest is AC708's),
validateProjectedVolumeSource, validateProjectionSources, validateKeyToPath, ValidateNodeSelectorRequirement,
ValidateNodeSelector, ValidatePreferredSchedulingTerms, validateTopologySpreadConstraints, ValidateSecurityContext,
validatePodSpecSecurityContext.
"""
from __future__ import annotations

import re
from typing import Any, AbstractSet, Dict, List, Optional, Tuple

from ...findings import Path
from ...manifest.values import as_list
from ..rule import Problem

_DNS_POLICIES = ("ClusterFirst", "ClusterFirstWithHostNet", "Default", "None")
_HOST_PATH_TYPES = ("", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice",
                    "BlockDevice")
_HOST_PATH_OK = frozenset(_HOST_PATH_TYPES + (None,))
_NODE_OPERATORS = ("In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt")
#: (operator, number of values, 2 for more) that Kubernetes takes in a node selector requirement
_RIGHT = frozenset((("In", 1), ("In", 2), ("NotIn", 1), ("NotIn", 2), ("Exists", 0), ("DoesNotExist", 0), ("Gt", 1),
                    ("Lt", 1)))
_WHENS = ("requiredDuringSchedulingIgnoredDuringExecution", "preferredDuringSchedulingIgnoredDuringExecution")
_WHEN_UNSATISFIABLE = ("DoNotSchedule", "ScheduleAnyway")
#: the volume sources of core/v1 VolumeSource Kubernetes counts (at most one a volume)
_SOURCES = frozenset((
    "hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret", "nfs", "iscsi",
    "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc",
    "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk", "projected",
    "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral"))
_MAX_ID = 2147483647


def _int(value: Any) -> Optional[int]:
    return value if value.__class__ is int else None


def check_pod(spec: Dict[str, Any], at: Path, refused: str, out: List[Problem]) -> None:
    """The pod-level checks of one pod template's ``spec`` (at path ``at``), each only when its field is there."""
    get = spec.get
    affinity = get("affinity")
    if affinity and isinstance(affinity, dict) and affinity.get("nodeAffinity"):
        _node_affinity(affinity["nodeAffinity"], at + ("affinity", "nodeAffinity"), refused, out)
    if get("hostNetwork") is True:
        _host_network(spec, at, refused, out)
    policy = get("dnsPolicy")
    if policy and isinstance(policy, str) and (policy not in _DNS_POLICIES or policy == "None"):
        _dns(spec, policy, at, refused, out)
    deadline = get("activeDeadlineSeconds")
    if deadline.__class__ is int and not 1 <= deadline <= _MAX_ID:
        out.append(Problem(at + ("activeDeadlineSeconds",), f"activeDeadlineSeconds {deadline} is not between 1 and "
                                                            f"{_MAX_ID} (leave it out for no deadline): {refused}"))
    spread = get("topologySpreadConstraints")
    if spread and isinstance(spread, list):
        _spread(spread, at + ("topologySpreadConstraints",), refused, out)
    context = get("securityContext")
    if context and isinstance(context, dict):
        _ids(context, at + ("securityContext",), ("runAsUser", "runAsGroup", "fsGroup"), refused, out)


def check_container(container: Dict[str, Any], at: Path, refused: str, out: List[Problem]) -> None:
    """A container's ``securityContext``: ids in range, no privileged container that may not escalate."""
    context = container.get("securityContext")
    if not context or not isinstance(context, dict):
        return
    at = at + ("securityContext",)
    _ids(context, at, ("runAsUser", "runAsGroup"), refused, out)
    if context.get("allowPrivilegeEscalation") is False:
        if context.get("privileged") is True:
            out.append(Problem(at + ("allowPrivilegeEscalation",), "a privileged container cannot set "
                                                                   "allowPrivilegeEscalation: false (drop one of "
                                                                   f"them): {refused}"))
        capabilities = context.get("capabilities")
        if isinstance(capabilities, dict) and "CAP_SYS_ADMIN" in as_list(capabilities.get("add")):
            out.append(Problem(at + ("allowPrivilegeEscalation",), "a container that adds CAP_SYS_ADMIN cannot set "
                                                                   f"allowPrivilegeEscalation: false: {refused}"))


def _ids(context: Dict[str, Any], at: Path, keys: Tuple[str, ...], refused: str, out: List[Problem]) -> None:
    for key in keys:
        number = _int(context.get(key))
        if number is not None and not 0 <= number <= _MAX_ID:
            out.append(Problem(at + (key,), f"{key} {number} is not between 0 and {_MAX_ID}: {refused}"))


def _host_network(spec: Dict[str, Any], at: Path, refused: str, out: List[Problem]) -> None:
    """With hostNetwork a set hostPort must equal containerPort (an absent one is
    defaulted to it when the pod is made); init containers are not checked."""
    for c, container in enumerate(as_list(spec.get("containers"))):
        ports = container.get("ports") if isinstance(container, dict) else None
        if not ports or not isinstance(ports, list):
            continue
        for p, port in enumerate(ports):
            if not isinstance(port, dict):
                continue
            host, own = _int(port.get("hostPort")), _int(port.get("containerPort"))
            if host and own is not None and host != own:
                out.append(Problem(at + ("containers", c, "ports", p, "hostPort"),
                                   f"hostPort {host} differs from containerPort {own} with hostNetwork: true (the "
                                   f"pod listens on the node's own port: leave hostPort out or make them equal): "
                                   f"{refused}"))


def _dns(spec: Dict[str, Any], policy: str, at: Path, refused: str, out: List[Problem]) -> None:
    if policy not in _DNS_POLICIES:
        out.append(Problem(at + ("dnsPolicy",), f"dnsPolicy {policy!r} is not one of {', '.join(_DNS_POLICIES)}: "
                                                f"{refused}"))
    elif policy == "None":
        config = spec.get("dnsConfig")
        if not isinstance(config, dict) or not config.get("nameservers"):
            out.append(Problem(at + ("dnsPolicy",), "dnsPolicy None needs dnsConfig.nameservers (at least one): "
                                                    f"{refused}"))


_SOURCE_KEYS_CHECKED = frozenset(("defaultMode", "items"))  # what check_volume reads of a configMap or secret source


def plain_volumes(spec: Dict[str, Any], names: AbstractSet[Any]) -> bool:
    """Whether every volume of ``spec`` is a name from ``names`` and one source :func:`check_volume` has nothing
    to look at (most are: one pass, done together with the caller's names check); downwardAPI and projected
    volumes are not looked at here (the caller asks its pod set for them)."""
    try:
        for volume in spec.get("volumes") or ():
            if len(volume) != 2 or volume["name"] not in names:
                return False
            host = volume.get("hostPath")
            if host is not None:
                path = host["path"]
                if host.get("type") not in _HOST_PATH_OK or not path or ".." in path:
                    return False
            else:
                data = volume.get("configMap") or volume.get("secret")
                if data is not None and not _SOURCE_KEYS_CHECKED.isdisjoint(data):
                    return False
    except (AttributeError, KeyError, TypeError):  # an odd field (the schema check's): the caller looks at each
        return False
    return True


def check_volume(volume: Dict[Any, Any], at: Path, refused: str, out: List[Problem]) -> None:
    """One volume: one source at most; a hostPath ``path`` without ``..`` and a ``type`` Kubernetes knows;
    configMap, secret, downwardAPI and projected file modes, and configMap and secret item paths."""
    sources = [key for key in volume if key in _SOURCES and volume[key] is not None]
    if len(sources) > 1:
        out.append(Problem(at + (sources[1],), f"volume {volume.get('name')!r} has {len(sources)} sources "
                                               f"({', '.join(sources)}); a volume takes one: {refused}"))
        return
    source = sources[0] if sources else None
    data = volume.get(source)
    if not isinstance(data, dict):
        return
    if source == "hostPath":
        path = data.get("path")
        if path == "":
            out.append(Problem(at + ("hostPath", "path"), f"hostPath of volume {volume.get('name')!r} has an empty "
                                                          f"path: {refused}"))
        elif isinstance(path, str) and ".." in path.split("/"):
            out.append(Problem(at + ("hostPath", "path"), f"hostPath path {path!r} has a '..' element (write the "
                                                          f"path without it): {refused}"))
        kind = data.get("type")
        if isinstance(kind, str) and kind not in _HOST_PATH_TYPES:
            out.append(Problem(at + ("hostPath", "type"), f"hostPath type {kind!r} is not one of "
                                                          f"{', '.join(_HOST_PATH_TYPES[1:])} (or empty): {refused}"))
    elif source in ("configMap", "secret"):
        _modes(data, at + (source,), refused, out)
    elif source == "downwardAPI":
        _modes(data, at + (source,), refused, out, paths=False)  # a file's path is AC708's
    elif source == "projected":
        _projected(data, at + (source,), refused, out)


def _mode_problem(value: Any) -> Optional[str]:
    mode = _int(value)
    if mode is None or 0 <= mode <= 0o777:
        return None
    hint = f" (write it in octal, 0{mode}, or as {int(str(mode), 8)})" if re.fullmatch("[0-7]{3}", str(mode)) else ""
    return f"{mode} is not a file mode between 0 and 0777 (511){hint}"


def _projected(data: Dict[str, Any], at: Path, refused: str, out: List[Problem]) -> None:
    """A projected volume's ``defaultMode``, and its sources' items (a projection source has no defaultMode)."""
    _modes(data, at, refused, out, items=False)
    sources = data.get("sources")
    for i, source in enumerate(sources if isinstance(sources, list) else ()):
        if not isinstance(source, dict):
            continue
        for kind in ("configMap", "secret", "downwardAPI"):
            if isinstance(source.get(kind), dict):
                _modes(source[kind], at + ("sources", i, kind), refused, out, default=False,
                       paths=kind != "downwardAPI")


def _modes(data: Dict[str, Any], at: Path, refused: str, out: List[Problem], default: bool = True,
           items: bool = True, paths: bool = True) -> None:
    """The ``defaultMode`` (``default``), and the items' ``mode`` and (``paths``) ``path`` of a volume source."""
    why = _mode_problem(data.get("defaultMode")) if default else None
    if why:
        out.append(Problem(at + ("defaultMode",), f"defaultMode {why}: {refused}"))
    listed = data.get("items") if items else None
    if not listed or not isinstance(listed, list):
        return
    for i, item in enumerate(listed):
        if not isinstance(item, dict):
            continue
        why = _mode_problem(item.get("mode"))
        if why:
            out.append(Problem(at + ("items", i, "mode"), f"mode {why}: {refused}"))
        path = item.get("path") if paths else None
        if isinstance(path, str) and path and (path.startswith("/") or ".." in path.split("/")
                                               or path.startswith("..")):
            out.append(Problem(at + ("items", i, "path"), f"item path {path!r} must be relative, without '..': "
                                                          f"{refused}"))


def _node_affinity(node: Any, at: Path, refused: str, out: List[Problem]) -> None:
    if not isinstance(node, dict):
        return
    required = node.get("requiredDuringSchedulingIgnoredDuringExecution")
    if isinstance(required, dict):
        where = at + (_WHENS[0],)
        terms = required.get("nodeSelectorTerms")
        if not terms:
            out.append(Problem(where, f"required node affinity needs at least one nodeSelectorTerms entry: {refused}"))
        elif isinstance(terms, list):
            for i, term in enumerate(terms):
                _expressions(term, refused, out, where, "nodeSelectorTerms", i)
    preferred = node.get(_WHENS[1])
    if preferred and isinstance(preferred, list):
        for i, term in enumerate(preferred):
            if not isinstance(term, dict):
                continue
            weight = _int(term.get("weight"))
            if weight is not None and not 1 <= weight <= 100:
                out.append(Problem(at + (_WHENS[1], i, "weight"), f"weight {weight} is not between 1 and 100: "
                                                                  f"{refused}"))
            _expressions(term.get("preference"), refused, out, at, _WHENS[1], i, "preference")


def _expressions(term: Any, refused: str, out: List[Problem], at: Path, *where: str | int) -> None:
    """A node selector term's matchExpressions (at ``at`` + ``where``): a known operator, values as it needs."""
    expressions = term.get("matchExpressions") if isinstance(term, dict) else None
    if not expressions or not isinstance(expressions, list):
        return
    for i, expression in enumerate(expressions):
        if not isinstance(expression, dict):
            continue
        operator, values = expression.get("operator"), expression.get("values")
        count = len(values) if isinstance(values, list) else 0
        if not isinstance(operator, str) or (operator, count if count < 2 else 2) in _RIGHT:
            continue  # most expressions: a known operator with as many values as it takes
        path = at + where + ("matchExpressions", i)
        if operator not in _NODE_OPERATORS:
            out.append(Problem(path + ("operator",), f"operator {operator!r} is not one of "
                                                     f"{', '.join(_NODE_OPERATORS)}: {refused}"))
        elif operator in ("In", "NotIn") and not count:
            out.append(Problem(path + ("operator",), f"operator {operator} needs values (at least one): {refused}"))
        elif operator in ("Exists", "DoesNotExist") and count:
            out.append(Problem(path + ("values",), f"operator {operator} takes no values: {refused}"))
        elif operator in ("Gt", "Lt") and count != 1:
            out.append(Problem(path + ("operator",), f"operator {operator} takes exactly one value: {refused}"))


def _spread(constraints: List[Any], at: Path, refused: str, out: List[Problem]) -> None:
    for i, constraint in enumerate(constraints):
        if not isinstance(constraint, dict):
            continue
        skew = _int(constraint.get("maxSkew"))
        if skew is not None and skew < 1:
            out.append(Problem(at + (i, "maxSkew"), f"maxSkew {skew} must be at least 1: {refused}"))
        when = constraint.get("whenUnsatisfiable")
        if isinstance(when, str) and when not in _WHEN_UNSATISFIABLE:
            out.append(Problem(at + (i, "whenUnsatisfiable"), f"whenUnsatisfiable {when!r} is not "
                                                               f"{' or '.join(_WHEN_UNSATISFIABLE)}: {refused}"))

