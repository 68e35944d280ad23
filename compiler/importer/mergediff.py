"""The patch that turns what a spec compiles to into the manifest a user had: the inverse of the spec's
escape hatches (:mod:`ascend_compile.emit.patch`).

``merge_diff(generated, original)`` is a patch ``p`` with ``apply_patch(generated, p)`` equal to
``original`` (lists of named objects compared regardless of order, as the merge keys them by name).
What a merge patch cannot say raises :class:`Uncarried` with the field path: an explicit ``null`` (a
patch's null deletes), a key spelled ``$patch``.
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple

from ..emit.patch import DELETE, PATCH_KEY, REPLACE

Path = Tuple[Any, ...]


class Uncarried(Exception):
    """A part of the manifest no spec (fields or patches) can carry; ``path`` is where it is."""

    def __init__(self, path: Path, why: str):
        super().__init__(why)
        self.path = path
        self.why = why


def _named(items: Any) -> bool:
    if not isinstance(items, list) or not items:
        return False
    names = [i.get("name") if isinstance(i, dict) else None for i in items]
    return all(isinstance(n, str) for n in names) and len(set(names)) == len(names)


def canonical(value: Any) -> Any:
    """``value`` with lists of uniquely named objects in name order (the merge keys them by name)."""
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        return sorted(items, key=lambda i: i["name"]) if _named(items) else items
    return value


def _fresh(value: Any, path: Path) -> Any:
    """A value where the generated object has nothing: carried as it is, if a patch can say it."""
    if value is None:
        raise Uncarried(path, "an explicit null (a patch's null deletes a key; write the field out or leave it out)")
    if isinstance(value, dict):
        if PATCH_KEY in value:
            raise Uncarried(path + (PATCH_KEY,), f"a key named {PATCH_KEY!r} (the patches' own directive)")
        return {k: _fresh(v, path + (k,)) for k, v in value.items()}
    if isinstance(value, list):
        items = [_fresh(v, path + (i,)) for i, v in enumerate(value)]
        if any(isinstance(i, dict) for i in items) and not _named(items):
            return [{PATCH_KEY: REPLACE}, *items]
        return items
    return value


class _Same:
    """Equality regardless of named-list order, each value made canonical once (both trees stay alive)."""

    def __init__(self) -> None:
        self.seen: Dict[int, Any] = {}

    def canon(self, value: Any) -> Any:
        if not isinstance(value, (dict, list)):
            return value
        found = self.seen.get(id(value))
        if found is None:
            found = self.seen[id(value)] = canonical(value)
        return found

    def __call__(self, a: Any, b: Any) -> bool:
        return bool(self.canon(a) == self.canon(b))


def merge_diff(generated: Any, original: Any, path: Path = (), same: Optional[_Same] = None) -> Any:
    """The patch from ``generated`` to ``original`` (call only when they differ)."""
    same = same or _Same()
    if isinstance(original, dict) and isinstance(generated, dict):
        out: Dict[str, Any] = {}
        for key in generated:
            if key not in original:
                out[key] = None
        for key, value in original.items():
            if key == PATCH_KEY:
                raise Uncarried(path + (key,), f"a key named {PATCH_KEY!r} (the patches' own directive)")
            if key not in generated:
                out[key] = _fresh(value, path + (key,))
            elif not same(generated[key], value):
                if value is None:
                    raise Uncarried(path + (key,), "an explicit null where the compiled job has a value")
                out[key] = merge_diff(generated[key], value, path + (key,), same)
        return out
    if isinstance(original, list):
        return _list_diff(generated, original, path, same)
    return _fresh(original, path)


def _list_diff(generated: Any, original: List[Any], path: Path, same: _Same) -> List[Any]:
    if not original:
        return [{PATCH_KEY: REPLACE}] if isinstance(generated, list) and any(isinstance(i, dict) for i in generated) \
            else []
    if _named(original) and (_named(generated) or generated in (None, [])):
        by_name = {item["name"]: item for item in generated or []}
        wanted = {item["name"] for item in original}
        patch: List[Any] = [{"name": name, PATCH_KEY: DELETE} for name in by_name if name not in wanted]
        for index, item in enumerate(original):
            old = by_name.get(item["name"])
            if old is None:
                patch.append(_fresh(item, path + (index,)))
            elif not same(old, item):
                patch.append({"name": item["name"], **merge_diff(old, item, path + (index,), same)})
        return patch
    return _fresh(original, path) if not any(isinstance(i, dict) for i in original) and \
        not (isinstance(generated, list) and any(isinstance(i, dict) for i in generated)) \
        else [{PATCH_KEY: REPLACE}, *[_fresh(v, path + (i,)) for i, v in enumerate(original)]]


def first_difference(left: Any, right: Any, path: Path = ()) -> Optional[Path]:
    """Where two values first differ (named lists by name), or None when they are equal."""
    left, right = canonical(left), canonical(right)
    if isinstance(left, dict) and isinstance(right, dict):
        for key in sorted(set(left) | set(right), key=str):
            if key not in left or key not in right:
                return path + (key,)
            found = first_difference(left[key], right[key], path + (key,))
            if found is not None:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list) and len(left) == len(right):
        for index, (a, b) in enumerate(zip(left, right)):
            found = first_difference(a, b, path + (index,))
            if found is not None:
                return found
        return None
    return None if left == right else path
