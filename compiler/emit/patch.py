"""The spec's escape hatches: merge ``podTemplatePatch`` (shared and per replica type) and ``jobPatch``.

The merge is a JSON merge patch with the list rules of a strategic merge patch, so nothing generated is
lost without being asked for:

* maps merge key by key, and ``null`` deletes a key;
* a list of named objects (containers, env, volumes, volumeMounts, ports) merges item by item, keyed by
  ``name``; an item ``{name: X, $patch: delete}`` removes item X;
* a list of strings (command, args) replaces the old one;
* an item without a ``name`` where the generated list is named, or a list of other objects where the
  template already has objects, would silently replace generated items: it is refused, unless the patch
  list starts with ``{$patch: replace}`` (which then replaces the list with the rest of the patch list).

Problems raise :class:`PatchError` with the spec path of the offending patch item.
"""
from __future__ import annotations

from typing import Any, Dict, List, Tuple

PATCH_KEY = "$patch"
DELETE = "delete"
REPLACE = "replace"
Path = Tuple[Any, ...]


class PatchError(Exception):
    """A patch that cannot be merged as written; ``path`` is the spec path of the offending part."""

    def __init__(self, path: Path, message: str, hint: str, rule: str = ""):
        super().__init__(message)
        self.path = path
        self.message = message
        self.hint = hint
        #: the rule ID when it is not the default of a patch that cannot merge (AC025)
        self.rule = rule


def _named(item: Any) -> bool:
    return isinstance(item, dict) and isinstance(item.get("name"), str)


def _is_named_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(_named(i) for i in value)


def apply_patch(target: Any, patch: Any, path: Path = ()) -> Any:
    """``target`` with ``patch`` merged in (neither is changed); ``path`` is where ``patch`` sits in the spec."""
    if isinstance(patch, dict) and isinstance(target, dict):
        out: Dict[str, Any] = dict(target)
        for key, value in patch.items():
            if value is None:
                out.pop(key, None)
            elif key in out:
                out[key] = apply_patch(out[key], value, path + (key,))
            else:
                out[key] = _fresh(value, path + (key,))
        return out
    if isinstance(patch, list):
        return _merge_list(target, patch, path)
    return patch


def _fresh(value: Any, path: Path) -> Any:
    """A patch value where the template has nothing: copied in, without its directives."""
    if isinstance(value, dict):
        return apply_patch({}, value, path)
    if isinstance(value, list):
        return _merge_list([], value, path)
    return value


def _merge_list(target: Any, patch: List[Any], path: Path) -> Any:
    if patch and isinstance(patch[0], dict) and patch[0].get(PATCH_KEY) == REPLACE and len(patch[0]) == 1:
        return [_fresh(item, path + (i + 1,)) for i, item in enumerate(patch[1:])]
    _check_directives(patch, path)
    old = target if isinstance(target, list) else []
    if _is_named_list(old) or (not old and any(_named(i) for i in patch)):
        return _merge_named(old, patch, path)
    if any(isinstance(i, dict) for i in old):
        raise PatchError(path, "this list would replace the generated items of the pod template",
                         "start the patch list with {$patch: replace} to replace them on purpose")
    return [_fresh(item, path + (i,)) for i, item in enumerate(patch)]


def _check_directives(patch: List[Any], path: Path) -> None:
    for i, item in enumerate(patch):
        if isinstance(item, dict) and PATCH_KEY in item:
            if item[PATCH_KEY] == REPLACE:
                raise PatchError(path + (i,), "{$patch: replace} must be the first item of its list, alone",
                                 "move it to the front of the list, as an item of its own")
            if item[PATCH_KEY] != DELETE:
                raise PatchError(path + (i, PATCH_KEY), f"unknown directive $patch: {item[PATCH_KEY]!r}",
                                 "use $patch: delete (with a name) or a leading {$patch: replace}")


def _merge_named(old: List[Any], patch: List[Any], path: Path) -> List[Any]:
    merged: List[Any] = list(old)
    index = {item["name"]: i for i, item in enumerate(merged)}
    for i, item in enumerate(patch):
        if not _named(item):
            got = "an item without a name" if not isinstance(item, dict) or "name" not in item \
                else f"an item whose name is not a string ({type(item['name']).__name__})"
            raise PatchError(path + (i,), f"{got} cannot be merged into this list, whose items are merged by name",
                             "give the item its name (e.g. the container's, ascend), or start the list with "
                             "{$patch: replace} to replace the whole list")
        name = item["name"]
        if item.get(PATCH_KEY) == DELETE:
            if name not in index:
                raise PatchError(path + (i, "name"), f"there is no item named {name!r} to remove",
                                 f"the names here: {', '.join(index) or 'none'}")
            merged[index[name]] = None
            continue
        if name in index and merged[index[name]] is not None:
            merged[index[name]] = apply_patch(merged[index[name]], item, path + (i,))
        else:
            index[name] = len(merged)
            merged.append(_fresh(item, path + (i,)))
    return [item for item in merged if item is not None]
