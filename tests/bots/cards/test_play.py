"""The game driver: each decider sees only its seat's view (C12, C13); turn cap; refusals."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from deaddrop.bots.cards.play import Table, play_game
from deaddrop.bots.cards.random_bot import RandomBot
from deaddrop.engine.cards import (
    Action,
    EndTurn,
    Options,
    Setup,
    State,
    SwapStash,
    export_record,
    replay,
    replay_record,
    view,
)
from deaddrop.engine.cards.legal import legal_actions_for_view
from deaddrop.engine.core.errors import IllegalAction


class Spy:
    """A random bot that keeps every view it was given."""

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)
        self.views: list[Mapping[str, Any]] = []

    def choose(self, seat_view: Mapping[str, Any]) -> Action:
        self.views.append(seat_view)
        return self.bot.choose(seat_view)


def _holds_state(value: object) -> bool:
    if isinstance(value, State):
        return True
    if isinstance(value, dict):
        return any(_holds_state(v) for v in value.values())
    if isinstance(value, list | tuple):
        return any(_holds_state(v) for v in value)
    return False


def test_c12_the_driver_views_equal_the_engine_views_at_every_step() -> None:
    for seed in range(12):
        players = 2 + seed % 3
        table = Table(Setup(players, seed), [RandomBot(seed + s) for s in range(players)])
        while not table.over:
            for seat in range(players):
                assert table.view(seat) == view(table.state, seat)
            table.step()


def test_c13_each_decider_gets_only_its_own_view() -> None:
    spies = [Spy(s) for s in range(3)]
    play_game(Setup(3, 11), spies)
    for seat, spy in enumerate(spies):
        assert spy.views
        for seat_view in spy.views:
            assert type(seat_view) is dict
            assert seat_view["viewer"] == seat
            assert seat_view["pending"]["seat"] == seat
            assert not _holds_state(seat_view)


def test_a_game_without_voids_replays_and_exports_as_a_record() -> None:
    setup = Setup(4, 5, Options(grab_face_down=True))
    result = play_game(setup, [RandomBot(s) for s in range(4)])
    assert result.replayable and result.winner is not None
    assert replay(setup, result.actions) == result.state
    outcome = replay_record(export_record(setup, result.actions))
    assert outcome["winner"] == result.winner
    assert result.rounds == len(result.state.results)
    assert sum(result.failed_grabs) == sum(len(r.eliminated) for r in result.state.results)


class Stubborn:
    """Never grabs: swaps its lowest card for the Stash's lowest and ends the turn."""

    def choose(self, seat_view: Mapping[str, Any]) -> Action:
        seat = seat_view["viewer"]
        if seat_view["pending"]["kind"] == "grab":
            return EndTurn(seat)
        return SwapStash(seat, seat_view["hand"][0], seat_view["stash"][0])


def test_the_turn_cap_voids_stuck_rounds_and_says_so() -> None:
    table = Table(Setup(2, 1), [Stubborn(), Stubborn()], turn_cap=6, void_cap=3)
    result = table.run()
    assert table.abandoned and result.winner is None
    assert result.voided_rounds == [1, 2, 3]
    assert not result.replayable
    voids = [e for e in table.view(0)["log"] if e["kind"] == "round_void"]
    assert [e["round"] for e in voids] == [1, 2]  # the third void abandons the game
    assert result.turns == 18


def test_a_voided_round_is_followed_by_a_fresh_deal_and_play_goes_on() -> None:
    table = Table(Setup(3, 4), [Stubborn(), Stubborn(), Stubborn()], turn_cap=4)
    first = table.state.first
    while not table.voided_rounds:
        table.step()
    assert table.voided_rounds == [1]
    assert table.state.round == 2 and table.round_turns == 0
    assert table.state.first == (first + 1) % 3  # C3: the next seat starts the next round
    assert table.state.results == ()  # a voided round has no winner
    for seat in range(3):
        assert table.view(seat) == {**view(table.state, seat), "log": table.view(seat)["log"]}
    table.step()
    assert len(table.actions) == 9


class Person:
    """A scripted person: first an illegal action, then a legal one; it hears refusals."""

    def __init__(self) -> None:
        self.refusals: list[str] = []
        self.tried = False

    def choose(self, seat_view: Mapping[str, Any]) -> Action:
        if not self.tried:
            self.tried = True
            return SwapStash(seat_view["viewer"], 9, 9)
        return legal_actions_for_view(seat_view)[0]

    def refused(self, error: IllegalAction) -> None:
        self.refusals.append(str(error))


def test_a_refused_person_is_told_why_and_asked_again() -> None:
    person = Person()
    table = Table(Setup(2, 0, first=0), [person, RandomBot(1)])
    table.step()
    assert len(person.refusals) == 1 and "C6" in person.refusals[0]
    assert len(table.actions) == 1


def test_a_bot_that_breaks_the_rules_is_a_bug() -> None:
    class Cheat:
        def choose(self, seat_view: Mapping[str, Any]) -> Action:
            return SwapStash(seat_view["viewer"], 9, 9)

    table = Table(Setup(2, 0, first=0), [Cheat(), Cheat()])
    with pytest.raises(IllegalAction):
        table.step()


def test_the_table_needs_one_decider_per_seat() -> None:
    with pytest.raises(ValueError, match="3 seats"):
        Table(Setup(3, 0), [RandomBot(0)])
