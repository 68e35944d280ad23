"""An inventory from plain Kubernetes objects (JSON as ``kubectl get -o json`` or the Python client gives them).

Only what the checks need is taken: node labels, NPU counts, the taints that keep pods off and one annotation, HAMi's
``hami-vnpu-core`` (whether the node slices its NPUs softly: no check reads another); queue state, capability and deserved share; the *names* of PVCs, ConfigMaps and PriorityClasses
(never their data) and of HyperNodes with their tiers (never their members); the image tags of the Volcano, Ascend
plugin and operator Deployments (never their env or arguments).
"""
from __future__ import annotations

from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Mapping, Optional, Sequence, Set, Tuple

from ..manifest.pods import pod_of
from ..vocabulary import HAMI_NODE_CORE_ANNOTATION, NPU_RESOURCE_PREFIX
from .model import (ASCEND_OPERATOR, ASCEND_PLUGIN, BLOCKING_EFFECTS, DEVICE_SHARE_MODES, VOLCANO, Inventory, Node, Queue,
                    Taint)
from .replies import MAX_COUNT, ClusterDataError, Reply, shown, whole

#: the longest node label key Kubernetes allows (a 253-character prefix, "/", a 63-character name)
MAX_LABEL_KEY = 317
#: Volcano's queue states
QUEUE_STATES = ("Open", "Closed", "Closing", "Unknown")
#: Deployment (or container) names that say which component an image is, and the component it is
_COMPONENT_NAMES = (("volcano-scheduler", VOLCANO), ("vc-scheduler", VOLCANO), ("ascend-operator", ASCEND_OPERATOR))
#: the image name parts of the Ascend plugin built into the scheduler image (MindCluster's build names it so)
_PLUGIN_IMAGE_PARTS = ("volcano-npu", "ascend-for-volcano", "ascend-volcano")


def nodes_from(nodes: Iterable[Mapping[str, Any]], pods: Iterable[Mapping[str, Any]]) -> Tuple[Node, ...]:
    """Every node with its NPUs: allocatable, and used by the ``pods`` bound there (give the pods that have not
    ended), with who holds them.  A value of the wrong type or out of range is a :class:`~.replies.ClusterDataError`."""
    used: Dict[str, Dict[str, int]] = {}
    holders: Dict[str, Dict[str, int]] = {}
    for pod in pods:
        reply = Reply(pod, "Pod")
        bound = reply.text("spec", "nodeName")
        if not bound or reply.text("status", "phase") in ("Succeeded", "Failed"):
            continue
        holder = _holder(reply)
        for resource, count in pod_npus(reply).items():
            used.setdefault(bound, {})[resource] = used.get(bound, {}).get(resource, 0) + count
            holders.setdefault(bound, {})[holder] = holders.get(bound, {}).get(holder, 0) + count
    out = [node_of(reply, used.get(reply.name, {}), holders.get(reply.name, {}))
           for reply in (Reply(node, "Node") for node in nodes)]
    return tuple(sorted(out, key=lambda n: n.name))


def pod_npus(reply: Reply) -> Dict[str, int]:
    """The NPUs a pod requests, by resource, as the manifest model reads them; a count below 0 or beyond what the API
    server holds is a :class:`~.replies.ClusterDataError`."""
    found = pod_of(reply.data).npus_by_resource()
    for resource, count in found.items():
        if whole(count) is None:
            raise reply.fail(("spec", "containers"), f"asks for {shown(count)} {resource}, not a whole number "
                             f"from 0 to {MAX_COUNT}")
    return found


def node_of(reply: Reply, used: Dict[str, int], holders: Dict[str, int]) -> Node:
    """The node of a node object (its NPU resources, Ready condition, labels, cordon, the taints that keep pods
    off: ``NoSchedule`` and ``NoExecute``, the only ones the checks read, and whether HAMi slices it softly)."""
    alloc = {key: int(reply.count("status", "allocatable", key) or 0)
             for key in reply.mapping("status", "allocatable") if key.startswith(NPU_RESOURCE_PREFIX)}
    ready = any(c.text("type") == "Ready" and c.text("status") == "True" for c in reply.objects("status", "conditions"))
    taints = tuple(Taint(t.text("key"), t.text("value"), effect) for t in reply.objects("spec", "taints")
                   for effect in [t.text("effect")] if effect in BLOCKING_EFFECTS)
    annotated = HAMI_NODE_CORE_ANNOTATION in reply.mapping("metadata", "annotations")  # of all, only this one is read
    soft = reply.text("metadata", "annotations", HAMI_NODE_CORE_ANNOTATION) == "true" if annotated else None
    return Node(reply.name, dict(reply.texts("metadata", "labels")), alloc, dict(used), ready,
                reply.flag("spec", "unschedulable"), dict(holders), taints, soft)


def _holder(reply: Reply) -> str:
    owner = next((r for r in reply.objects("metadata", "ownerReferences") if r.flag("controller")), None)
    return f"{reply.namespace}/{(owner.text('name') if owner is not None else '') or reply.name}"


