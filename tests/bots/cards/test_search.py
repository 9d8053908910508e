"""The search bots, ismcts and master: legal, seeded, and blind to what their view hides (C13)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

from deaddrop.bots.cards.base import CardsBot
from deaddrop.bots.cards.ismcts import IsmctsBot
from deaddrop.bots.cards.master import MasterBot, Option, Weighed
from deaddrop.bots.cards.play import play_game
from deaddrop.bots.cards.registry import BOT_NAMES, make_bot
from deaddrop.engine.cards import (
    Action,
    EndTurn,
    Grab,
    Options,
    SellSecrets,
    Setup,
    SwapStash,
    apply,
    start,
    view,
)
from deaddrop.engine.cards.inference import CONSISTENT, belief_from_view, drop_distribution
from tests.bots.cards.blind import same_answers_whatever_the_hidden_cards
from tests.bots.cards.test_expert import PIN_DEAL, Uniform
from tests.engine.cards.helpers import README_DEAL, play, table

Factory = Callable[[int], CardsBot]
SEARCHERS: dict[str, Factory] = {
    "ismcts": lambda seed: IsmctsBot(seed, iterations=60),
    "master": lambda seed: MasterBot(seed, budget=None),
}


def test_the_search_bots_are_levels_and_master_is_the_top_one() -> None:
    assert BOT_NAMES[-1] == "master" and "ismcts" in BOT_NAMES
    assert make_bot("ismcts", 1).name == "ismcts" and make_bot("master", 1).name == "master"


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_c13_search_bots_play_whole_games_legally_from_views(name: str, players: int) -> None:
    decisions = 0
    for seed in range(2):
        bots: list[Any] = [Uniform(seed + s) for s in range(players)]
        bots[::2] = [SEARCHERS[name](seed + s) for s in range(0, players, 2)]
        setup = Setup(players, seed, Options(grab_face_down=seed == 1, tokens_to_win=2))
        # The driver raises on an illegal action; its turn cap ends rounds nobody grabs in.
        result = play_game(setup, bots, turn_cap=60)
        decisions += len(result.actions)
        assert result.state.pending is None or result.voided_rounds
    assert decisions > 10


@pytest.mark.parametrize("name", SEARCHERS)
def test_c13_a_seed_and_the_same_views_give_the_same_choices(name: str) -> None:
    def choices(seed: int) -> list[Action]:
        state = start(Setup(3, 11, Options(tokens_to_win=1)))
        bots = [SEARCHERS[name](seed), Uniform(5), SEARCHERS[name](seed + 1)]
        out = []
        for _ in range(60):
            if state.pending is None:
                break
            seat = state.pending.seat
            action = bots[seat].choose(copy.deepcopy(view(state, seat)))
            out.append(action)
            state, _ = apply(state, action)
        return out

    assert choices(4) == choices(4)


@pytest.mark.parametrize("name", SEARCHERS)
def test_c13_same_view_same_answer_whatever_the_hidden_cards(name: str) -> None:
    # Two tables that differ only in what seat 0 cannot see: The Drop and a card of seat 2.
    assert same_answers_whatever_the_hidden_cards(SEARCHERS[name], seeds=4, steps=30) >= 10


@pytest.mark.parametrize("name", SEARCHERS)
def test_c8_search_bots_grab_when_the_posterior_pins_the_drop(name: str) -> None:
    state, _ = play(table(PIN_DEAL, 0), SellSecrets(0, 1, (2, 3)))
    assert SEARCHERS[name](0).choose(view(state, 0)) == Grab(0, (2, 3))


def test_master_weighs_the_exact_posterior_and_the_options_it_chose_between() -> None:
    master = MasterBot(2, budget=None)
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 3))  # seat 0 now holds 0 0 3
    seat_view = view(state, 0)
    choice = master.choose(seat_view)
    weighed = master.weighed
    assert isinstance(weighed, Weighed)
    exact = drop_distribution(belief_from_view(seat_view, CONSISTENT))
    assert weighed.drop == tuple(exact.get(v, 0.0) for v in range(6))
    assert weighed.options[0].action == choice
    assert {o.action for o in weighed.options} <= {EndTurn(0), Grab(0, (0, 0)), Grab(0, (0, 3))}
    grab = next(o for o in weighed.options if isinstance(o.action, Grab))
    assert isinstance(grab.action, Grab)
    assert grab.score == weighed.drop[sum(grab.action.pair)]  # C8: a grab is worth its chance
    main = MasterBot(2, budget=None)
    first = main.choose(view(table(README_DEAL, 0), 0))
    assert main.weighed is not None and main.weighed.options[0].action == first
    assert 1 <= len(main.weighed.options) <= 3
    assert all(isinstance(o, Option) for o in main.weighed.options)
    searched = [o.rounds for o in main.weighed.options if o.rounds is not None]
    assert all(0.0 <= r <= 1.0 for r in searched)


def test_c8_ismcts_rollouts_grab_only_a_pair_matching_the_guessed_drop() -> None:
    from deaddrop.bots.cards.ismcts import certain_grab
    from deaddrop.bots.cards.world import GRAB, World

    world = World(2, 3, [(0, 1, 2, 2, 0), (0, 0, 1, 1, 4)], (3, 5), [], 0, GRAB)
    assert certain_grab(world) == Grab(0, (1, 2))
    world.drop = 5  # 0 1 2 2 0: no two cards make 5
    assert certain_grab(world) == EndTurn(0)


class _Exhaustive(MasterBot):
    """The master with every playout of every search played: no option or search stops early."""

    def _search(
        self, view: Any, belief: Any, candidates: Any, prune: bool = False, settled: Any = None
    ) -> Any:
        return super()._search(view, belief, candidates, prune=False, settled=None)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_master_stopping_searches_once_settled_never_changes_its_choice(players: int) -> None:
    quick, exhaustive = MasterBot(5, budget=None), _Exhaustive(5, budget=None)
    state = start(Setup(players, 11, Options()))
    for _ in range(60):
        if state.pending is None:
            break
        seat_view = view(state, state.pending.seat)
        choice = quick.choose(seat_view)
        assert exhaustive.choose(seat_view) == choice
        state, _ = apply(state, choice)


class _Clock:
    """A fake clock: every reading is `step` seconds after the last, whatever the machine."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.now += self.step
        self.readings += 1
        return self.now


