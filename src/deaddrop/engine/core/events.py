"""Events leave the engine tagged with their audience: who may ever see them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import Any

from deaddrop.engine.core.records import record


@record
class Audience:
    """Who may see an event: everyone at the table, or exactly the listed seats."""

    public: bool = False
    """True when every player and spectator may see it."""
    seats: frozenset[int] = field(default_factory=frozenset)
    """The seats that may see it when it is not public."""

    @staticmethod
    def everyone() -> Audience:
        """The public audience."""
        return _PUBLIC

    @staticmethod
    def only(*seats: int) -> Audience:
        """A private audience of exactly these seats."""
        return Audience(False, frozenset(seats))

    def includes(self, seat: int | None) -> bool:
        """Whether this seat (None: a spectator or outsider) may see the event."""
        if self.public:
            return True
        return seat is not None and seat in self.seats


_PUBLIC = Audience(True, frozenset())


@record
class Event:
    """Something that happened, with a JSON-ready payload and its audience."""

    kind: str
    """A short machine name, e.g. "morning_cable", "private_result", "trade"."""
    payload: Mapping[str, Any]
    """JSON-ready details; only the audience may see them."""
    audience: Audience
    """Who may see this event (deny by default: private to nobody unless listed)."""
