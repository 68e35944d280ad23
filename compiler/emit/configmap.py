"""The ConfigMaps a job needs beside it, ``rings-config-<job>`` and ``reset-config-<job>``, and the Namespace."""
from __future__ import annotations

from typing import Any, Dict

from ..jobspec.model import Spec
from ..vocabulary import (CONFIG_MAP, CORE_API_VERSION, NAMESPACE, RANKTABLE_INITIAL, RANKTABLE_KEY,
                          RESET_CHECK_CODE_KEY, RESET_INITIAL, RESET_KEY, RESET_LABEL, RING_LABEL,
                          ranktable_configmap_name, reset_configmap_name)
from .common import metadata


def ranktable_configmap(spec: Spec) -> Dict[str, Any]:
    return {
        "apiVersion": CORE_API_VERSION,
        "kind": CONFIG_MAP,
        "metadata": metadata(ranktable_configmap_name(spec.name), spec.namespace, {RING_LABEL: spec.profile.ring_controller}),
        "data": {RANKTABLE_KEY: RANKTABLE_INITIAL},
    }


def reset_configmap(spec: Spec) -> Dict[str, Any]:
    """``reset-config-<job>`` as upstream's resumable-training samples create it: the scheduler's plugin only
    updates it (``ascend-for-volcano/plugin/job.go`` updateResetCm), so it must exist with the job."""
    return {
        "apiVersion": CORE_API_VERSION,
        "kind": CONFIG_MAP,
        "metadata": metadata(reset_configmap_name(spec.name), spec.namespace, {RESET_LABEL: "true"}),
        "data": {RESET_KEY: RESET_INITIAL, RESET_CHECK_CODE_KEY: ""},
    }


def namespace(spec: Spec) -> Dict[str, Any]:
    return {"apiVersion": CORE_API_VERSION, "kind": NAMESPACE, "metadata": {"name": spec.namespace}}
