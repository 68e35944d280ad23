"""Which spec field writes which part of the job, derived from the emitter, and the patches that override one.

:func:`derive` emits a spec's job without its patches, then again with one spec field changed at a time (the
:data:`FIELDS` below: another value, a value where the spec has none, none where it has one), and diffs the
jobs: every path of the job that differs is the field's.  Nothing lists the paths by hand, so a field the
emitter learns to write is covered the day it writes it (:data:`FIELDS` names each setting and the values it takes;
only a spec with a patch is derived, some seventy emissions).  Paths go down maps by key and down lists of named
objects (containers, env, volumes, ports, tasks) by name, as the patches merge them; any other list is one value.

:func:`overridden` judges one patch: a path a field owns that the patch changes, adds or removes is the field's
to say (a ``fault-retry-times`` label added by hand would keep the ``OnFailure`` and ``RestartJob`` that the field
replaces).  A patch may restate the field's value.  In a list of objects that is one value (a Volcano Job's
``policies``) the patch may add items no value of the field writes (``{event: PodFailed, action: Ignore}``),
never remove the field's or add one a field writes.  A field that changes the job's shape (``framework``,
``target``) owns only what both shapes have and it changes.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from ..hardware.profiles import NO_HARDWARE_NAMED, NODE_SELECTOR, SCHEDULE_POLICY
from ..jobspec.model import Replica, Spec, Volume
from ..vocabulary import (ASCEND_JOB, DUMP_STRATEGY, FAULT_SCHEDULING_FORCE, FAULT_SCHEDULING_GRACE,
                          FAULT_SCHEDULING_OFF, FRAMEWORKS, JOBS, SUB_HEALTHY_STRATEGIES, WORKER)

Path = Tuple[Any, ...]


class _Absent:
    """The value at a path where the job has nothing."""

    def __repr__(self) -> str:
        return "nothing"


ABSENT: Any = _Absent()
#: the key a map-valued field is given in one of its variants: the field owns every key of that map
_ANY_KEY = "\x00any-key"
CHANGED = "changed"


class Item:
    """A path element: the item of a list of named objects with this ``name``."""

    __slots__ = ("name",)

    def __init__(self, name: str):
        self.name = name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Item) and other.name == self.name

    def __hash__(self) -> int:
        return hash(("item", self.name))

    def __repr__(self) -> str:
        return f"[{self.name}]"


class AnyKey:
    """A path element: every key of a map (one a field writes wholly, as ``plugins``)."""

    def __repr__(self) -> str:
        return "*"


ANY = AnyKey()


def text(path: Sequence[Any]) -> str:
    """``spec.tasks[default].template.spec.restartPolicy``."""
    out = ""
    for part in path:
        out += repr(part) if isinstance(part, (Item, AnyKey)) else ("." if out else "") + str(part)
    return out


class Owned:
    """What the fields write at one path: the fields (most specific first), every value they were seen to
    write there (one per variant that wrote one), and whether a value of theirs leaves the path out."""

    __slots__ = ("fields", "written", "optional")

    def __init__(self) -> None:
        self.fields: List[str] = []
        self.written: List[Any] = []
        self.optional = False


Ownership = Dict[Path, Owned]


# --------------------------------------------------------------------------- walking jobs


def _named(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(
        isinstance(i, dict) and isinstance(i.get("name"), str) for i in value)


def _children(value: Any) -> Optional[Dict[Any, Any]]:
    """The parts a path goes down into, or None for a value that is one value."""
    if isinstance(value, dict) and value:
        return dict(value)
    if _named(value):
        return {Item(i["name"]): i for i in value}
    return None


def at(node: Any, path: Sequence[Any]) -> Any:
    """The value at ``path`` in ``node``, or :data:`ABSENT`."""
    for part in path:
        if isinstance(part, Item) and isinstance(node, list):
            node = next((i for i in node if isinstance(i, dict) and i.get("name") == part.name), ABSENT)
        elif isinstance(node, dict) and not isinstance(part, Item):
            node = node.get(part, ABSENT)
        else:
            return ABSENT
    return node


def _leaves(value: Any, path: Path) -> Iterator[Tuple[Path, Any]]:
    parts = _children(value)
    if parts is None:
        yield path, value
        return
    for part, child in parts.items():
        yield from _leaves(child, path + (part,))


def diff(old: Any, new: Any, path: Path = (), both: bool = False) -> Iterator[Tuple[Path, Any, Any]]:
    """(path, old value, new value) of every value that differs; ``both``: only paths both have.  Named items
    are matched by name, and the items only one side names are matched in order (a renamed container)."""
    if old == new:  # most of a job: one comparison in C instead of a walk
        return
    mine, theirs = _children(old), _children(new)
    if mine is None or theirs is None:
        if (both and (old is ABSENT or new is ABSENT or mine is not None or theirs is not None)):
            return
        if mine is None and theirs is None:
            yield path, old, new
            return
        yield from ((p, v, ABSENT) for p, v in _leaves(old, path) if old is not ABSENT)
        yield from ((p, ABSENT, v) for p, v in _leaves(new, path) if new is not ABSENT)
        return
    alone = [k for k in theirs if k not in mine]
    for key, value in mine.items():
        if key in theirs:
            yield from diff(value, theirs[key], path + (key,), both)
        elif isinstance(key, Item) and alone and isinstance(alone[0], Item):
            yield from diff(value, theirs[alone.pop(0)], path + (key,), both)
        elif not both:
            yield from diff(value, ABSENT, path + (key,))
    if not both:
        for key in alone:
            yield from diff(ABSENT, theirs[key], path + (key,))


# --------------------------------------------------------------------------- the fields and their variants

Variants = Callable[[Spec], List[Spec]]


def _text(value: Optional[Any]) -> List[Optional[str]]:
    """Another text, and none: a quantity may be a number (``cpu: 16``), changed as its text."""
    return [CHANGED] if value is None else [f"{value}-{CHANGED}", None]


def _number(value: Optional[int]) -> List[Optional[int]]:
    return [1] if value is None else [value + 1, None]


def _changed_values(mapping: Mapping[str, Any]) -> List[Dict[str, Any]]:
    return [{k: f"{v}-{CHANGED}" for k, v in mapping.items()}] if mapping else []


def _choices(*options: Any) -> Callable[[Any], List[Any]]:
    return lambda value: [o for o in options if o != value]


def _volume(vol: Volume) -> Volume:
    return Volume(vol.name, vol.mount_path + "/" + CHANGED, {"emptyDir": {}}, not vol.read_only, CHANGED)


def _each(values: Sequence[Any], change: Callable[[Any], Any]) -> List[Tuple[Any, ...]]:
    return [tuple(change(v) for v in values)] if values else []


class Setting:
    """How the derivation changes one setting of a Spec: its ``attribute`` (``resilience.<name>`` for the fault
    tolerance's) and the values it takes instead of the spec's."""

    __slots__ = ("attribute", "values")

    def __init__(self, attribute: str, values: Callable[[Any], List[Any]]):
        self.attribute, self.values = attribute, values

    def __call__(self, spec: Spec) -> List[Spec]:
        outer, _, inner = self.attribute.partition(".")
        if inner:
            part = getattr(spec, outer)
            return [replace(spec, **{outer: replace(part, **{inner: v})}) for v in self.values(getattr(part, inner))]
        return [replace(spec, **{outer: v}) for v in self.values(getattr(spec, outer))]


def _profiles(prof: Any) -> List[Any]:
    changes: List[Dict[str, Any]] = [{"ring_controller": prof.ring_controller + "-" + CHANGED},
                                     {"resource": prof.resource + "-" + CHANGED},
                                     {"accelerator_type": _text(prof.accelerator_type)[0]},
                                     {"schedule_policy": _text(prof.schedule_policy)[0]}]
    changes += [{"job_labels": labels} for labels in _changed_values(prof.job_labels)]
    return [replace(prof, **change) for change in changes]


def _plugins(plugins: Mapping[str, Tuple[str, ...]]) -> List[Dict[str, Tuple[str, ...]]]:
    """The plugins field writes the whole map: a key it does not have is still its to add."""
    return [{name: (*args, CHANGED) for name, args in plugins.items()}, {**plugins, _ANY_KEY: ()}]


def _strategies(value: Tuple[str, ...]) -> List[Tuple[str, ...]]:
    return [(), value + (CHANGED,)] if value else [(CHANGED,), (CHANGED, DUMP_STRATEGY)]


def _ports(value: Tuple[Any, ...]) -> List[Tuple[Any, ...]]:
    return _each(value, lambda p: replace(p, container_port=p.container_port + 1, protocol=CHANGED))


def _env(value: Tuple[Dict[str, Any], ...]) -> List[Tuple[Any, ...]]:
    return _each(value, lambda item: {"name": item["name"], "value": CHANGED})


#: per replica type: the setting, what the spec calls it, its variants
REPLICA_SETTINGS: Tuple[Tuple[str, str, Callable[[Any], List[Any]]], ...] = (
    ("restart_policy", "restartPolicy", _choices(None, "Always", "OnFailure", "Never", "ExitCode")),
    ("env", "env", _env), ("volumes", "volumes", lambda v: _each(v, _volume)), ("ports", "ports", _ports),
    ("cpu", "resources.cpu", _text), ("memory", "resources.memory", _text), ("shm_size", "resources.shm", _text))

#: the settings of a Spec no variant changes: the patches themselves, where the spec was read, the Namespace
#: object (not the job), and the records whose parts are changed one by one (above and below)
UNCHANGED = ("pod_template_patch", "job_patch", "source", "create_namespace", "resilience", "replica_types")
#: spec field -> its variants; the second item: the field changes the job's shape (it owns only what both have)
FIELDS: Tuple[Tuple[str, Setting, bool], ...] = (
    ("metadata.name", Setting("name", lambda v: [v + "-" + CHANGED]), False),
    ("metadata.namespace", Setting("namespace", _text), False),
    ("spec.framework", Setting("framework", _choices(*FRAMEWORKS)), True),
    ("spec.target", Setting("target", _choices(*JOBS)), True),
    ("spec.profile", Setting("profile", _profiles), False),
    ("spec.npus (or spec.pods)", Setting("pods", lambda v: [v + 1]), False),
    ("spec.npus (or spec.npusPerPod)", Setting("npus_per_pod", lambda v: [v + 1]), False),
    ("spec.image", Setting("image", lambda v: [v + "-" + CHANGED]), False),
    ("spec.imagePullPolicy", Setting("image_pull_policy", lambda v: [v + "-" + CHANGED]), False),
    ("spec.command", Setting("command", lambda v: [v + (CHANGED,)]), False),
    ("spec.args", Setting("args", lambda v: [v + (CHANGED,)]), False),
    ("spec.workingDir", Setting("working_dir", _text), False),
    ("spec.env", Setting("env", _env), False),
    ("spec.resources.cpu", Setting("cpu", _text), False),
    ("spec.resources.memory", Setting("memory", _text), False),
    ("spec.resources.shm", Setting("shm_size", _text), False),
    ("spec.volumes", Setting("volumes", lambda v: _each(v, _volume)), False),
    ("spec.ports", Setting("ports", _ports), False),
    ("spec.restartPolicy", Setting("restart_policy", REPLICA_SETTINGS[0][2]), False),
    ("spec.queue", Setting("queue", lambda v: [v + "-" + CHANGED]), False),
    ("spec.hostArch", Setting("host_arch", _text), False),
    ("spec.scheduling", Setting("scheduling", _choices(NODE_SELECTOR, SCHEDULE_POLICY, NO_HARDWARE_NAMED)), False),
    ("spec.ranktable", Setting("ranktable", _choices("env", "file", "hostPath", "none")), False),
    ("spec.ranktableVolume", Setting("ranktable_volume", lambda v: [] if v is None else [_volume(v)]), False),
    ("spec.schedulerHoldsNpus", Setting("scheduler_holds_npus", lambda v: [not v]), False),
    ("spec.torAffinity", Setting("tor_affinity", _text), False),
    ("spec.superPod.spBlock", Setting("sp_block", _number), False),
    ("spec.superPod.raBlock", Setting("ra_block", _number), False),
    ("spec.multiLevel", Setting("multi_level", lambda v: [(), v + (1,)] if v else [(1,)]), False),
    ("spec.retries", Setting("retries", _number), False),
    ("spec.hostNetwork", Setting("host_network", lambda v: [not v]), False),
    ("spec.plugins", Setting("plugins", _plugins), False),
    ("spec.taskName", Setting("task_name", lambda v: [v + "-" + CHANGED]), False),
    ("spec.containerName", Setting("container_name", lambda v: [v + "-" + CHANGED]), False),
    ("spec.labels", Setting("labels", _changed_values), False),
    ("spec.annotations", Setting("annotations", _changed_values), False),
    ("spec.podLabels", Setting("pod_labels", _changed_values), False),
    ("spec.podAnnotations", Setting("pod_annotations", _changed_values), False),
    ("spec.faultScheduling", Setting("resilience.fault_scheduling", _choices(
        None, FAULT_SCHEDULING_GRACE, FAULT_SCHEDULING_FORCE, FAULT_SCHEDULING_OFF)), False),
    ("spec.faultRetryTimes", Setting("resilience.fault_retry_times", _number), False),
    ("spec.podRescheduling", Setting("resilience.pod_rescheduling", lambda v: [not v]), False),
    ("spec.processRecovery.strategies", Setting("resilience.recover_strategies", _strategies), False),
    ("spec.processRecovery.waitRescheduleTimeout", Setting("resilience.wait_reschedule_timeout", _number), False),
    ("spec.resetConfig", Setting("resilience.reset_config", _choices(None, "hostPath", "configMap")), False),
    ("spec.subHealthyStrategy",
     Setting("resilience.sub_healthy_strategy", _choices(None, *SUB_HEALTHY_STRATEGIES)), False),
    ("spec.terminationGracePeriodSeconds", Setting("resilience.termination_grace_period", _number), False),
)


def _replica_fields(spec: Spec, rtypes: Sequence[str]) -> Iterator[Tuple[str, Variants, bool]]:
    """The settings of each replica type the job has (``spec.replicaTypes.<type>.*``), set or not."""
    def variants(rtype: str, name: str, values: Callable[[Any], List[Any]]) -> Variants:
        def make(spec: Spec) -> List[Spec]:
            settings: Replica = spec.replica(rtype)
            return [replace(spec, replica_types={**spec.replica_types, rtype: replace(settings, **{name: v})})
                    for v in values(getattr(settings, name))]
        return make

    for rtype in rtypes:
        for name, called, values in REPLICA_SETTINGS:
            yield f"spec.replicaTypes.{rtype}.{called}", variants(rtype, name, values), False


# --------------------------------------------------------------------------- deriving and judging


def derive(spec: Spec, job: Dict[str, Any], emit_job: Callable[[Spec], Dict[str, Any]]) -> Ownership:
    """The paths of ``job`` (``spec``'s job without patches, as ``emit_job`` makes it) each field writes, and the
    paths it would write with another value."""
    rtypes = list(job["spec"]["replicaSpecs"]) if spec.target == ASCEND_JOB else [WORKER]
    owned: Ownership = {}
    every: List[Tuple[str, Variants, bool]] = [*FIELDS, *_replica_fields(spec, rtypes)]
    for field, variants, shape in every:
        for variant in variants(spec):
            for path, old, new in diff(job, emit_job(variant), both=shape):
                path = tuple(ANY if part == _ANY_KEY else part for part in path)
                here = owned.setdefault(path, Owned())
                if field not in here.fields:
                    here.fields.append(field)
                here.written += [value for value in (old, new) if value is not ABSENT and value not in here.written]
                here.optional = here.optional or ABSENT in (old, new)
    sizes: Dict[str, int] = {}
    for here in owned.values():
        for field in here.fields:
            sizes[field] = sizes.get(field, 0) + 1
    for here in owned.values():  # the field that writes least first: the one that says most about this path
        here.fields.sort(key=lambda f: sizes[f])
    return owned


def _objects(value: Any) -> bool:
    return isinstance(value, list) and any(isinstance(i, dict) for i in value)


def _overrides(old: Any, new: Any, written: Sequence[Any]) -> bool:
    if old == new:
        return False
    if not (_objects(old) or _objects(new)):
        return True
    kept = new if isinstance(new, list) else []
    if any(item not in kept for item in (old if isinstance(old, list) else [])):
        return True
    added = [item for item in kept if not isinstance(old, list) or item not in old]
    return any(isinstance(value, list) and item in value for item in added for value in written)


def _concrete(path: Path, before: Any, after: Any) -> Iterator[Path]:
    if ANY not in path:
        yield path
        return
    i = path.index(ANY)
    keys: Dict[Any, None] = {}
    for side in (at(before, path[:i]), at(after, path[:i])):
        keys.update(dict.fromkeys(side if isinstance(side, dict) else ()))
    for key in keys:
        yield from _concrete(path[:i] + (key,) + path[i + 1:], before, after)


def overridden(owned: Ownership, prefix: Path, before: Any, after: Any) -> Optional[Tuple[Path, Owned, Any, Any]]:
    """The first path under ``prefix`` (where the patch applies: ``before`` and ``after`` are what is there) whose
    value a field writes and the patch changes: (the path under ``prefix``, its owner, before, after)."""
    for path, here in owned.items():
        if path[:len(prefix)] != prefix:
            continue
        for inner in _concrete(path[len(prefix):], before, after):
            old, new = at(before, inner), at(after, inner)
            if _overrides(old, new, here.written):
                return inner, here, old, new
    return None


def in_patch(patch: Any, path: Sequence[Any]) -> Path:
    """The spec path, under the patch, of the part of ``patch`` that reaches furthest along ``path``."""
    out: List[Any] = []
    for part in path:
        if isinstance(part, Item) and isinstance(patch, list):
            index = next((i for i, p in enumerate(patch) if isinstance(p, dict) and p.get("name") == part.name), None)
            if index is None:
                break
            out.append(index)
            patch = patch[index]
        elif isinstance(patch, dict) and part in patch:
            out.append(part)
            patch = patch[part]
        else:
            break
    return tuple(out)
