"""A scenario's usual day, read and checked in one pass, gives what the careful path gives."""

from __future__ import annotations

from typing import Any

import pytest

from deaddrop.bots.station.random_bot import random_game
from deaddrop.engine.core.records import evolve
from deaddrop.engine.station.pouch import advance
from deaddrop.engine.station.resolution import Saved
from deaddrop.engine.station.saves import BatchRefused, check_saves
from deaddrop.engine.station.scenario import (
    ScenarioError,
    export_scenario,
    parse_day,
    start_scenario,
)
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.state import State
from deaddrop.engine.station.usual_day import usual_saves


def _careful(state: State, spec: Any, seat_of: dict[str, int]) -> Saved | None:
    """The saves by parse_day and check_saves, or None when they refuse the day."""
    try:
        return check_saves(state, parse_day(state.day, spec, seat_of))
    except (BatchRefused, ScenarioError):
        return None


@pytest.mark.parametrize("players,seed", [(6, 1), (7, 2), (8, 3), (9, 4), (10, 5), (10, 6)])
def test_every_day_of_a_played_game_is_usual(players: int, seed: int) -> None:
    names = tuple(f"P{i}" for i in range(players))
    final, _ = random_game(names, seed)
    scenario = export_scenario(final)
    state = start_scenario(scenario)
    seat_of = {seat.codename: seat.index for seat in state.seats}
    for spec in scenario["days"]:
        saved = usual_saves(state, spec, seat_of)
        assert saved is not None and saved == _careful(state, spec, seat_of)
        state = advance(state, saved)
    assert len(state.history) == len(final.history)


def _table(day: int) -> tuple[State, dict[str, int]]:
    """Ten players on `day`, two burned, yesterday's detainee set, the order with seat 0's
    successor when the Ringleader is burned (S11)."""
    fresh = start(Setup(tuple(f"P{i}" for i in range(10)), 4))
    alive = tuple(seat not in (2, 7) for seat in range(10))
    holder = fresh.order_holder if fresh.order_holder not in (2, 7) else None
    state = evolve(fresh, day=day, alive=alive, last_detained=5, order_holder=holder)
    return state, {seat.codename: seat.index for seat in state.seats}


@pytest.mark.parametrize("day", [1, 3])
def test_a_save_is_usual_exactly_when_the_careful_path_allows_it(day: int) -> None:
    """Every Operation, order, vote and whisper from every seat to every seat: the one-pass
    reader gives the careful path's saves or leaves the day to it, never allows more."""
    state, seat_of = _table(day)
    names = [seat.codename for seat in state.seats]
    days: list[dict[str, Any]] = []
    for actor in names:
        for target in names:
            days.append({"operations": {actor: {"target": target}}})
            days.append({"votes": {actor: target, names[0]: "abstain"}})
            days.append({"whispers": [[actor, target]]})
            days.append({"whispers": [[actor, target], [actor, names[4]], [actor, names[5]]]})
            for performer in names:
                order = {"target": target, "performer": performer}
                days.append({"operations": {actor: {"order": order}}})
    usual = 0
    for spec in days:
        careful = _careful(state, spec, seat_of)
        saved = usual_saves(state, spec, seat_of)
        assert saved is None or saved == careful, spec
        usual += saved is not None
    assert usual > len(days) // 10  # the usual path is taken, not only left


@pytest.mark.parametrize(
    "spec",
    [
        [],
        {"operations": {}, "extra": 1},
        {"operations": {"P1": None}},
        {"operations": {"NOBODY": {"target": "P1"}}},
        {"operations": {"P1": {"target": ["P2"]}}},
        {"operations": {"P1": {"target": "P2", "order": {}}}},
        {"operations": []},
        {"votes": {"P1": 3}},
        {"votes": {"P1": "NOBODY"}},
        {"whispers": {"P1": "P2"}},
        {"whispers": [["P1"]]},
        {"whispers": "P1"},
    ],
)
def test_anything_unusual_is_left_to_the_careful_path(spec: Any) -> None:
    state, seat_of = _table(3)
    assert usual_saves(state, spec, seat_of) is None


def test_a_finished_game_is_left_to_the_careful_path() -> None:
    state, seat_of = _table(3)
    assert usual_saves(evolve(state, winner="ring"), {}, seat_of) is None
