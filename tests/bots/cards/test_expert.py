"""The expert Cards bot: it plays from views alone (C13), by its documented grab rule (C8)."""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping
from typing import Any

import pytest

from deaddrop.bots.cards.expert import ExpertBot, grab_threshold, seen_by
from deaddrop.engine.cards import (
    Action,
    Deal,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    Options,
    SellSecrets,
    Setup,
    ShareInfo,
    State,
    SwapStash,
    apply,
    start,
    view,
)
from deaddrop.engine.cards.legal import legal_actions_for_view
from tests.bots.cards.blind import same_answers_whatever_the_hidden_cards
from tests.engine.cards.helpers import README_DEAL, play, table

# C7: seat 0 holds 1 1 2 2 3 and the Stash is 3 4, so The Drop is 0, 1 or 5; seat 1 holds
# 0 0 0 0 1, so a "no" to a sale of 2+3 pins The Drop to 5.
PIN_DEAL = Deal.of(5, (3, 4), ((1, 1, 2, 2, 3), (0, 0, 0, 0, 1)))


class Uniform:
    """A uniformly random player that, like every bot, sees only views."""

    name = "uniform"

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, seat_view: Mapping[str, Any]) -> Action:
        """A random legal option of the view."""
        return self.rng.choice(legal_actions_for_view(seat_view))


def drive(state: State, bots: list[Any], decisions: int) -> State:
    """C13: play on, giving each bot only a deep copy of its seat's view, never the state."""
    for _ in range(decisions):
        if state.pending is None:
            break
        seat = state.pending.seat
        state, _ = apply(state, bots[seat].choose(copy.deepcopy(view(state, seat))))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c13_the_expert_plays_whole_games_legally_from_views(players: int) -> None:
    for seed in range(3):
        bots: list[Any] = [Uniform(seed + s) for s in range(players)]
        bots[::2] = [ExpertBot(seed + s) for s in range(0, players, 2)]
        setup = Setup(players, seed, Options(grab_face_down=seed == 1, tokens_to_win=2))
        state = drive(start(setup), bots, 3000)
        assert state.pending is None  # the game ended: every choice was legal (else apply raises)


def test_c13_same_view_same_answer_whatever_the_hidden_cards() -> None:
    # Two tables that differ only in what seat 0 cannot see: The Drop and a card of seat 2.
    assert same_answers_whatever_the_hidden_cards(ExpertBot, seeds=6, steps=40) >= 20


def test_c8_grabs_when_the_posterior_pins_the_drop() -> None:
    state, _ = play(table(PIN_DEAL, 0), SellSecrets(0, 1, (2, 3)))
    assert ExpertBot(0).choose(view(state, 0)) == Grab(0, (2, 3))


def test_c8_ends_the_turn_on_a_long_shot() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 3))
    assert ExpertBot(0).choose(view(state, 0)) == EndTurn(0)


def test_c4_as_target_it_keeps_the_pair_for_the_likely_drop() -> None:
    state, _ = play(table(PIN_DEAL, 0), SellSecrets(0, 1, (2, 3)), EndTurn(0), ShareInfo(1, 0, 0))
    for seed in range(5):
        choice = ExpertBot(seed).choose(view(state, 0))
        assert isinstance(choice, GiveCard) and choice.card != 3  # 2+3 is the only 5


def test_c7_hands_back_the_card_it_needs_least() -> None:
    # Seat 0 (0 0 1) sells 0+1 to seat 1 (1 2 3): yes, so the last unseen 1 is not The Drop,
    # and 2 is the likeliest Drop (two unseen copies). Keeping 1+1 makes it; keeping 0+0 does not.
    state, _ = play(table(README_DEAL, 0), SellSecrets(0, 1, (0, 1)))
    assert ExpertBot(0).choose(view(state, 0)) == HandBack(0, 0)


def test_c8_the_threshold_falls_with_more_opponents_a_match_point_and_a_long_round() -> None:
    two = view(table(PIN_DEAL, 0), 0)
    three = view(table(README_DEAL, 0), 0)
    assert grab_threshold(two) > grab_threshold(three)
    at_match_point = dict(three, tokens=[0, 2, 0])
    assert grab_threshold(at_match_point) < grab_threshold(three)
    turn = {"kind": "swap_stash", "public": True, "seat": 1, "give": 0, "take": 1}
    long_round = dict(three, log=[*three["log"], *[turn] * 300])
    assert grab_threshold(long_round) < grab_threshold(three)


def test_it_counts_what_opponents_have_seen_of_its_hand() -> None:
    state, _ = play(table(README_DEAL, 0), SellSecrets(0, 2, (0, 1)), EndTurn(0))
    seen = seen_by(view(state, 0))
    assert seen[2] == {0: 1, 1: 1} and not seen[1]


def test_the_expert_beats_random_players() -> None:
    wins = 0
    for seed in range(12):
        players = 2 + seed % 3
        bots: list[Any] = [Uniform(seed * 10 + s) for s in range(players)]
        expert = seed % players
        bots[expert] = ExpertBot(seed)
        state = drive(start(Setup(players, seed, Options(tokens_to_win=2))), bots, 5000)
        wins += state.winner == expert
    assert wins >= 10
