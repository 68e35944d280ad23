"""Frozen dataclasses that do not import :mod:`dataclasses` until something asks for dataclass machinery.

``import dataclasses`` costs about 8 ms (it imports inspect, ast, dis and tokenize), and each
dataclass about 0.7 ms more to define: together a sixth of a ``lint`` of one file, which pre-commit
runs on every commit.  The records the lint path builds (``Finding``, ``ProjectConfig``, ``Profile``)
are declared with ``@record(frozen=True)`` and ``field(default_factory=...)`` instead of
``@dataclass(frozen=True)`` and ``dataclasses.field``.  They get the methods the dataclass would have
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__match_args__``, and a ``__setattr__``
and ``__delattr__`` that raise :class:`dataclasses.FrozenInstanceError`), and they *are*
dataclasses: ``dataclasses.fields``, ``replace``, ``asdict`` and ``is_dataclass`` work, the dataclass
metadata being made the first time one of them asks.  Type checkers see ``dataclasses.dataclass``
itself.  ``tests/unit/test_records.py`` compares every record with the real dataclass of its fields.

:class:`NamedTuple` is :class:`typing.NamedTuple` without its start-up cost: under ``from __future__
import annotations`` typing turns each field's annotation into a ``ForwardRef``, which compiles the
text, and the first ``compile`` builds the whole ``ast`` type table (about 3% of a ``lint`` of one
file).  This one makes the same :func:`collections.namedtuple` and keeps the annotations as written.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Tuple

__all__ = ["NamedTuple", "field", "record"]

_META = ("__dataclass_fields__", "__dataclass_params__")


class _Factory:
    __slots__ = ("make",)

    def __init__(self, make: Callable[[], Any]):
        self.make = make


def _field(*, default_factory: Callable[[], Any]) -> Any:
    """``dataclasses.field(default_factory=...)`` for a record."""
    return _Factory(default_factory)


class _Record(type):
    """The type of records: makes the dataclass metadata when it is first asked for."""

    def __getattr__(cls, name: str) -> Any:
        if name in _META:
            _attach(cls)
            return type.__getattribute__(cls, name)
        raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")


def _record(*, frozen: bool = True) -> Callable[[type], type]:
    if not frozen:
        raise TypeError("records are frozen")
    return _make


def _make(cls: type) -> type:
    names = tuple(cls.__dict__.get("__annotations__", {}))
    defaults = {name: cls.__dict__[name] for name in names if name in cls.__dict__}
    namespace = {key: value for key, value in cls.__dict__.items()
                 if key not in ("__dict__", "__weakref__") and not isinstance(value, _Factory)}
    namespace.update(_methods(cls.__qualname__, names, defaults))
    namespace["__match_args__"] = names
    namespace["_record_defaults"] = defaults
    made = _Record(cls.__name__, cls.__bases__, namespace)
    made.__module__ = cls.__module__
    made.__qualname__ = cls.__qualname__
    return made


def _methods(qualname: str, names: Tuple[str, ...], defaults: Dict[str, Any]) -> Dict[str, Any]:
    """``__init__``, ``__repr__``, ``__eq__``, ``__hash__`` and the frozen setters, as dataclasses writes them.

    Written once here rather than generated per class: compiling generated code costs about as much
    as the dataclass it replaces.
    """
    known = frozenset(names)
    count = len(names)
    setter = object.__setattr__

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > count:
            raise TypeError(f"{qualname}() takes {count} positional arguments but {len(args)} were given")
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in known:
                raise TypeError(f"{qualname}() got an unexpected keyword argument {key!r}")
            if key in values:
                raise TypeError(f"{qualname}() got multiple values for argument {key!r}")
            values[key] = value
        for name in names:
            if name in values:
                setter(self, name, values[name])
                continue
            default = defaults.get(name, _NO_DEFAULT)
            if default is _NO_DEFAULT:
                raise TypeError(f"{qualname}() missing 1 required argument: {name!r}")
            setter(self, name, default.make() if isinstance(default, _Factory) else default)

    def values(self: Any) -> Tuple[Any, ...]:
        return tuple(getattr(self, name) for name in names)

    def __repr__(self: Any) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(names, values(self)))
        return f"{self.__class__.__qualname__}({shown})"

    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self: Any) -> int:
        return hash(values(self))

    return {"__init__": __init__, "__repr__": __repr__, "__eq__": __eq__, "__hash__": __hash__,
            "__setattr__": _frozen_setattr, "__delattr__": _frozen_delattr, "__getattr__": _instance_meta}


def _frozen_setattr(self: Any, name: str, value: Any) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: Any, name: str) -> None:
    from dataclasses import FrozenInstanceError

    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _instance_meta(self: Any, name: str) -> Any:
    """``dataclasses.fields(instance)`` before anyone asked the class: the class makes the metadata."""
    if name in _META:
        return getattr(type(self), name)
    raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


def _attach(cls: Any) -> None:
    """Give ``cls`` the metadata of the frozen dataclass of its fields (the fields carry its defaults)."""
    import dataclasses

    specs: List[Tuple[Any, ...]] = []
    for name, annotation in cls.__dict__["__annotations__"].items():
        default = cls._record_defaults.get(name, _NO_DEFAULT)
        if default is _NO_DEFAULT:
            specs.append((name, annotation))
        elif isinstance(default, _Factory):
            specs.append((name, annotation, dataclasses.field(default_factory=default.make)))
        else:
            specs.append((name, annotation, dataclasses.field(default=default)))
    twin = dataclasses.make_dataclass(cls.__name__, specs, frozen=True, namespace={"__module__": cls.__module__})
    for name in _META:
        type.__setattr__(cls, name, getattr(twin, name))


class _NoDefault:
    def __repr__(self) -> str:
        return "<no default>"


_NO_DEFAULT = _NoDefault()

#: what the class statement sets that is not the named tuple's to copy
_CLASS_ONLY = frozenset(("__module__", "__qualname__", "__annotations__", "__orig_bases__"))


class _NamedTupleMeta(type):
    """``class X(NamedTuple)`` makes the :func:`collections.namedtuple` of the annotated fields, as typing does."""

    def __new__(mcs, typename: str, bases: Tuple[type, ...], namespace: Dict[str, Any]) -> Any:
        from collections import namedtuple

        annotations = namespace.get("__annotations__", {})
        fields = list(annotations)
        with_default = [name for name in fields if name in namespace]
        if with_default != fields[len(fields) - len(with_default):]:
            raise TypeError(f"{typename}: a field without a default follows a field with one")
        made = namedtuple(typename, fields, defaults=[namespace[name] for name in with_default],  # type: ignore[misc]
                          module=namespace["__module__"])
        made.__annotations__ = dict(annotations)  # as written: typing.get_type_hints resolves them
        for key, value in namespace.items():
            if key in ("_fields", "_field_defaults", "_make", "_replace", "_asdict", "__new__", "__init__",
                       "__getnewargs__", "__slots__"):
                raise AttributeError(f"{typename}: cannot overwrite NamedTuple attribute {key}")
            if key not in _CLASS_ONLY and key not in made._fields:
                setattr(made, key, value)
        return made


if TYPE_CHECKING:  # type checkers see what records behave as
    from dataclasses import dataclass as record
    from dataclasses import field
    from typing import NamedTuple
else:
    record, field = _record, _field
    NamedTuple = type.__new__(_NamedTupleMeta, "NamedTuple", (), {})
