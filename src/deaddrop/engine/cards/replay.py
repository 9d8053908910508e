"""A game is its setup plus its action log: `replay` rebuilds the state exactly."""

from __future__ import annotations

from collections.abc import Iterable

from deaddrop.engine.cards.actions import Action
from deaddrop.engine.cards.rounds import start
from deaddrop.engine.cards.rules import apply
from deaddrop.engine.cards.state import Setup, State


def replay(setup: Setup, log: Iterable[Action]) -> State:
    """The state after playing every action of the log from the setup; IllegalAction if one is."""
    state = start(setup)
    for action in log:
        state, _ = apply(state, action)
    return state
