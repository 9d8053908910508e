"""C13: a seat's options follow from its view alone, exactly as the engine lists them."""

from __future__ import annotations

import pytest

from deaddrop.engine.cards import Options, Setup, apply, legal_actions, start, view
from deaddrop.engine.cards.legal import legal_actions_for_view
from deaddrop.engine.core.rng import Rng


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_c13_options_from_the_view_equal_the_engines(players: int, seed: int) -> None:
    state = start(Setup(players, seed, Options(tokens_to_win=2)))
    rng = Rng.from_seed(seed)
    for _ in range(400):
        if state.pending is None:
            break
        options = legal_actions(state)
        for seat in range(players):
            from_view = legal_actions_for_view(view(state, seat))
            assert from_view == (options if seat == state.pending.seat else ())
        assert legal_actions_for_view(view(state, None)) == ()
        action, rng = rng.choice(options)
        state, _ = apply(state, action)
