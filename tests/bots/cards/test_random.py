"""The random Cards bot: uniformly random legal options from a view alone (C13)."""

from __future__ import annotations

from collections import Counter

import pytest

from deaddrop.bots.cards.play import Table, play_game
from deaddrop.bots.cards.random_bot import RandomBot
from deaddrop.engine.cards import Grab, Setup, legal_actions, view


def test_c13_random_bot_picks_only_legal_options_from_the_view() -> None:
    for seed in range(30):
        players = 2 + seed % 3
        table = Table(Setup(players, seed), [RandomBot(seed + s) for s in range(players)])
        while not table.over:
            state = table.state
            assert state.pending is not None
            seat = state.pending.seat
            choice = RandomBot(seed).choose(view(state, seat))
            assert choice in legal_actions(state)
            table.step()


def test_random_bot_is_deterministic_for_a_seed() -> None:
    def game(seed: int) -> list[object]:
        return list(play_game(Setup(3, 7), [RandomBot(seed + s) for s in range(3)]).actions)

    assert game(1) == game(1)
    assert game(1) != game(2)


def test_random_bot_spreads_over_the_options_and_grabs_at_random() -> None:
    state = Table(Setup(2, 3), [RandomBot(0), RandomBot(1)]).state
    assert state.pending is not None
    seat_view = view(state, state.pending.seat)
    bot = RandomBot(5)
    picks = Counter(bot.choose(seat_view) for _ in range(3000))
    options = legal_actions(state)
    assert set(picks) == set(options)
    assert max(picks.values()) < 3 * min(picks.values())  # uniform, loosely
    grabs = sum(
        isinstance(action, Grab)
        for seed in range(20)
        for action in play_game(Setup(2, seed), [RandomBot(seed), RandomBot(seed + 1)]).actions
    )
    assert grabs > 0


def test_random_bot_refuses_a_view_without_its_decision() -> None:
    state = Table(Setup(2, 3), [RandomBot(0), RandomBot(1)]).state
    assert state.pending is not None
    other = 1 - state.pending.seat
    with pytest.raises(ValueError, match="no decision"):
        RandomBot(0).choose(view(state, other))
