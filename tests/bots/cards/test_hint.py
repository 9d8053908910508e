"""The master's hint after a game: the posterior and the options it weighed (C12, C13)."""

from __future__ import annotations

from deaddrop.bots.cards.hint import TOP, game_hint, hint_at, last_decision
from deaddrop.bots.cards.master import MasterBot
from deaddrop.bots.cards.play import play_game
from deaddrop.bots.cards.registry import make_bot
from deaddrop.engine.cards import Action, Options, Setup


def _finished(players: int, seed: int) -> tuple[Setup, list[Action]]:
    setup = Setup(players, seed, Options(tokens_to_win=1))
    bots = [make_bot("heuristic", seed + s) for s in range(players)]
    result = play_game(setup, bots)
    assert result.replayable and result.winner is not None
    return setup, result.actions


def test_c13_the_hint_is_the_masters_weighing_of_the_seats_last_decision() -> None:
    for players in (2, 3):
        setup, actions = _finished(players, 4)
        found = last_decision(setup, actions, 0)
        assert found is not None
        seat_view, taken = found
        assert seat_view["viewer"] == 0 and seat_view["pending"]["seat"] == 0
        assert seat_view["pending"]["kind"] in ("action", "grab")
        assert taken in actions
        hint = game_hint(setup, actions, 0)
        assert hint is not None and hint.taken == taken and hint.round == seat_view["round"]
        assert abs(sum(hint.drop) - 1.0) < 1e-9 and len(hint.drop) == 6
        assert 1 <= len(hint.options) <= TOP
        # The hint is the master's own choice at that view: its first option.
        assert MasterBot(0, budget=None).choose(seat_view) == hint.options[0].action
        assert hint_at(seat_view, taken) == hint  # seeded: the same game, the same hint


def test_c12_no_hint_while_the_game_is_on() -> None:
    setup, actions = _finished(2, 6)
    assert game_hint(setup, actions[: len(actions) // 2], 0) is None
