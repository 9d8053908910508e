"""C6 Swap the Stash: one card of the hand for one Stash card, all public."""

import pytest

from deaddrop.engine.cards import MayGrab, SwapStash, apply, legal_actions, view
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, kinds, play, table


def test_c6_swap_puts_the_card_face_up_and_takes_a_stash_card() -> None:
    state, events = play(table(README_DEAL, 0), SwapStash(0, 0, 3))
    assert state.hands[0] == (0, 1, 3)
    assert state.stash == (0, 0, 1)
    assert state.pending == MayGrab(0)
    assert kinds(events) == ["swap_stash"]
    assert events[0].audience.public
    assert dict(events[0].payload) == {"seat": 0, "give": 0, "take": 3}
    assert view(state, None)["stash"] == [0, 0, 1]


def test_c6_give_from_the_hand_take_from_the_stash() -> None:
    state = table(README_DEAL, 0)
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(0, 5, 3))
    assert (error.value.code, error.value.message) == ("C6", "give 5 is not in hand")
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(0, 0, 2))
    assert (error.value.code, error.value.message) == ("C6", "take 2 is not in the stash")
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(0, 0.0, 1))  # type: ignore[arg-type]
    assert error.value.code == "C6"


def test_c6_a_card_may_be_swapped_for_an_equal_one() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1))
    assert state.hands == table(README_DEAL, 0).hands
    assert state.pending == MayGrab(0)


def test_c6_legal_swaps_are_every_distinct_pair_of_values() -> None:
    swaps = {a for a in legal_actions(table(README_DEAL, 0)) if isinstance(a, SwapStash)}
    assert swaps == {SwapStash(0, give, take) for give in (0, 1) for take in (0, 1, 3)}
