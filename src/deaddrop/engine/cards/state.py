"""The state of a game of Cards: frozen dataclasses, hands as sorted tuples of card values.

Equal card values are interchangeable, so a hand is a sorted tuple of ints and two states that
hold the same values in the same places are equal.
"""

from __future__ import annotations

from dataclasses import field

from deaddrop.engine.cards.deck import Deal
from deaddrop.engine.core.events import Event
from deaddrop.engine.core.records import record
from deaddrop.engine.core.rng import Rng

__all__ = [
    "ChooseAction",
    "ChooseGive",
    "ChooseHandBack",
    "MayGrab",
    "Options",
    "Pending",
    "RoundResult",
    "Setup",
    "State",
]
"""What the package re-exports: the setup, the state and its decisions."""


@record
class Options:
    """Table options of the card game."""

    grab_face_down: bool = False
    """C8: keep a grabbed pair hidden unless the grab fails (the Persian text)."""
    tokens_to_win: int = 3
    """C11: victory tokens that win the game."""


@record
class Setup:
    """Everything a game starts from; with its action log it is the whole game."""

    players: int
    """Number of seats, 2 to 4 (C2); seats are numbered from 0."""
    seed: int = 0
    """The game's RNG seed (C2): deals and round 1's first seat are drawn from it."""
    options: Options = field(default_factory=Options)
    """Table options."""
    first: int | None = None
    """Round 1's first seat; None draws it from the RNG (C3)."""
    deals: tuple[Deal, ...] = ()
    """Given deals for rounds 1, 2, … (from a game record); later rounds are dealt by the RNG."""


@record
class ChooseAction:
    """The mover must take one action: Share Info, Swap the Stash or Sell Secrets."""

    seat: int
    """The seat to decide: the mover."""


@record
class ChooseGive:
    """C4: the target of Share Info picks the card to give, without seeing the offered one."""

    seat: int
    """The seat to decide: the target."""
    mover: int
    """The seat whose turn it is."""
    offered: int
    """The card the mover gives; only the mover may see it until the trade is done."""


@record
class ChooseHandBack:
    """C7: after a yes, the seller picks which of the two shown cards to hand back."""

    seat: int
    """The seat to decide: the seller (the mover)."""
    buyer: int
    """The seat that answered yes and hands over a card of the sum's value."""
    show: tuple[int, int]
    """The two cards shown, ascending; only seller and buyer know them."""


@record
class MayGrab:
    """C8: the mover's action is done; they may Grab the Drop or end the turn."""

    seat: int
    """The seat to decide: the mover."""


Pending = ChooseAction | ChooseGive | ChooseHandBack | MayGrab
"""Who must decide what; a state's `pending` is None only once the game is over."""


@record
class RoundResult:
    """A finished round with every card revealed (C10)."""

    round: int
    """The round number, from 1."""
    first: int
    """The seat that started the round."""
    winner: int
    """The seat that took the token."""
    by: str
    """"grab" (C8) or "last_standing" (C9)."""
    eliminated: tuple[int, ...]
    """Seats in the order they fell."""
    answers: tuple[str, ...]
    """Every Sell Secrets answer of the round, "yes" or "no", in order."""
    drop: int
    """The Drop."""
    stash: tuple[int, ...]
    """The Stash at the end, sorted."""
    hands: tuple[tuple[int, ...], ...]
    """Every hand at the end, sorted; a winning grab leaves the pair in the winner's hand."""


@record
class State:
    """A game of Cards between two decisions. Never mutated: `apply` returns a new one."""

    setup: Setup
    """What the game started from (players, seed, options, given deals)."""
    rng: Rng
    """The game's RNG after every draw so far (C2)."""
    round: int
    """The current round, from 1 (the last one once the game is over)."""
    first: int
    """The seat that started the current round (C3)."""
    turn: int
    """The mover: the seat whose turn it is."""
    drop: int
    """The Drop: hidden from every view until the round ends."""
    stash: tuple[int, ...]
    """The Stash, face up, sorted."""
    hands: tuple[tuple[int, ...], ...]
    """Every seat's hand, sorted; an eliminated seat's hand lies face up (C8)."""
    eliminated: tuple[int, ...]
    """Seats out of the current round, in the order they fell."""
    answers: tuple[str, ...]
    """The current round's Sell Secrets answers in order."""
    tokens: tuple[int, ...]
    """Victory tokens per seat."""
    pending: Pending | None
    """The decision awaited, or None when the game is over."""
    winner: int | None
    """The seat that won the game (C11), else None."""
    results: tuple[RoundResult, ...]
    """Every finished round, in order."""
    log: tuple[Event, ...]
    """Every event so far, each with its audience."""

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.setup.players

    @property
    def options(self) -> Options:
        """Table options."""
        return self.setup.options

    def in_round(self, seat: int) -> bool:
        """Whether the seat is still in the current round (not eliminated)."""
        return seat not in self.eliminated
