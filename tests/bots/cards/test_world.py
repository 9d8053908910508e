"""The search bots' fast round (`World`) plays a round exactly as the engine does (C3–C9)."""

from __future__ import annotations

import random

import pytest

from deaddrop.bots.cards.world import World, world_from_view
from deaddrop.engine.cards import (
    Action,
    ChooseAction,
    ChooseGive,
    ChooseHandBack,
    EndTurn,
    MayGrab,
    Options,
    Setup,
    State,
    apply,
    legal_actions,
    start,
    view,
)

KINDS = {ChooseAction: "action", ChooseGive: "give", ChooseHandBack: "hand_back", MayGrab: "grab"}


def _world_of(state: State) -> World:
    pending = state.pending
    assert pending is not None
    offered = pending.offered if isinstance(pending, ChooseGive) else -1
    return world_from_view(view(state, pending.seat), (state.drop, state.hands), offered)


def _same(world: World, state: State) -> None:
    assert state.pending is not None
    assert world.hands == list(state.hands)
    assert world.stash == state.stash
    assert world.eliminated == list(state.eliminated)
    assert (world.seat, world.kind) == (state.pending.seat, KINDS[type(state.pending)])
    assert world.options() == legal_actions(state)


def _mostly_patient(state: State, rng: random.Random) -> Action:
    """A random option that ends the turn nine times in ten, so rounds last a while."""
    options = legal_actions(state)
    if isinstance(state.pending, MayGrab) and rng.random() < 0.9:
        return EndTurn(state.pending.seat)
    return rng.choice(options)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c3_to_c9_a_world_plays_random_rounds_as_the_engine_does(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    for seed in range(30):
        state = start(Setup(players, seed, Options(tokens_to_win=2)))
        for _ in range(rng.randrange(0, 12)):  # start the world somewhere inside a round
            options = legal_actions(state)
            after, _ = apply(state, rng.choice(options))
            if after.round != state.round or after.pending is None:
                break
            state = after
        world = _world_of(state)
        round_number = state.round
        while True:
            _same(world, state)
            action = _mostly_patient(state, rng)
            state, _ = apply(state, action)
            world.play(action)
            checked += 1
            if state.round != round_number or state.pending is None:
                assert world.winner == state.results[-1].winner
                break
            assert world.winner is None
    assert checked > 300


def test_a_copy_is_independent() -> None:
    state = start(Setup(3, 5))
    world = _world_of(state)
    twin = world.copy()
    twin.play(legal_actions(state)[0])
    _same(world, state)
