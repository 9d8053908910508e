"""C3 turn order: RNG-drawn first seat, rotation between rounds, eliminated seats skipped."""

import pytest

from deaddrop.engine.cards import (
    ChooseAction,
    EndTurn,
    Grab,
    MayGrab,
    Options,
    Setup,
    ShareInfo,
    State,
    SwapStash,
    apply,
    start,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, table


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c3_round_one_starts_with_a_seat_drawn_by_the_rng(players: int) -> None:
    firsts = {start(Setup(players, seed)).first for seed in range(60)}
    assert firsts == set(range(players))
    state = start(Setup(players, seed=3))
    assert state.turn == state.first
    assert state.pending == ChooseAction(state.first)


def test_c3_a_setup_may_fix_the_first_seat() -> None:
    assert start(Setup(4, seed=1, first=2)).pending == ChooseAction(2)
    with pytest.raises(IllegalAction) as error:
        start(Setup(4, first=4))
    assert error.value.code == "C3"


def test_c3_turns_pass_to_the_next_seat() -> None:
    state = table(README_DEAL, 1)
    state, _ = apply(state, SwapStash(1, 1, 0))
    assert state.pending == MayGrab(1)
    state, _ = apply(state, EndTurn(1))
    assert (state.turn, state.pending) == (2, ChooseAction(2))
    state, _ = apply(state, SwapStash(2, 0, 1))
    state, _ = apply(state, EndTurn(2))
    assert state.pending == ChooseAction(0)


def test_c3_only_the_seat_to_move_may_act() -> None:
    state = table(README_DEAL, 0)
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(1, 1, 0))
    assert (error.value.code, error.value.message) == ("C3", "it is seat 0's turn")
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(7, 1, 0))
    assert error.value.code == "C3"


def test_c3_eliminated_seats_are_skipped() -> None:
    state = table(README_DEAL, 0)
    state, _ = apply(state, SwapStash(0, 1, 1))
    state, _ = apply(state, Grab(0, (0, 0)))  # 0 != Drop 2: seat 0 is out
    assert state.eliminated == (0,)
    assert state.pending == ChooseAction(1)
    state, _ = apply(state, SwapStash(1, 1, 1))
    state, _ = apply(state, EndTurn(1))
    state, _ = apply(state, SwapStash(2, 0, 0))
    state, _ = apply(state, EndTurn(2))
    assert state.pending == ChooseAction(1)  # seat 0 is skipped


def _finish_round(state: State) -> State:
    """Each seat in turn swaps its lowest card for the lowest Stash card, grabs its lowest two."""
    number = state.round
    while state.round == number and state.pending is not None:
        seat = state.pending.seat
        state, _ = apply(state, SwapStash(seat, state.hands[seat][0], state.stash[0]))
        low, high = state.hands[seat][:2]
        state, _ = apply(state, Grab(seat, (low, high)))
    return state


@pytest.mark.parametrize(("players", "first"), [(2, 1), (3, 2), (4, 0)])
def test_c3_later_rounds_start_one_seat_on_from_the_previous_first(
    players: int, first: int
) -> None:
    state = start(Setup(players, seed=4, first=first, options=Options(tokens_to_win=9)))
    for number in range(2, 9):
        state = _finish_round(state)
        assert state.round == number
        first = (first + 1) % players
        assert state.first == first
        assert state.pending == ChooseAction(first)
        assert state.eliminated == ()


def test_c3_one_action_per_turn_then_only_grab_or_end() -> None:
    state = table(README_DEAL, 0)
    with pytest.raises(IllegalAction) as error:
        apply(state, Grab(0, (0, 0)))
    assert error.value.code == "C3"
    with pytest.raises(IllegalAction) as error:
        apply(state, EndTurn(0))
    assert error.value.code == "C3"
    state, _ = apply(state, SwapStash(0, 1, 3))
    with pytest.raises(IllegalAction) as error:
        apply(state, ShareInfo(0, 1, 0))
    assert error.value.code == "C3"
