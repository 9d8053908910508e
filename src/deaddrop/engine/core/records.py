"""Cheap construction of the engines' frozen dataclasses: `builder` and `evolve`.

A frozen dataclass's generated __init__ sets every field through `object.__setattr__`: about
1,000 machine instructions a field, 16,000 for the Station State, paid on every save and every
Pouch. `builder` writes, once per class (as dataclasses writes __init__), a constructor that
stores the same values without it: for a class without slots, the whole instance __dict__ in
one store (about a tenth of the cost); with slots, each slot's own setter (about three
quarters). The records it makes are the very objects `cls(...)` makes: equal, hashable, frozen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T")

_BUILDERS: dict[type, Callable[..., Any]] = {}
_READERS: dict[type, tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]] = {}


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
    lines = [f"def build({', '.join(names)}):", "    record = new(cls)"]
    if "__slots__" in cls.__dict__:
        for name in names:  # each slot's own setter: no name lookup
            namespace[f"set_{name}"] = cls.__dict__[name].__set__
            lines.append(f"    set_{name}(record, {name})")
    else:  # the whole __dict__ in one store: a dict display is built in one instruction
        fields_dict = ", ".join(f"{name!r}: {name}" for name in names)
        lines.append(f"    set_attribute(record, '__dict__', {{{fields_dict}}})")
    lines.append("    return record")
    exec("\n".join(lines), namespace)
    build: Callable[..., Any] = namespace["build"]
    return build


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed (`dataclasses.replace`, at a
    fraction of its cost)."""
    read, places = _READERS.get(type(record)) or _reader(type(record))
    values = list(read(record))
    for name, value in changes.items():
        values[places[name]] = value
    result: T = builder(type(record))(*values)
    return result


def _reader(cls: type) -> tuple[Callable[[Any], tuple[Any, ...]], dict[str, int]]:
    """Every field of a record at once, in order, and each field's place in that order."""
    names = tuple(field.name for field in fields(cls))
    read = attrgetter(*names) if len(names) > 1 else lambda record: (getattr(record, names[0]),)
    reader = _READERS[cls] = (read, {name: i for i, name in enumerate(names)})
    return reader