def queue_of(queue: Mapping[str, Any]) -> Queue:
    """A Volcano queue: its state (one of Volcano's), capability and what it has allocated."""
    reply = Reply(queue, "Queue")
    state = reply.text("status", "state") or reply.text("spec", "state") or "Open"
    if state not in QUEUE_STATES:
        where = ("status", "state") if reply.text("status", "state") else ("spec", "state")
        raise reply.fail(where, f"{shown(state)} is not a queue state ({', '.join(QUEUE_STATES)})")
    return Queue(reply.name, state, dict(reply.texts("spec", "capability")), dict(reply.texts("status", "allocated")),
                 dict(reply.texts("spec", "deserved")))


def hyper_nodes_from(hyper_nodes: Iterable[Mapping[str, Any]]) -> Dict[str, int]:
    """Volcano HyperNodes: name -> tier (``spec.tier``, a whole number)."""
    out: Dict[str, int] = {}
    for reply in (Reply(h, "HyperNode") for h in hyper_nodes):
        out[reply.name] = int(reply.count("spec", "tier", high=2 ** 31 - 1) or 0)
    return dict(sorted(out.items()))


def names_by_namespace(objects: Iterable[Mapping[str, Any]], namespaces: Sequence[str] = (), kind: str = "object"
                       ) -> Dict[str, FrozenSet[str]]:
    """namespace -> the names of ``objects`` there: every namespace of ``namespaces`` (maybe empty) and no other;
    with no ``namespaces``, those the objects are in."""
    out: Dict[str, Set[str]] = {ns: set() for ns in namespaces}
    for obj in objects:
        reply = Reply(obj, kind)
        if reply.namespace in out or not namespaces:
            out.setdefault(reply.namespace, set()).add(reply.name)
    return {ns: frozenset(names) for ns, names in sorted(out.items())}


def versions_from(deployments: Iterable[Mapping[str, Any]]) -> Dict[str, str]:
    """component -> the tag of its image, from the Deployments that run Volcano's scheduler, the Ascend plugin
    (an image of the scheduler built with it) and ascend-operator."""
    out: Dict[str, str] = {}
    for reply in (Reply(d, "Deployment") for d in deployments):
        for container in _containers(reply):
            image = container.text("image")
            component = _component(reply.name, container.text("name"), image)
            if component is not None and component not in out:
                out[component] = image_tag(image)
            if component == VOLCANO and any(part in image for part in _PLUGIN_IMAGE_PARTS):
                out.setdefault(ASCEND_PLUGIN, image_tag(image))
    return dict(sorted(out.items()))


def _containers(reply: Reply) -> List[Reply]:
    return list(reply.objects("spec", "template", "spec", "containers"))


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
        for value in Reply(cm, "ConfigMap").texts("data").values():
            found = pattern.search(value)
            if found:
                return found.group(1)
    return ""


#: the Ascend plugin's settings in the scheduler configuration, and its multi-level topology among them
INIT_PARAMS, RESOURCE_LEVEL_CONFIG = "init-params", "resource-level-config"
#: Volcano's own device sharing plugin (its Ascend modes: :data:`~.model.DEVICE_SHARE_MODES`)
DEVICE_SHARE_PLUGIN = "deviceshare"
LEVEL_PREFIX = "level"


def scheduler_confs(config_maps: Iterable[Mapping[str, Any]]) -> List[Dict[str, Any]]:
    """The Volcano scheduler configurations the ConfigMaps hold (a data value that is YAML with ``tiers``), in the
    order of their ConfigMaps by namespace and name."""
    import yaml

    out: List[Dict[str, Any]] = []
    for cm in sorted((Reply(cm, "ConfigMap") for cm in config_maps), key=lambda cm: (cm.namespace, cm.name)):
        for _, text in sorted(cm.texts("data").items()):
            if "tiers" not in text:
                continue
            try:
                conf = yaml.safe_load(text)
            except (yaml.YAMLError, RecursionError, ValueError):
                continue
            if isinstance(conf, dict) and isinstance(conf.get("tiers"), list):
                out.append(conf)
    return out


def scheduler_settings(confs: Sequence[Mapping[str, Any]]) -> Optional[Dict[str, Any]]:
    """The Ascend plugin's ``init-params`` arguments ({} when it has none) from the first Volcano scheduler
    configuration whose tiers load the plugin (a ``volcano-npu*`` plugin); None when none does."""
    for conf in confs:
        if not _plugins(conf, lambda name: name.startswith("volcano-npu")):
            continue
        for entry in conf.get("configurations") or []:
            if isinstance(entry, dict) and entry.get("name") == INIT_PARAMS:
                arguments = entry.get("arguments")
                return dict(arguments) if isinstance(arguments, dict) else {}
        return {}
    return None


def _plugins(conf: Mapping[str, Any], named: Callable[[str], bool]) -> List[Dict[str, Any]]:
    """The plugins of a scheduler configuration's tiers whose name ``named`` takes."""
    return [plugin for tier in conf.get("tiers") or [] if isinstance(tier, dict)
            for plugin in tier.get("plugins") or [] if isinstance(plugin, dict) and named(str(plugin.get("name") or ""))]


