"""C4 Share Info with a seat in the round (a real two-step choice) and C5 with an eliminated one."""

import pytest

from deaddrop.engine.cards import (
    ChooseGive,
    GiveCard,
    Grab,
    MayGrab,
    ShareInfo,
    State,
    SwapStash,
    apply,
    legal_actions,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, kinds, play, table


def test_c4_the_target_chooses_then_the_two_cards_change_hands() -> None:
    state = table(README_DEAL, 0)
    offered, events = play(state, ShareInfo(0, 1, 0))
    assert offered.pending == ChooseGive(seat=1, mover=0, offered=0)
    assert offered.hands == state.hands  # nothing moves before the target chooses
    assert kinds(events) == ["share_info"]
    assert events[0].audience.public
    assert dict(events[0].payload) == {"seat": 0, "with": 1, "face_up": False}
    assert set(legal_actions(offered)) == {GiveCard(1, 1), GiveCard(1, 2), GiveCard(1, 3)}

    done, events = play(offered, GiveCard(1, 3))
    assert done.hands == ((0, 1, 3), (0, 1, 2), (0, 4, 5))
    assert done.pending == MayGrab(0)
    assert kinds(events) == ["share_info_cards"]
    assert events[0].audience.seats == {0, 1} and not events[0].audience.public
    assert dict(events[0].payload) == {"seat": 0, "with": 1, "give": 0, "receive": 3}


def test_c4_the_target_chooses_without_seeing_the_offered_card() -> None:
    state, _ = play(table(README_DEAL, 0), ShareInfo(0, 1, 1))
    target = view(state, 1)
    assert target["pending"] == {"seat": 1, "kind": "give", "mover": 0}
    assert all("give" not in entry for entry in target["log"])
    assert view(state, 0)["pending"]["offered"] == 1
    assert "offered" not in view(state, 2)["pending"]
    assert "offered" not in view(state, None)["pending"]


def test_c4_everyone_sees_that_they_traded_only_the_two_see_the_cards() -> None:
    state, _ = play(table(README_DEAL, 0), ShareInfo(0, 1, 1), GiveCard(1, 2))
    for seat in (0, 1):
        cards = [e for e in view(state, seat)["log"] if e["kind"] == "share_info_cards"]
        assert cards == [
            {"kind": "share_info_cards", "public": False, "seat": 0, "with": 1}
            | {"give": 1, "receive": 2}
        ]
    for other in (2, None):
        log = view(state, other)["log"]
        assert [e for e in log if e["kind"].startswith("share_info")] == [
            {"kind": "share_info", "public": True, "seat": 0, "with": 1, "face_up": False}
        ]


@pytest.mark.parametrize("target", [0, 3, -1, "1", None])
def test_c4_share_with_another_seat(target: object) -> None:
    with pytest.raises(IllegalAction) as error:
        apply(table(README_DEAL, 0), ShareInfo(0, target, 0))  # type: ignore[arg-type]
    assert (error.value.code, error.value.message) == ("C4", "share info with another seat")


def test_c4_the_given_card_must_be_in_hand() -> None:
    with pytest.raises(IllegalAction) as error:
        apply(table(README_DEAL, 0), ShareInfo(0, 1, 4))
    assert (error.value.code, error.value.message) == ("C4", "give 4 is not in hand")


def test_c4_a_living_target_is_not_told_what_to_give() -> None:
    with pytest.raises(IllegalAction) as error:
        apply(table(README_DEAL, 0), ShareInfo(0, 1, 0, take=3))
    assert error.value.code == "C4"


def test_c4_the_target_gives_a_card_it_holds_and_only_the_target_chooses() -> None:
    state, _ = play(table(README_DEAL, 0), ShareInfo(0, 1, 0))
    with pytest.raises(IllegalAction) as error:
        apply(state, GiveCard(1, 5))
    assert (error.value.code, error.value.message) == ("C4", "seat 1 holds no 5")
    for wrong in (GiveCard(0, 1), GiveCard(2, 4), SwapStash(0, 0, 1), Grab(0, (0, 0))):
        with pytest.raises(IllegalAction) as error:
            apply(state, wrong)
        assert error.value.code == "C4"


def _seat_zero_out() -> State:
    """README deal, seat 0 grabs 0+0 against Drop 2 and is eliminated with 0 0 1 face up."""
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1), Grab(0, (0, 0)))
    assert state.eliminated == (0,)
    return state


def test_c5_trade_with_an_eliminated_seat_is_a_face_up_swap() -> None:
    state = _seat_zero_out()
    done, events = play(state, ShareInfo(1, 0, 3, take=1))
    assert done.hands == ((0, 0, 3), (1, 1, 2), (0, 4, 5))
    assert done.pending == MayGrab(1)  # no choice for the eliminated seat
    assert kinds(events) == ["share_info"]
    assert events[0].audience.public
    assert dict(events[0].payload) == {
        "seat": 1,
        "with": 0,
        "face_up": True,
        "give": 3,
        "receive": 1,
    }
    for seat in (None, 0, 1, 2):
        assert view(done, seat)["eliminated"] == [{"seat": 0, "hand": [0, 0, 3]}]


def test_c5_pick_one_of_the_face_up_cards() -> None:
    state = _seat_zero_out()
    with pytest.raises(IllegalAction) as error:
        apply(state, ShareInfo(1, 0, 3))
    assert error.value.code == "C5"
    with pytest.raises(IllegalAction) as error:
        apply(state, ShareInfo(1, 0, 3, take=5))
    assert (error.value.code, error.value.message) == ("C5", "seat 0's face-up hand holds no 5")


def test_c5_legal_actions_offer_every_face_up_card() -> None:
    state = _seat_zero_out()
    face_up = {a for a in legal_actions(state) if isinstance(a, ShareInfo) and a.target == 0}
    assert face_up == {ShareInfo(1, 0, give, take) for give in (1, 2, 3) for take in (0, 1)}
