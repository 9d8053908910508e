"""A Pouch in progress (S20): the scratchpad the steps of the pipeline fill in, in order."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress

from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.roles import RING_ROLES
from deaddrop.engine.station.state import (
    Death,
    Operation,
    Order,
    Result,
    Rumor,
    State,
    Vote,
    Whisper,
)

Saved = tuple[tuple[Operation | None, ...], tuple[Vote, ...], tuple[Whisper, ...]]
"""A day's saved Operations, votes and whispers, as a State holds them."""

NOBODY: frozenset[int] = frozenset()
"""No seat: what `cancelled`, `framed` and `sheltered` hold until a step puts someone in. Most
Pouches put nobody in some of them, and an empty set made for each costs as much as a step."""

LIQUIDATION = "liquidation"
"""The kind of the performer's Operation once the order is locked (S12)."""


class Resolution:
    """A Pouch in progress: `lock` makes it, each step of S20 fills in its part, in order.

    Mutable on purpose, and private to one `pouch.advance`: nobody else ever holds one, the
    State it reads is never changed, and `publish` turns it into immutable records once. An
    immutable one copied at each of ten steps cost more than the steps' own work.
    """

    __slots__ = (
        "abstain",
        "alive",
        "by_kind",
        "cancelled",
        "deaths",
        "detained",
        "framed",
        "interrogator",
        "kinds",
        "liquidated",
        "liquidation",
        "living",
        "notes",
        "operations",
        "readings",
        "recalled",
        "rng",
        "rumor",
        "sheltered",
        "state",
        "tally",
        "targets",
        "threshold",
        "votes",
        "whispers",
        "winner",
    )

    def __init__(
        self,
        state: State,
        saved: Saved,
        kinds: list[str | None],
        targets: list[int],
        by_kind: dict[str, list[tuple[int, int]]],
    ) -> None:
        self.state = state
        """The day being resolved, as it stood at the deadline (its saves may be apart)."""
        self.operations, self.votes, self.whispers = saved
        """The day's saved Operations, votes and whispers, at the deadline."""
        self.kinds = kinds
        """Per seat, the kind of Operation that resolves unless cancelled (a role or
        LIQUIDATION, after S7 and S12); None for no Operation."""
        self.targets = targets
        """Per seat, the target of that Operation (-1 for none)."""
        self.by_kind = by_kind
        """(seat, target) of every Operation of each kind, in join order; from `settle` on,
        of every one that was not cancelled."""
        self.liquidation: Order | None = None
        """The locked Ring order (S12)."""
        self.cancelled: frozenset[int] = NOBODY
        """Seats whose Operation was cancelled (S14, S15)."""
        self.detained: int | None = None
        """The detainee (S14)."""
        self.interrogator: int | None = None
        """Who detained them: the other party of the interrogation chat (S14)."""
        self.framed: frozenset[int] = NOBODY
        """Seats framed this Pouch (S16)."""
        self.sheltered: frozenset[int] = NOBODY
        """Seats sheltered this Pouch (S17)."""
        self.liquidated: int | None = None
        """The seat the liquidation killed (S18)."""
        self.notes: tuple[tuple[int, Result], ...] = ()
        """Private notes: safehouse_needed (S18)."""
        self.readings: list[tuple[int, Result]] = []
        """Role results of information Operations (S19)."""
        self.rumor: Rumor | None = None
        """The Defector rumor (S27)."""
        self.rng: Rng = state.rng
        """The generator after this Pouch's draws."""
        self.tally: tuple[tuple[int, int], ...] = ()
        """Votes per seat that received any, by seat (S21)."""
        self.abstain = 0
        """Abstentions, saved or by default (S7)."""
        self.threshold = 0
        """ceil(L / 3) (S21)."""
        self.recalled: int | None = None
        """The Tribunal's choice (S21)."""
        self.deaths: tuple[Death, ...] = ()
        """Everyone burned at this Pouch, by seat (S22)."""
        self.alive: tuple[bool, ...] = state.alive
        """Who lives: at lock, then after step 10."""
        self.living: tuple[int, ...] = tuple(compress(range(len(state.alive)), state.alive))
        """The seats living at lock: the voters and the L of S21."""
        self.winner: str | None = None
        """station or ring when the game ends here (S24)."""

    def acting(self, kind: str) -> Sequence[tuple[int, int]]:
        """(seat, target) of every uncancelled Operation of this kind, in join order."""
        pairs = self.by_kind.get(kind, ())
        cancelled = self.cancelled
        if cancelled:  # most Pouches cancel nothing: the pairs as locked, not a copy
            return [pair for pair in pairs if pair[0] not in cancelled]
        return pairs

    def settle(self) -> None:
        """Take the cancelled Operations out of `by_kind`: steps 2 and 3 are the only ones that
        cancel (S20), so each later step reads what resolves without filtering again."""
        # A seat or two at most is cancelled: their pairs leave the lists as locked, in place.
        by_kind, kinds, targets = self.by_kind, self.kinds, self.targets
        for seat in self.cancelled:
            kind = kinds[seat]
            assert kind is not None  # only a seat with an Operation is ever cancelled
            by_kind[kind].remove((seat, targets[seat]))


def lock(state: State, saved: Saved | None = None) -> Resolution:
    """Step 1: the last saved Operations count (S7); the order becomes the performer's (S12).

    `saved`: the day's saves when they are not in `state` yet (`saves.check_saves`).
    """
    if saved is None:
        saved = state.operations, state.votes, state.whispers
    seats, alive = state.seats, state.alive
    kinds: list[str | None] = [None] * len(seats)
    targets = [-1] * len(seats)
    by_kind: dict[str, list[tuple[int, int]]] = {}  # filled in the same pass, in join order
    liquidation: Order | None = None
    for seat, operation in enumerate(saved[0]):
        if operation is None or not alive[seat]:
            continue
        if type(operation) is Order:
            if seat == state.order_holder and _order_stands(state, operation):
                liquidation = operation
            continue  # S12: the order itself is not a visit
        target = operation.target
        if alive[target]:  # S8, S40: a target removed since saving drops out
            kinds[seat] = role = seats[seat].role
            targets[seat] = target
            pairs = by_kind.get(role)
            if pairs is None:
                by_kind[role] = [(seat, target)]
            else:
                pairs.append((seat, target))
    if liquidation is not None:
        # S12: the liquidation replaces whatever the performer had queued.
        performer = liquidation.performer
        queued = kinds[performer]
        if queued is not None:
            by_kind[queued].remove((performer, targets[performer]))
        kinds[performer], targets[performer] = LIQUIDATION, liquidation.target
        by_kind[LIQUIDATION] = [(performer, liquidation.target)]
    res = Resolution(state, saved, kinds, targets, by_kind)
    res.liquidation = liquidation
    return res


def _order_stands(state: State, order: Order) -> bool:
    """An order still valid at lock: day 2 on, living non-Ring target, living Ring performer."""
    alive, seats = state.alive, state.seats
    return (
        state.day >= 2
        and alive[order.target]
        and alive[order.performer]
        and seats[order.target].role not in RING_ROLES
        and seats[order.performer].role in RING_ROLES
    )
