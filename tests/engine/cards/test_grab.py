"""C8 Grab the Drop (face up or face down, the grabber alone checks) and C9 last agent standing."""

import pytest

from deaddrop.engine.cards import (
    ChooseAction,
    Deal,
    EndTurn,
    Grab,
    MayGrab,
    SwapStash,
    apply,
    legal_actions,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, TWO_DEAL, kinds, play, table

# Like the README deal but The Drop is a 1 (seat 0 can grab 0 + 1) and the 2 lies in The Stash.
DROP_ONE = Deal.of(1, (0, 2, 3), ((0, 0, 1), (1, 2, 3), (0, 4, 5)))


def test_c8_a_grab_that_matches_wins_the_round_and_a_token() -> None:
    state, events = play(table(DROP_ONE, 0), SwapStash(0, 0, 0), Grab(0, (1, 0)))
    assert kinds(events)[:4] == ["swap_stash", "grab", "drop_checked", "round_end"]
    grab, checked = events[1], events[2]
    assert grab.audience.public
    assert dict(grab.payload) == {"seat": 0, "pair": (0, 1), "matched": True}
    assert checked.audience.seats == {0} and not checked.audience.public
    assert dict(checked.payload) == {"seat": 0, "pair": (0, 1), "drop": 1, "matched": True}
    (result,) = state.results
    assert (result.winner, result.by, result.eliminated) == (0, "grab", ())
    assert result.hands[0] == (0, 0, 1)  # the winning pair stays in the winner's hand
    assert state.tokens == (1, 0, 0)
    assert state.round == 2


def test_c8_a_failed_grab_eliminates_and_the_hand_goes_face_up() -> None:
    state, events = play(table(README_DEAL, 0), SwapStash(0, 1, 1), Grab(0, (0, 0)))
    assert kinds(events) == ["swap_stash", "grab", "drop_checked", "eliminated"]
    assert dict(events[3].payload) == {"seat": 0, "hand": (0, 0, 1), "pair": (0, 0)}
    assert events[3].audience.public
    assert state.eliminated == (0,)
    assert state.hands[0] == (0, 0, 1)
    assert state.pending == ChooseAction(1)
    for seat in (None, 0, 1, 2):
        assert view(state, seat)["eliminated"] == [{"seat": 0, "hand": [0, 0, 1]}]


def test_c8_only_the_grabber_sees_the_drop_before_the_round_ends() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1), Grab(0, (0, 0)))
    mine = [e for e in view(state, 0)["log"] if e["kind"] == "drop_checked"]
    assert mine == [
        {"kind": "drop_checked", "public": False, "seat": 0, "pair": [0, 0]}
        | {"drop": 2, "matched": False}
    ]
    for seat in (None, 1, 2):
        assert all("drop" not in entry for entry in view(state, seat)["log"])
        assert "drop" not in view(state, seat)


def test_c8_grab_face_down_hides_a_winning_pair_until_the_reveal() -> None:
    state, events = play(
        table(DROP_ONE, 0, grab_face_down=True), SwapStash(0, 0, 0), Grab(0, (0, 1))
    )
    assert dict(events[1].payload) == {"seat": 0, "pair": None, "matched": True}
    # C10: the round is over, so the reveal shows every card anyway.
    assert view(state, 1)["rounds"][0]["hands"][0] == [0, 0, 1]


def test_c8_grab_face_down_shows_the_pair_when_the_grab_fails() -> None:
    _, events = play(
        table(README_DEAL, 0, grab_face_down=True), SwapStash(0, 1, 1), Grab(0, (0, 1))
    )
    assert dict(events[1].payload) == {"seat": 0, "pair": None, "matched": False}
    assert dict(events[3].payload) == {"seat": 0, "hand": (0, 0, 1), "pair": (0, 1)}


def test_c8_grab_face_up_by_default() -> None:
    _, events = play(table(README_DEAL, 0), SwapStash(0, 1, 1), Grab(0, (0, 1)))
    assert events[1].payload["pair"] == (0, 1)


@pytest.mark.parametrize("pair", [(4, 5), (1, 1), (0,), (0, 0, 1), [0, 0], (0.0, 0)])
def test_c8_grab_two_cards_of_the_hand(pair: object) -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1))
    with pytest.raises(IllegalAction) as error:
        apply(state, Grab(0, pair))  # type: ignore[arg-type]
    assert error.value.code == "C8"


def test_c8_grabbing_is_optional_and_offered_for_every_distinct_pair() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1))
    assert state.pending == MayGrab(0)
    assert legal_actions(state) == (EndTurn(0), Grab(0, (0, 0)), Grab(0, (0, 1)))
    state, events = play(state, EndTurn(0))
    assert events == []
    assert state.pending == ChooseAction(1)
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(0, 1, 1))
    assert error.value.code == "C3"


def test_c8_only_the_mover_may_grab() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1))
    with pytest.raises(IllegalAction) as error:
        apply(state, Grab(1, (1, 1)))
    assert (error.value.code, error.value.message) == ("C3", "it is seat 0's turn")


def test_c9_the_last_agent_standing_wins_the_round() -> None:
    state, events = play(
        table(README_DEAL, 0),
        SwapStash(0, 0, 0),
        Grab(0, (0, 0)),
        SwapStash(1, 1, 1),
        Grab(1, (1, 2)),
    )
    (result,) = state.results
    assert (result.winner, result.by, result.eliminated) == (2, "last_standing", (0, 1))
    assert state.tokens == (0, 0, 1)
    assert "round_end" in kinds(events)


def test_c9_in_a_two_player_game_a_failed_grab_hands_the_round_over() -> None:
    state, _ = play(table(TWO_DEAL, 0), SwapStash(0, 0, 0), Grab(0, (0, 0)))
    (result,) = state.results
    assert (result.winner, result.by, result.eliminated) == (1, "last_standing", (0,))
