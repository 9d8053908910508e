"""Shared helpers for the Cards engine tests: fixed tables, scripted and random play."""

from __future__ import annotations

import random
from collections import Counter

from deaddrop.engine.cards import (
    Action,
    Deal,
    MayGrab,
    Options,
    Setup,
    State,
    apply,
    legal_actions,
    start,
)
from deaddrop.engine.core.events import Event

# The deal of the README example: Drop 2, Stash 0 1 3, hands 001 / 123 / 045.
README_DEAL = Deal.of(2, (0, 1, 3), ((0, 0, 1), (1, 2, 3), (4, 5, 0)))
# A 2-player deal (scenario 07): Drop 4.
TWO_DEAL = Deal.of(4, (0, 5), ((0, 0, 1, 1, 2), (0, 1, 2, 3, 3)))
# A 4-player deal: Drop 5, Stash 0 0 1 1.
FOUR_DEAL = Deal.of(5, (0, 0, 1, 1), ((0, 2), (0, 3), (1, 2), (3, 4)))

DEFAULT_CAP = 3000
"""Decisions after which a random game is cut off (random play can loop for long)."""


def table(
    deal: Deal = README_DEAL,
    first: int = 0,
    *more_deals: Deal,
    grab_face_down: bool = False,
    tokens_to_win: int = 3,
    seed: int = 0,
) -> State:
    """A new game that starts from fixed deals and a fixed first seat."""
    players = len(deal.hands)
    options = Options(grab_face_down=grab_face_down, tokens_to_win=tokens_to_win)
    return start(Setup(players, seed, options, first, (deal, *more_deals)))


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply the actions in order; the final state and every event they caused."""
    events: list[Event] = []
    for action in actions:
        state, caused = apply(state, action)
        events.extend(caused)
    return state, events


def kinds(events: list[Event]) -> list[str]:
    """The kinds of the events, in order."""
    return [event.kind for event in events]


def cards_on_table(state: State) -> Counter[int]:
    """The multiset of every card: Drop, Stash and hands."""
    counts = Counter(state.stash)
    counts[state.drop] += 1
    for hand in state.hands:
        counts.update(hand)
    return counts


def play_random(
    setup: Setup, chooser: int, cap: int = DEFAULT_CAP, patience: float = 0.0
) -> tuple[State, list[Action], list[State]]:
    """A random legal game (choices seeded by `chooser`), cut off after `cap` decisions.

    `patience` is the chance to end the turn rather than pick uniformly when a grab is open
    (uniform picking grabs nearly always, so rounds are short). Returns the final state, the
    action log and every state passed through (the first one is the new game).
    """
    rnd = random.Random(chooser)
    state = start(setup)
    states = [state]
    log: list[Action] = []
    while state.pending is not None and len(log) < cap:
        options = legal_actions(state)
        if isinstance(state.pending, MayGrab) and rnd.random() < patience:
            action = options[0]  # EndTurn comes first
        else:
            action = options[rnd.randrange(len(options))]
        state, _ = apply(state, action)
        log.append(action)
        states.append(state)
    return state, log, states
