"""The careful loader: PyYAML's safe loader (libyaml's when present) that refuses duplicate keys and turns odd
scalars into located errors.  Imported only when a stream is not plain block YAML (see :mod:`.parsing`).
"""
from __future__ import annotations

from typing import Any

import yaml

from . import fastload
from .common import MAX_INT_CHARS, BaseLoader


_MERGE_TAG = "tag:yaml.org,2002:merge"


class Loader(BaseLoader):  # type: ignore[misc,valid-type]
    """Safe loader that refuses duplicate keys."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:  # type: ignore[override]
        if not isinstance(node, yaml.MappingNode):
            return super().construct_mapping(node, deep=deep)
        pairs = node.value
        try:
            texts = {key_node.value for key_node, _ in pairs}
        except TypeError:  # a collection used as a key: take the careful path
            texts = set()
        if len(texts) == len(pairs) and not any(key_node.tag == _MERGE_TAG for key_node, _ in pairs):
            # Fast path: every key is written differently and there is no merge
            # key, so a duplicate can only be two spellings of one value (1 and
            # 01, true and yes): the mapping then has fewer entries than keys.
            mapping = super().construct_mapping(node, deep=deep)
            if len(mapping) == len(pairs):
                return mapping
        by_text: dict[Any, Any] = {}
        by_value: dict[Any, Any] = {}
        for key_node, _ in pairs:
            if key_node.tag == _MERGE_TAG or not isinstance(key_node, yaml.ScalarNode):
                continue
            text = key_node.value
            first = by_text.get(text)
            if first is None:
                try:
                    value = self.construct_object(key_node)
                    first = by_value.get(value)
                    by_value.setdefault(value, key_node.start_mark)
                except (TypeError, yaml.YAMLError):
                    pass
            if first is not None:
                raise DuplicateKey(text, key_node.start_mark, first)
            by_text[text] = key_node.start_mark
        return super().construct_mapping(node, deep=deep)


def _scalar_text(node: yaml.Node) -> str:
    text = node.value if isinstance(node, yaml.ScalarNode) else ""
    return text if len(text) <= 40 else text[:37] + "..."


def _guarded(construct: Any, what: str) -> Any:
    """Turn the ValueError/KeyError/... a scalar constructor raises on odd input into a located error."""

    def guarded(loader: Any, node: yaml.Node) -> Any:
        try:
            return construct(loader, node)
        except yaml.YAMLError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError) as exc:
            detail = str(exc).split(";")[0] if isinstance(exc, ValueError) and what.startswith("a date") else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"cannot read {_scalar_text(node)!r} as {what}" + (f" ({detail})" if detail else ""),
                node.start_mark) from None

    return guarded


def _construct_int(loader: Any, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode) and len(node.value) > MAX_INT_CHARS:
        raise yaml.constructor.ConstructorError(
            None, None, f"the integer {_scalar_text(node)} has {len(node.value)} characters, too long to read "
            f"(Kubernetes integers have at most 19 digits)", node.start_mark)
    return yaml.constructor.SafeConstructor.construct_yaml_int(loader, node)  # type: ignore[arg-type]


def _construct_binary(loader: Any, node: yaml.Node) -> str:
    """``!!binary``: check the base64, keep it as text (what Kubernetes' binaryData holds)."""
    yaml.constructor.SafeConstructor.construct_yaml_binary(loader, node)  # type: ignore[arg-type]
    return "".join(loader.construct_scalar(node).split())


_SAFE = yaml.constructor.SafeConstructor
for _tag, _construct, _what in (
        ("int", _construct_int, "an integer"),
        ("float", _SAFE.construct_yaml_float, "a number"),
        ("bool", _SAFE.construct_yaml_bool, "a boolean"),
        ("timestamp", _SAFE.construct_yaml_timestamp, "a date or time"),
        ("binary", _construct_binary, "base64 data")):
    Loader.add_constructor(f"tag:yaml.org,2002:{_tag}", _guarded(_construct, _what))
# Keep the data JSON-typed (dicts, lists, str, int, float, bool, None; dates stay dates): a set is
# a mapping to nulls, and an ordered map or pairs list is read as the list of pairs it is written as.
Loader.add_constructor("tag:yaml.org,2002:set", _SAFE.construct_yaml_map)  # type: ignore[type-var]
Loader.add_constructor("tag:yaml.org,2002:omap", _SAFE.construct_yaml_seq)  # type: ignore[type-var]
Loader.add_constructor("tag:yaml.org,2002:pairs", _SAFE.construct_yaml_seq)  # type: ignore[type-var]
fastload.use_resolvers(Loader)


class DuplicateKey(Exception):
    def __init__(self, key: Any, mark: Any, first: Any):
        super().__init__(key)
        self.key, self.mark, self.first = key, mark, first
