"""A round left to bots alone ends: after STALL_TURNS turns a bot grabs its likeliest pair."""

from __future__ import annotations

from deaddrop.engine.cards import (
    EndTurn,
    Grab,
    MayGrab,
    Setup,
    SwapStash,
    apply,
    legal_actions,
    start,
)
from deaddrop.engine.cards import State as CardsState
from deaddrop.engine.cards import view as cards_view
from deaddrop.engine.cards.legal import legal_actions_for_view
from deaddrop.server.cards.stall import STALL_TURNS, closing_grab, turns_this_round


def stall(turns: int) -> CardsState:
    """Both seats swap with the Stash and never grab, for `turns` turns."""
    state = start(Setup(2, seed=5))
    done = 0
    while done < turns or not isinstance(state.pending, MayGrab):
        options = legal_actions(state)
        swap = next((a for a in options if isinstance(a, SwapStash)), None)
        end = next((a for a in options if isinstance(a, EndTurn)), None)
        action = swap or end or options[0]
        state, _ = apply(state, action)
        done += isinstance(action, SwapStash)
    return state


def test_turns_are_counted_from_the_round_s_deal() -> None:
    state = stall(7)
    assert turns_this_round(cards_view(state, 0)) == 7


def test_no_nudge_before_the_stall() -> None:
    state = stall(STALL_TURNS - 1)
    assert state.pending is not None
    assert closing_grab(cards_view(state, state.pending.seat)) is None


def test_after_the_stall_the_mover_grabs_a_legal_pair() -> None:
    state = stall(STALL_TURNS)
    assert state.pending is not None
    seen = cards_view(state, state.pending.seat)
    move = closing_grab(seen)
    assert isinstance(move, Grab)
    assert move in legal_actions_for_view(seen)
    apply(state, move)  # the engine accepts it (C8)
