"""The ranktable ConfigMap ``rings-config-<job>`` and the optional Namespace."""
from __future__ import annotations

from typing import Any, Dict

from ..spec import Spec
from .common import RING_LABEL, metadata

RANKTABLE_PREFIX = "rings-config-"
RANKTABLE_KEY = "hccl.json"
#: what the operator expects before it writes the real ranktable
RANKTABLE_INITIAL = '{"status":"initializing"}'


def ranktable_name(job_name: str) -> str:
    return RANKTABLE_PREFIX + job_name


def ranktable_configmap(spec: Spec) -> Dict[str, Any]:
    return {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": metadata(ranktable_name(spec.name), spec.namespace, {RING_LABEL: spec.profile.ring_controller}),
        "data": {RANKTABLE_KEY: RANKTABLE_INITIAL},
    }


def namespace(spec: Spec) -> Dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": spec.namespace}}
