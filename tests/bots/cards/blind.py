"""C13's check for any Cards bot: two tables that differ only in what seat 0 cannot see."""

from __future__ import annotations

import random
from collections.abc import Callable

from deaddrop.bots.cards.base import CardsBot
from deaddrop.engine.cards import Action, Deal, State, apply, legal_actions, view
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, table

# README_DEAL with The Drop and a card of seat 2 changed: seat 0 cannot tell them apart.
TWIN_DEAL = Deal.of(4, README_DEAL.stash, ((0, 0, 1), (1, 2, 3), (0, 2, 5)))


def same_answers_whatever_the_hidden_cards(
    make: Callable[[int], CardsBot], seeds: int, steps: int
) -> int:
    """Play both tables alike; seat 0's bots must answer equal views alike. Decisions asked."""
    assert TWIN_DEAL != README_DEAL
    rng = random.Random(3)
    asked = 0
    for seed in range(seeds):
        a, b = table(README_DEAL, seed % 3), table(TWIN_DEAL, seed % 3)
        bot_a, bot_b = make(seed), make(seed)
        for _ in range(steps):
            if a.pending is None or b.pending is None or view(a, 0) != view(b, 0):
                break  # a round ended, or the bot's own sale told the tables apart (C7)
            if a.pending.seat == 0:
                action = bot_a.choose(view(a, 0))
                assert bot_b.choose(view(b, 0)) == action
                asked += 1
            else:
                # Another seat: any option legal at both tables that keeps seat 0's views equal.
                keep = [o for o in legal_actions(a) if _same_view(a, b, o)]
                if not keep:
                    break
                action = rng.choice(keep)
            a, _ = apply(a, action)
            b, _ = apply(b, action)
    return asked


def _same_view(a: State, b: State, action: Action) -> bool:
    try:
        after_a, after_b = apply(a, action)[0], apply(b, action)[0]
    except IllegalAction:
        return False
    return view(after_a, 0) == view(after_b, 0)
