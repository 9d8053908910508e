"""A Pouch in progress (S20): what each step of the pipeline takes and returns."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.state import Death, Order, Result, Rumor, State

LIQUIDATION = "liquidation"
"""The kind of the performer's Operation once the order is locked (S12)."""

Act = tuple[str, int]
"""An Operation about to resolve: (the role that performs it, or liquidation; the target)."""


class Resolution(NamedTuple):
    """A Pouch in progress: each step takes one and returns the next.

    A NamedTuple rather than a frozen dataclass: equally immutable, and cheaper to copy, which
    matters at ten steps a Pouch; a step copies it with `but`, not `_replace` (see there).
    """

    state: State
    """The day being resolved, as it stood at the deadline."""
    acts: tuple[Act | None, ...]
    """Per seat, the Operation that will resolve unless cancelled (after S7 and S12)."""
    by_kind: Mapping[str, tuple[tuple[int, int], ...]]
    """(seat, target) of every act, grouped by kind, in join order."""
    liquidation: Order | None = None
    """The locked Ring order (S12)."""
    cancelled: frozenset[int] = frozenset()
    """Seats whose Operation was cancelled (S14, S15)."""
    detained: int | None = None
    """The detainee (S14)."""
    interrogator: int | None = None
    """Who detained them: the other party of the interrogation chat (S14)."""
    framed: frozenset[int] = frozenset()
    """Seats framed this Pouch (S16)."""
    sheltered: frozenset[int] = frozenset()
    """Seats sheltered this Pouch (S17)."""
    liquidated: int | None = None
    """The seat the liquidation killed (S18)."""
    notes: tuple[tuple[int, Result], ...] = ()
    """Private notes: safehouse_needed (S18)."""
    readings: tuple[tuple[int, Result], ...] = ()
    """Role results of information Operations (S19)."""
    rumor: Rumor | None = None
    """The Defector rumor (S27)."""
    rng: Rng | None = None
    """The generator after this Pouch's draws (None: unchanged)."""
    tally: tuple[tuple[int, int], ...] = ()
    """Votes per seat that received any (S21)."""
    abstain: int = 0
    """Abstentions, saved or by default (S7)."""
    threshold: int = 0
    """ceil(L / 3) (S21)."""
    recalled: int | None = None
    """The Tribunal's choice (S21)."""
    deaths: tuple[Death, ...] = ()
    """Everyone burned at this Pouch, by seat (S22)."""
    alive: tuple[bool, ...] = ()
    """Who lives: at lock, then after step 10."""
    living: tuple[int, ...] = ()
    """The seats living at lock: the voters and the L of S21."""
    winner: str | None = None
    """station or ring when the game ends here (S24)."""

    def but(self, **changes: Any) -> Resolution:
        """A copy with these fields changed.

        `_replace` pops every field's name from the changes (22 of them); this sets only the
        changed ones, at about half the cost on a Pouch's five or so copies.
        """
        values: list[Any] = list(self)
        for name, value in changes.items():
            values[_FIELD_INDEX[name]] = value
        return Resolution._make(values)

    def acting(self, kind: str) -> Sequence[tuple[int, int]]:
        """(seat, target) of every uncancelled Operation of this kind, in join order."""
        pairs = self.by_kind.get(kind, ())
        cancelled = self.cancelled
        if cancelled:  # most Pouches cancel nothing: the pairs as locked, not a copy
            return [pair for pair in pairs if pair[0] not in cancelled]
        return pairs


_FIELD_INDEX = {name: index for index, name in enumerate(Resolution._fields)}
