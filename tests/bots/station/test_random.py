"""The random Station bot and the level registry: decisions from a seat's view alone (S42)."""

from __future__ import annotations

import json

import pytest

from deaddrop.bots.station import heuristic, random_bot
from deaddrop.bots.station.registry import LEVELS, UnknownLevel, level
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.setup import Setup, start
from deaddrop.engine.station.views import view


def test_s42_decide_day_reads_the_view_and_its_saves_are_legal() -> None:
    marked = 0
    for seed in range(4):
        state = start(Setup(tuple(f"p{i}" for i in range(8)), seed))
        rng = Rng.from_seed(seed)
        while not state.over:
            for seat in state.living():
                seen = json.loads(json.dumps(view(state, seat)))
                actions, rng = random_bot.decide_day(seen, rng)
                for action in actions:
                    assert isinstance(action, A.DayAction) and action.seat == seat
                    marked += isinstance(action, A.MarkDone)
                    state, _ = apply(state, action)  # legal, or IllegalAction fails the test
            state, _ = apply(state, A.ResolvePouch())
    assert marked > 0  # S41: it marks done now and then


def test_decide_day_is_choose_day_for_the_seat_of_the_view() -> None:
    state = start(Setup(tuple(f"p{i}" for i in range(6)), 2))
    seat_of = {seat.codename: seat.index for seat in state.seats}
    for seat in range(6):
        seen = view(state, seat)
        direct = random_bot.choose_day(seen["me"], seat_of, seat, Rng.from_seed(seat))
        assert random_bot.decide_day(seen, Rng.from_seed(seat)) == direct


def test_the_registry_names_its_levels_and_refuses_others() -> None:
    assert level("random") is random_bot.plan_day
    assert level("heuristic") is heuristic.plan_day
    assert list(LEVELS) == ["expert", "heuristic", "random"]
    with pytest.raises(
        UnknownLevel, match=r"unknown bot level 'master' \(known: expert, heuristic, random\)"
    ):
        level("master")


def test_the_random_levels_day_is_its_saves_and_no_posts() -> None:
    state = start(Setup(tuple(f"p{i}" for i in range(6)), 4))
    for seat in range(6):
        seen = json.loads(json.dumps(view(state, seat)))
        plan, rng = random_bot.plan_day(seen, [], Rng.from_seed(seat))
        actions, same = random_bot.decide_day(seen, Rng.from_seed(seat))
        assert (list(plan.actions), plan.posts, rng) == (actions, (), same)