#: the texts Volcano's arguments read as true and as false (Go's strconv.ParseBool)
_TRUE, _FALSE = ("1", "t", "T", "TRUE", "true", "True"), ("0", "f", "F", "FALSE", "false", "False")


def device_share_from(confs: Sequence[Mapping[str, Any]]) -> Optional[Tuple[str, ...]]:
    """The Ascend modes (:data:`~.model.DEVICE_SHARE_MODES`) the deviceshare plugin of the scheduler configurations
    turns on, sorted (a mode's argument true, or a text Volcano reads as true); None when no configuration was read."""
    if not confs:
        return None
    found = set()
    for conf in confs:
        for plugin in _plugins(conf, lambda name: name == DEVICE_SHARE_PLUGIN):
            arguments = plugin.get("arguments")
            for mode, argument in DEVICE_SHARE_MODES.items():
                value = arguments.get(argument) if isinstance(arguments, dict) else None
                if value is True or (isinstance(value, str) and value in _TRUE):
                    found.add(mode)
    return tuple(sorted(found))


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
    except (ValueError, RecursionError):
        return {}
    if not isinstance(config, dict) or not all(isinstance(tree, dict) and all(_readable(level) for level in tree.values())
                                               for tree in config.values()):
        return {}  # the plugin's JSON decoding fails: it uses no topology at all
    out: Dict[str, Tuple[str, ...]] = {}
    for name, tree in config.items():
        levels = [tree.get(f"{LEVEL_PREFIX}{i}") for i in range(1, len(tree) + 1)]
        if all(isinstance(level, dict) for level in levels):  # else a gap: the plugin skips the tree
            out[str(name)] = tuple(_field(level, "label") or "" for level in levels)
            longest = max(out[str(name)], key=len, default="")
            if len(longest) > MAX_LABEL_KEY:
                raise ClusterDataError("the Volcano scheduler configuration", (INIT_PARAMS, RESOURCE_LEVEL_CONFIG, name),
                                       f"a level's label {shown(longest)} is longer than {MAX_LABEL_KEY} characters, "
                                       "which no node label is")
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


def scheduler_config_maps(deployments: Iterable[Mapping[str, Any]]) -> List[Tuple[str, str]]:
    """(namespace, name) of each ConfigMap the Deployments that run Volcano's scheduler mount (its configuration,
    ``volcano-scheduler-configmap`` in an installation), sorted: what to read by name."""
    out: Set[Tuple[str, str]] = set()
    for reply in (Reply(d, "Deployment") for d in deployments):
        if any(_component(reply.name, c.text("name"), c.text("image")) == VOLCANO for c in _containers(reply)):
            out.update((reply.namespace, name) for volume in reply.objects("spec", "template", "spec", "volumes")
                       for name in [volume.text("configMap", "name")] if name)
    return sorted(out)


def inventory_from(nodes: Optional[List[Mapping[str, Any]]], pods: Iterable[Mapping[str, Any]],
                   queues: Optional[List[Mapping[str, Any]]], claims: Optional[List[Mapping[str, Any]]],
                   config_maps: Optional[List[Mapping[str, Any]]], deployments: Iterable[Mapping[str, Any]],
                   namespaces: Sequence[str], name: str = "", default_namespace: str = "",
                   scheduler_config_maps: Iterable[Mapping[str, Any]] = (),
                   priority_classes: Optional[List[Mapping[str, Any]]] = None,
                   hyper_nodes: Optional[List[Mapping[str, Any]]] = None) -> Inventory:
    """The inventory of what was read (None: not read); ``namespaces``: those whose PVCs and ConfigMaps were read;
    ``default_namespace``: where a job that names none lands; ``scheduler_config_maps``: more ConfigMaps to look
    for the scheduler's configuration in (its namespace's, when ``config_maps`` are one namespace's); ``priority_classes``
    and ``hyper_nodes``: the cluster's PriorityClasses and Volcano HyperNodes (None: not read)."""
    deployments = list(deployments)
    versions = versions_from(deployments)
    settings_in = list(config_maps or []) + list(scheduler_config_maps)
    confs = scheduler_confs(settings_in)
    if ASCEND_PLUGIN not in versions and settings_in:
        plugin = plugin_version_from_config(cm for cm in settings_in if "scheduler" in Reply(cm, "ConfigMap").name)
        if plugin:
            versions[ASCEND_PLUGIN] = plugin
    return Inventory(
        nodes=None if nodes is None else nodes_from(nodes, pods),
        queues=None if queues is None else {q.name: q for q in sorted(map(queue_of, queues), key=lambda q: q.name)},
        claims=None if claims is None else names_by_namespace(claims, namespaces, "PersistentVolumeClaim"),
        config_maps=None if config_maps is None else names_by_namespace(config_maps, namespaces, "ConfigMap"),
        versions=dict(sorted(versions.items())), name=name, default_namespace=default_namespace,
        resource_levels=resource_levels_from(scheduler_settings(confs)), device_share=device_share_from(confs),
        priority_classes=None if priority_classes is None else frozenset(
            Reply(p, "PriorityClass").name for p in priority_classes),
        hyper_nodes=None if hyper_nodes is None else hyper_nodes_from(hyper_nodes))
