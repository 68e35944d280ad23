"""An inventory from plain Kubernetes objects (JSON as ``kubectl get -o json`` or the Python client gives them).

Only what the checks need is taken: node labels, NPU counts, the plugin's device annotations and
taints; queue state and capability; the *names* of PVCs and ConfigMaps (never their data); the
image tags of the Volcano, Ascend plugin and operator Deployments (never their env or arguments).
"""
from __future__ import annotations

from typing import Any, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..manifest.pods import pod_of
from ..vocabulary import NPU_RESOURCE_PREFIX
from .model import ASCEND_OPERATOR, ASCEND_PLUGIN, VOLCANO, Inventory, Node, Queue, Taint

#: node annotations the Ascend plugin reads besides ``huawei.com/*`` (none kept: baseDeviceInfos carries addresses)
DEVICE_ANNOTATION_PREFIX = NPU_RESOURCE_PREFIX
#: Deployment (or container) names that say which component an image is, and the component it is
_COMPONENT_NAMES = (("volcano-scheduler", VOLCANO), ("vc-scheduler", VOLCANO), ("ascend-operator", ASCEND_OPERATOR))
#: the image name parts of the Ascend plugin built into the scheduler image (MindCluster's build names it so)
_PLUGIN_IMAGE_PARTS = ("volcano-npu", "ascend-for-volcano", "ascend-volcano")


def nodes_from(nodes: Iterable[Mapping[str, Any]], pods: Iterable[Mapping[str, Any]]) -> Tuple[Node, ...]:
    """Every node with its NPUs: allocatable, and used by the ``pods`` bound there (give the pods that have not
    ended), with who holds them."""
    used: Dict[str, Dict[str, int]] = {}
    holders: Dict[str, Dict[str, int]] = {}
    for pod in pods:
        bound = str((pod.get("spec") or {}).get("nodeName") or "")
        if not bound or str((pod.get("status") or {}).get("phase") or "") in ("Succeeded", "Failed"):
            continue
        for resource, count in pod_of(pod).npus_by_resource().items():
            used.setdefault(bound, {})[resource] = used.get(bound, {}).get(resource, 0) + count
            holder = _holder(pod)
            holders.setdefault(bound, {})[holder] = holders.get(bound, {}).get(holder, 0) + count
    out = [node_of(node, used.get(name, {}), holders.get(name, {}))
           for node in nodes for name in [str((node.get("metadata") or {}).get("name", ""))]]
    return tuple(sorted(out, key=lambda n: n.name))


def node_of(node: Mapping[str, Any], used: Dict[str, int], holders: Dict[str, int]) -> Node:
    meta, spec, status = node.get("metadata") or {}, node.get("spec") or {}, node.get("status") or {}
    alloc = {str(k): as_count(v) for k, v in (status.get("allocatable") or {}).items()
             if str(k).startswith(NPU_RESOURCE_PREFIX)}
    ready = any(c.get("type") == "Ready" and c.get("status") == "True" for c in status.get("conditions") or []
                if isinstance(c, dict))
    annotations = {str(k): str(v) for k, v in (meta.get("annotations") or {}).items()
                   if str(k).startswith(DEVICE_ANNOTATION_PREFIX)}
    taints = tuple(Taint(str(t.get("key") or ""), str(t.get("value") or ""), str(t.get("effect") or ""))
                   for t in spec.get("taints") or [] if isinstance(t, dict))
    return Node(str(meta.get("name", "")), {str(k): str(v) for k, v in (meta.get("labels") or {}).items()}, alloc,
                dict(used), ready, bool(spec.get("unschedulable")), dict(holders), annotations, taints)


def _holder(pod: Mapping[str, Any]) -> str:
    meta = pod.get("metadata") or {}
    owner = next((r for r in meta.get("ownerReferences") or [] if isinstance(r, dict) and r.get("controller")), None)
    return f"{meta.get('namespace', '')}/{(owner or {}).get('name') or meta.get('name', '')}"


def queue_of(queue: Mapping[str, Any]) -> Queue:
    spec, status = queue.get("spec") or {}, queue.get("status") or {}
    return Queue(str((queue.get("metadata") or {}).get("name", "")), str(status.get("state") or spec.get("state") or "Open"),
                 {str(k): str(v) for k, v in (spec.get("capability") or {}).items()},
                 {str(k): str(v) for k, v in (status.get("allocated") or {}).items()})


