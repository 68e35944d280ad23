"""The spec's escape hatch: merge ``podTemplatePatch`` into every pod template.

Maps merge key by key and ``null`` deletes a key (as in a JSON merge patch);
lists whose items are all objects with a ``name`` merge item by item, keyed by
name (containers, env, volumes, volumeMounts, ports), as a strategic merge
patch does; any other list replaces the old one.
"""
from __future__ import annotations

from typing import Any, Dict, List


def _named_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(i, dict) and "name" in i for i in value)


def apply_patch(target: Any, patch: Any) -> Any:
    if isinstance(patch, dict) and isinstance(target, dict):
        out: Dict[str, Any] = dict(target)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = apply_patch(out[key], value)
            else:
                out[key] = apply_patch({}, value) if isinstance(value, dict) else value
        return out
    if _named_list(patch) and _named_list(target):
        merged: List[Any] = list(target)
        index = {item["name"]: i for i, item in enumerate(merged)}
        for item in patch:
            if item["name"] in index:
                merged[index[item["name"]]] = apply_patch(merged[index[item["name"]]], item)
            else:
                merged.append(item)
        return merged
    return patch
