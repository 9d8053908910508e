"""The master's hint after a game: what it weighed at the person's last decision (C12, C13).

Once a game is over a person may ask what the master would have made of their last decision
of the game (a main action or grab-or-end): the master is shown exactly the view that seat
had then and chooses; its `weighed` gives the posterior over The Drop and the value of the
options it weighed. A hint is only given after the game, so it never helps a live seat.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from deaddrop.bots.cards.master import MasterBot, Option
from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import ChooseAction, MayGrab, Setup
from deaddrop.engine.cards.views import view

_DECISIONS = (ChooseAction, MayGrab)
TOP = 3
"""How many of the master's options a hint shows."""
HINT_SEED = 0
"""The master's seed for hints: the same game always gets the same hint."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What the master weighed at one of the person's decisions."""

    round: int
    """The round of the decision."""
    kind: str
    """"action" (Share Info, Swap the Stash, Sell Secrets) or "grab" (grab or end the turn)."""
    taken: Action
    """What the person did."""
    drop: tuple[float, ...]
    """The master's posterior over The Drop then, indexed by value."""
    options: tuple[Option, ...]
    """The master's top options, its choice first."""
    playouts: int
    """Playouts per searched option still in the running at the end (0 when the master did
    not search)."""


def hint_at(seat_view: Mapping[str, Any], taken: Action) -> Hint:
    """What the master weighs at this view of a decision (main action or grab)."""
    master = MasterBot(HINT_SEED, budget=None)  # after the game no timer runs: every playout
    master.choose(seat_view)
    weighed = master.weighed
    assert weighed is not None
    return Hint(
        seat_view["round"],
        seat_view["pending"]["kind"],
        taken,
        weighed.drop,
        weighed.options[:TOP],
        weighed.playouts,
    )


def last_decision(
    setup: Setup, actions: Sequence[Action], seat: int
) -> tuple[dict[str, Any], Action] | None:
    """The seat's view at its last main action or grab of a finished game, and what it did."""
    state = start(setup)
    found = None
    for action in actions:
        pending = state.pending
        if pending is not None and pending.seat == seat and type(pending) in _DECISIONS:
            found = (state, action)
        state, _ = apply(state, action)
    if state.pending is not None or found is None:
        return None  # only after the game: a hint must never help a seat still playing
    return view(found[0], seat), found[1]


def game_hint(setup: Setup, actions: Sequence[Action], seat: int) -> Hint | None:
    """The master's hint on the seat's last decision, once the game is over; else None."""
    found = last_decision(setup, actions, seat)
    return None if found is None else hint_at(*found)