def names_by_namespace(objects: Iterable[Mapping[str, Any]], namespaces: Sequence[str] = ()) -> Dict[str, FrozenSet[str]]:
    """namespace -> the names of ``objects`` there: every namespace of ``namespaces`` (maybe empty) and no other;
    with no ``namespaces``, those the objects are in."""
    out: Dict[str, Set[str]] = {ns: set() for ns in namespaces}
    for obj in objects:
        meta = obj.get("metadata") or {}
        space = str(meta.get("namespace") or "")
        if space in out or not namespaces:
            out.setdefault(space, set()).add(str(meta.get("name") or ""))
    return {ns: frozenset(names) for ns, names in sorted(out.items())}


def versions_from(deployments: Iterable[Mapping[str, Any]]) -> Dict[str, str]:
    """component -> the tag of its image, from the Deployments that run Volcano's scheduler, the Ascend plugin
    (an image of the scheduler built with it) and ascend-operator."""
    out: Dict[str, str] = {}
    for deployment in deployments:
        name = str((deployment.get("metadata") or {}).get("name") or "")
        template = ((deployment.get("spec") or {}).get("template") or {}).get("spec") or {}
        for container in template.get("containers") or []:
            if not isinstance(container, dict):
                continue
            image = str(container.get("image") or "")
            component = _component(name, str(container.get("name") or ""), image)
            if component is not None and component not in out:
                out[component] = image_tag(image)
            if component == VOLCANO and any(part in image for part in _PLUGIN_IMAGE_PARTS):
                out.setdefault(ASCEND_PLUGIN, image_tag(image))
    return dict(sorted(out.items()))


def _component(deployment: str, container: str, image: str) -> Optional[str]:
    for part, component in _COMPONENT_NAMES:
        if part in deployment or part in container:
            return component
    return None


def image_tag(image: str) -> str:
    """The tag (or digest) of an image reference, "" when it has none."""
    if "@" in image:
        return image.rpartition("@")[2]
    last = image.rpartition("/")[2]
    return last.rpartition(":")[2] if ":" in last else ""


def plugin_version_from_config(config_maps: Iterable[Mapping[str, Any]]) -> str:
    """The Ascend plugin's version from the scheduler's configuration (its tier names ``volcano-npu_<version>``)."""
    import re

    pattern = re.compile(r"volcano-npu[_-](v?[0-9][0-9A-Za-z.\-]*)")
    for cm in config_maps:
        for value in (cm.get("data") or {}).values():
            found = pattern.search(str(value))
            if found:
                return found.group(1)
    return ""


#: the Ascend plugin's settings in the scheduler configuration, and its multi-level topology among them
INIT_PARAMS, RESOURCE_LEVEL_CONFIG = "init-params", "resource-level-config"
LEVEL_PREFIX = "level"


