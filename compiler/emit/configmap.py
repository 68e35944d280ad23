"""The ranktable ConfigMap ``rings-config-<job>`` and the optional Namespace."""
from __future__ import annotations

from typing import Any, Dict

from ..jobspec import Spec
from ..vocabulary import (CONFIG_MAP, CORE_API_VERSION, NAMESPACE, RANKTABLE_INITIAL, RANKTABLE_KEY, RING_LABEL,
                          ranktable_configmap_name)
from .common import metadata


def ranktable_configmap(spec: Spec) -> Dict[str, Any]:
    return {
        "apiVersion": CORE_API_VERSION,
        "kind": CONFIG_MAP,
        "metadata": metadata(ranktable_configmap_name(spec.name), spec.namespace, {RING_LABEL: spec.profile.ring_controller}),
        "data": {RANKTABLE_KEY: RANKTABLE_INITIAL},
    }


def namespace(spec: Spec) -> Dict[str, Any]:
    return {"apiVersion": CORE_API_VERSION, "kind": NAMESPACE, "metadata": {"name": spec.namespace}}