def _a_searched_view() -> dict[str, Any]:
    """The first view of a seeded 3-player game at which the unhurried master searches."""
    state = start(Setup(3, 11, Options()))
    master = MasterBot(5, budget=None)
    for _ in range(80):
        assert state.pending is not None
        seat_view = view(state, state.pending.seat)
        choice = master.choose(seat_view)
        if master.searched > 2:
            return seat_view
        state, _ = apply(state, choice)
    raise AssertionError("the master never searched")


def test_master_plays_a_fixed_number_of_guesses_whatever_the_clock() -> None:
    # A slow machine (every clock reading 5 ms later) below the safety cap: same search.
    seat_view = _a_searched_view()
    calm = MasterBot(5, budget=None)
    slow = MasterBot(5, clock=_Clock(step=0.005))
    assert slow.choose(copy.deepcopy(seat_view)) == calm.choose(copy.deepcopy(seat_view))
    assert slow.searched == calm.searched > 2
    assert slow.weighed == calm.weighed


def test_master_stops_searching_at_its_safety_cap() -> None:
    seat_view = _a_searched_view()
    clock = _Clock(step=0.01)  # every reading 10 ms after the last, whatever the machine
    master = MasterBot(5, budget=0.035, clock=clock)
    master.choose(copy.deepcopy(seat_view))
    # Readings: the start (cap at 0.045), then one before each guess: three guesses fit.
    assert master.searched == 3 and clock.now <= 0.045 + 0.01 + 1e-9
    hurried = MasterBot(5, budget=0.0, clock=_Clock(step=0.01))
    choice = hurried.choose(copy.deepcopy(seat_view))
    assert hurried.searched == 0  # past the cap before one guess: the expert's best option stands
    assert choice == hurried.expert.ranked(copy.deepcopy(seat_view))[0][1]


def test_c1_c8_ismcts_weighs_one_grab_per_sum_that_can_be_the_drop() -> None:
    from deaddrop.bots.cards.ismcts import distinct_grabs

    options = (
        SwapStash(0, 1, 3),
        Grab(0, (0, 1)),
        Grab(0, (1, 0)),
        Grab(0, (2, 4)),  # 6: above any card (C1), never The Drop
        Grab(0, (0, 3)),
        Grab(0, (1, 2)),  # 3 again: the same outcome as (0, 3) in every guess
        EndTurn(0),
    )
    assert distinct_grabs(options) == (
        SwapStash(0, 1, 3),
        Grab(0, (0, 1)),
        Grab(0, (0, 3)),
        EndTurn(0),
    )
