"""`evolve`: a fast `dataclasses.replace` for the engines' frozen dataclasses."""

from __future__ import annotations

from dataclasses import fields
from typing import Any, TypeVar

T = TypeVar("T")

_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def evolve(record: T, **changes: Any) -> T:
    """A copy of a frozen dataclass with some fields changed (about twice replace's speed)."""
    cls = type(record)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]
    return cls(*[changes[name] if name in changes else getattr(record, name) for name in names])
