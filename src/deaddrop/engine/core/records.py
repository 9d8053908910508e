"""`evolve`: a fast `dataclasses.replace` for the engines' frozen dataclasses."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any, NamedTuple, TypeVar

T = TypeVar("T")


class _Layout(NamedTuple):
    """How to copy one dataclass: read every field at once, then set each one."""

    read: Callable[[Any], tuple[Any, ...]]
    """All the fields of a record, in declaration order."""
    places: dict[str, int]
    """Each field's place in that order."""
    build: Callable[[list[Any]], Any]
    """A new record from every field's value, in that order."""


_LAYOUTS: dict[type, _Layout] = {}


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed (about 2.5 times replace's speed)."""
    layout = _LAYOUTS.get(type(record)) or _layout(type(record))
    values = list(layout.read(record))
    places = layout.places
    for name, value in changes.items():
        values[places[name]] = value
    result: T = layout.build(values)
    return result


def _layout(cls: type) -> _Layout:
    """The layout of a dataclass, worked out on its first copy."""
    names = tuple(f.name for f in fields(cls))
    read = attrgetter(*names) if len(names) > 1 else lambda record: (getattr(record, names[0]),)
    slots: list[Any] = [cls.__dict__.get(name) for name in names]
    if hasattr(cls, "__post_init__") or not all(hasattr(slot, "__set__") for slot in slots):

        def build(values: list[Any]) -> Any:
            return cls(*values)
    else:
        # A frozen dataclass's __init__ sets each field through object.__setattr__; setting
        # the slots directly stores the same values at twice the speed (a State: 16 fields).
        setters = tuple(slot.__set__ for slot in slots)
        new = object.__new__

        def build(values: list[Any]) -> Any:
            record: Any = new(cls)
            for setter, value in zip(setters, values):  # noqa: B905 (one length by build)
                setter(record, value)
            return record

    layout = _LAYOUTS[cls] = _Layout(read, {name: i for i, name in enumerate(names)}, build)
    return layout