def scheduler_settings(config_maps: Iterable[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """The Ascend plugin's ``init-params`` arguments ({} when it has none) from the Volcano scheduler configuration
    whose tiers load the plugin (a ``volcano-npu*`` plugin), the first such ConfigMap by namespace and name; None
    when no ConfigMap holds one."""
    import yaml

    found = sorted(config_maps, key=lambda cm: (str((cm.get("metadata") or {}).get("namespace") or ""),
                                                str((cm.get("metadata") or {}).get("name") or "")))
    for cm in found:
        for text in (cm.get("data") or {}).values():
            if "volcano-npu" not in str(text):
                continue
            try:
                conf = yaml.safe_load(str(text))
            except yaml.YAMLError:
                continue
            if not isinstance(conf, dict) or not _loads_plugin(conf):
                continue
            for entry in conf.get("configurations") or []:
                if isinstance(entry, dict) and entry.get("name") == INIT_PARAMS:
                    arguments = entry.get("arguments")
                    return dict(arguments) if isinstance(arguments, dict) else {}
            return {}
    return None


def _loads_plugin(conf: Mapping[str, Any]) -> bool:
    return any(isinstance(plugin, dict) and str(plugin.get("name") or "").startswith("volcano-npu")
               for tier in conf.get("tiers") or [] if isinstance(tier, dict)
               for plugin in tier.get("plugins") or [])


def resource_levels_from(settings: Optional[Mapping[str, Any]]) -> Optional[Dict[str, Tuple[str, ...]]]:
    """The multi-level topology trees the plugin reads from its ``resource-level-config`` (a JSON object: tree name ->
    ``{"level1": {"label": ...}, ...}``): each tree whose levels run ``level1`` to ``levelN`` without a gap, with the
    node label of each; {} when it has none, or JSON the plugin cannot read (then it uses none); None when the
    settings were not read, or the value is not text (whether the plugin reads that is not known)."""
    import json

    if settings is None:
        return None
    text = settings.get(RESOURCE_LEVEL_CONFIG)
    if text is None:
        return {}
    if not isinstance(text, str):
        return None
    try:
        config = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(config, dict) or not all(isinstance(tree, dict) and all(_readable(level) for level in tree.values())
                                               for tree in config.values()):
        return {}  # the plugin's JSON decoding fails: it uses no topology at all
    out: Dict[str, Tuple[str, ...]] = {}
    for name, tree in config.items():
        levels = [tree.get(f"{LEVEL_PREFIX}{i}") for i in range(1, len(tree) + 1)]
        if all(isinstance(level, dict) for level in levels):  # else a gap: the plugin skips the tree
            out[str(name)] = tuple(_field(level, "label") or "" for level in levels)
    return dict(sorted(out.items()))


def _field(level: Dict[str, Any], name: str) -> Any:
    """A level's field as Go's JSON decoding finds it (the key in any case; the last one wins)."""
    found = [value for key, value in level.items() if str(key).lower() == name.lower()]
    return found[-1] if found else None


def _readable(level: Any) -> bool:
    """Whether the plugin decodes a level: an object whose label is text and whose reservedNode is a whole number."""
    if not isinstance(level, dict):
        return False
    label, reserved = _field(level, "label"), _field(level, "reservedNode")
    return (label is None or isinstance(label, str)) and (
        reserved is None or (isinstance(reserved, int) and not isinstance(reserved, bool)))


def scheduler_namespaces(deployments: Iterable[Mapping[str, Any]]) -> List[str]:
    """The namespaces of the Deployments that run Volcano's scheduler (where its configuration lives)."""
    out = set()
    for deployment in deployments:
        meta = deployment.get("metadata") or {}
        template = ((deployment.get("spec") or {}).get("template") or {}).get("spec") or {}
        for container in template.get("containers") or []:
            if isinstance(container, dict) and _component(str(meta.get("name") or ""), str(container.get("name") or ""),
                                                          str(container.get("image") or "")) == VOLCANO:
                out.add(str(meta.get("namespace") or ""))
    return sorted(out)


def as_count(value: Any) -> int:
    """A count as the API writes it: an int, or a quantity string such as "8" (NPUs are whole)."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    try:
        return int(float(str(value)))
    except ValueError:
        return 0


def inventory_from(nodes: Optional[List[Mapping[str, Any]]], pods: Iterable[Mapping[str, Any]],
                   queues: Optional[List[Mapping[str, Any]]], claims: Optional[List[Mapping[str, Any]]],
                   config_maps: Optional[List[Mapping[str, Any]]], deployments: Iterable[Mapping[str, Any]],
                   namespaces: Sequence[str], name: str = "", default_namespace: str = "",
                   scheduler_config_maps: Iterable[Mapping[str, Any]] = ()) -> Inventory:
    """The inventory of what was read (None: not read); ``namespaces``: those whose PVCs and ConfigMaps were read;
    ``default_namespace``: where a job that names none lands; ``scheduler_config_maps``: more ConfigMaps to look
    for the scheduler's configuration in (its namespace's, when ``config_maps`` are one namespace's)."""
    deployments = list(deployments)
    versions = versions_from(deployments)
    settings_in = list(config_maps or []) + list(scheduler_config_maps)
    if ASCEND_PLUGIN not in versions and settings_in:
        plugin = plugin_version_from_config(cm for cm in settings_in if "scheduler" in
                                            str((cm.get("metadata") or {}).get("name") or ""))
        if plugin:
            versions[ASCEND_PLUGIN] = plugin
    return Inventory(
        nodes=None if nodes is None else nodes_from(nodes, pods),
        queues=None if queues is None else {q.name: q for q in sorted(map(queue_of, queues), key=lambda q: q.name)},
        claims=None if claims is None else names_by_namespace(claims, namespaces),
        config_maps=None if config_maps is None else names_by_namespace(config_maps, namespaces),
        versions=dict(sorted(versions.items())), name=name, default_namespace=default_namespace,
        resource_levels=resource_levels_from(scheduler_settings(settings_in)))
