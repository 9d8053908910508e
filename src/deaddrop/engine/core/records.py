"""The engines' records (`record`: frozen, slotted dataclasses) and their cheap construction:
`builder` and `evolve`.

A frozen dataclass's generated __init__ sets every field through `object.__setattr__`: about
1,000 machine instructions a field, 16,000 for the Station State, paid on every save and every
Pouch. `builder` writes, once per class (as dataclasses writes __init__), a constructor that
stores the same values without it: with slots, a plain store into each slot of an unfrozen
twin of the class, which then becomes the class itself (about a tenth of the cost); without
slots, the whole instance __dict__ in one store (as much, but three times the memory). The
records it makes are the very objects `cls(...)` makes: equal, hashable, frozen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, TypeVar, dataclass_transform

T = TypeVar("T")

_BUILDERS: dict[type, Callable[..., Any]] = {}
_READERS: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {}
_DICT_FIELDS: dict[type, frozenset[str]] = {}
"""The fields of each record class whose instances `evolve` copies by their __dict__."""


def builder(cls: type[T]) -> Callable[..., T]:
    """A constructor of the dataclass `cls` taking every field, defaults included, by position
    in declaration order or by name."""
    build = _BUILDERS.get(cls)
    if build is None:
        build = _BUILDERS[cls] = _compile_builder(cls)
    return build


def _compile_builder(cls: type) -> Callable[..., Any]:
    """`build(a, b, ...)`: a new object, then its fields stored at once (the class itself when
    its own __init__ must run, for a __post_init__)."""
    names = [field.name for field in fields(cls)]
    if hasattr(cls, "__post_init__"):
        return cls
    namespace: dict[str, Any] = {"new": object.__new__, "set_attribute": object.__setattr__}
    namespace["cls"] = cls
    lines = [f"def build({', '.join(names)}):"]
    twin = _unfrozen_twin(cls) if "__slots__" in cls.__dict__ else None
    if twin is not None:  # plain slot stores into the twin, then the object becomes a `cls`
        namespace["twin"] = twin
        lines.append("    record = new(twin)")
        lines.extend(f"    record.{name} = {name}" for name in names)
        lines.append("    record.__class__ = cls")
    elif "__slots__" in cls.__dict__:
        lines.append("    record = new(cls)")
        for name in names:  # each slot's own setter: no name lookup
            namespace[f"set_{name}"] = cls.__dict__[name].__set__
            lines.append(f"    set_{name}(record, {name})")
    else:  # the whole __dict__ in one store: a dict display is built in one instruction
        fields_dict = ", ".join(f"{name!r}: {name}" for name in names)
        lines.append("    record = new(cls)")
        lines.append(f"    set_attribute(record, '__dict__', {{{fields_dict}}})")
    lines.append("    return record")
    exec("\n".join(lines), namespace)
    build: Callable[..., Any] = namespace["build"]
    return build


def _unfrozen_twin(cls: type) -> type | None:
    """A class with the very slots of the slotted record class `cls` and no frozen
    `__setattr__`, so that a builder stores each field with a plain attribute store (a third of
    the cost of calling each slot's setter) and then sets the object's class to `cls`: Python
    allows that between two classes of the same layout, and the object is then a `cls` like
    any other (frozen from then on). None when `cls` has a base with a layout of its own."""
    if cls.__bases__ != (object,):
        return None
    twin = type(f"_Unfrozen{cls.__name__}", (), {"__slots__": cls.__dict__["__slots__"]})
    probe: Any = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError:  # not the same layout after all: the slot setters will do
        return None
    return twin


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed (`dataclasses.replace`, at a
    fraction of its cost)."""
    cls = type(record)
    names = _DICT_FIELDS.get(cls)
    if names is not None and changes.keys() <= names:
        # A record without slots whose builder stores its __dict__ whole: a copy of that dict
        # with the changes is the same record, without reading each field out (a State: about
        # a third of the instructions of reading its 16 fields and building it anew).
        copy = object.__new__(cls)
        object.__setattr__(copy, "__dict__", {**record.__dict__, **changes})
        return copy
    read, places = _READERS.get(cls) or _reader(cls)
    values = list(read(record))
    for name, value in changes.items():
        values[places[name]] = value  # an unknown name fails here, as with `replace`
    result: T = builder(cls)(*values)
    return result


def _reader(cls: type) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]:
    """Every field of a record at once, in order, and each field's place in that order."""
    names = tuple(field.name for field in fields(cls))
    read = attrgetter(*names) if len(names) > 1 else lambda record: (getattr(record, names[0]),)
    reader = _READERS[cls] = (read, {name: i for i, name in enumerate(names)})
    if builder(cls) is not cls and "__slots__" not in cls.__dict__:
        _DICT_FIELDS[cls] = frozenset(names)  # `evolve` may copy its __dict__ from now on
    return reader


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """`cls` as an engine record: a frozen, slotted dataclass (equal by value, hashable)."""
    return dataclass(frozen=True, slots=True)(cls)
