"""The Volcano Job's own fields: its job plugins (``plugins``), its task's name (``taskName``) and its
container's (``containerName``).

Volcano's job plugins are the job controller's (``VC@v1.12.0: pkg/controllers/job/plugins/``): ``ssh`` (a
key pair in every pod), ``env`` (each pod's index in its task) and ``svc`` (a headless Service and host
names, and, unless the plugin is given ``--disable-network-policy``, a NetworkPolicy named after the job that
admits ingress only from the job's own pods, ``svc/svc.go`` createNetworkPolicyIfNotExist).  A training job
gets the three, as upstream's training samples; an inference job (``ranktable: none``) gets none, as
upstream's inference samples (``MD: samples/inference/volcano/infer-vcjob-910.yaml``): with ``svc`` its
clients could not reach it.

The task's name is part of its pods' names, and so of their host names (``<job>-<task>-<index>``); the
container's name is free on a Volcano Job, while ascend-operator finds an AscendJob's container by its name
``ascend`` (lint AC210), so there both stay the compiler's.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Any, Dict, Mapping, Tuple

from ..catalogue import SPEC_INVALID
from ..vocabulary import CONTAINER_NAME, VOLCANO_JOB, VOLCANO_TASK_NAME
from .steps import Fields, Problems

#: the plugins of a training Volcano Job (upstream's training samples)
TRAINING_PLUGINS: Mapping[str, Tuple[str, ...]] = MappingProxyType({"ssh": (), "env": (), "svc": ()})
#: the plugins of an inference Volcano Job (``ranktable: none``): none
INFERENCE_PLUGINS: Mapping[str, Tuple[str, ...]] = MappingProxyType({})


def plugins(fields: Fields, target: str, ranktable: str, problems: Problems) -> Dict[str, Tuple[str, ...]]:
    """The job plugins: the spec's ``plugins`` as written, else the default of the job's shape."""
    raw: Any = fields.spec.get("plugins")
    if target != VOLCANO_JOB:
        if raw is not None:
            problems.add(SPEC_INVALID, ("spec", "plugins"), "plugins are Volcano job plugins: an AscendJob has none "
                         "(ascend-operator makes its pods and Services)", "remove plugins, or set target: VolcanoJob",
                         key=True)
        return {}
    if raw is None:  # a copy: a Spec is a plain, deep-copyable record
        return dict(INFERENCE_PLUGINS if ranktable == "none" else TRAINING_PLUGINS)
    return {name: tuple(args or ()) for name, args in raw.items()}


def names(fields: Fields, target: str, problems: Problems) -> Tuple[str, str]:
    """(task name, container name): the spec's on a Volcano Job, else the compiler's."""
    task, container = fields.spec.get("taskName"), fields.spec.get("containerName")
    if target != VOLCANO_JOB:
        for key, value, why in (("taskName", task, "an AscendJob has replica types, not tasks"),
                                ("containerName", container, f"ascend-operator looks for the container named "
                                                             f"{CONTAINER_NAME}")):
            if value is not None:
                problems.add(SPEC_INVALID, ("spec", key), f"{key} is for Volcano Jobs: {why}",
                             f"remove {key}, or set target: VolcanoJob", key=True)
        return VOLCANO_TASK_NAME, CONTAINER_NAME
    return task or VOLCANO_TASK_NAME, container or CONTAINER_NAME
