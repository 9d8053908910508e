"""C7 Sell Secrets: a truthful, public yes/no; the values and the cards moved stay private."""

import pytest

from deaddrop.engine.cards import (
    ChooseHandBack,
    Deal,
    Grab,
    HandBack,
    MayGrab,
    SellSecrets,
    SwapStash,
    apply,
    legal_actions,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, kinds, play, table

# README deal: seat 1 holds 1 2 3, seat 2 holds 0 4 5, seat 0 holds 0 0 1.


def test_c7_a_yes_then_the_seller_chooses_the_card_to_hand_back() -> None:
    state, events = play(table(README_DEAL, 1), SellSecrets(1, 2, (1, 3)))
    assert state.pending == ChooseHandBack(seat=1, buyer=2, show=(1, 3))
    assert state.hands == README_DEAL.hands  # nothing moves before the hand-back choice
    assert state.answers == ("yes",)
    assert kinds(events) == ["sell_secrets_shown", "sell_secrets"]
    shown, public = events
    assert shown.audience.seats == {1, 2} and not shown.audience.public
    assert dict(shown.payload) == {"seat": 1, "to": 2, "show": (1, 3), "sum": 4}
    assert public.audience.public
    assert dict(public.payload) == {"seat": 1, "to": 2, "answer": "yes", "cards_moved": True}
    assert set(legal_actions(state)) == {HandBack(1, 1), HandBack(1, 3)}

    state, events = play(state, HandBack(1, 1))
    assert state.hands == ((0, 0, 1), (2, 3, 4), (0, 1, 5))
    assert state.pending == MayGrab(1)
    assert kinds(events) == ["sell_secrets_cards"]
    assert events[0].audience.seats == {1, 2}
    assert dict(events[0].payload) == {"seat": 1, "to": 2, "give": 1, "receive": 4}


def test_c7_a_no_moves_nothing_and_ends_the_action() -> None:
    state, events = play(table(README_DEAL, 1), SellSecrets(1, 0, (2, 3)))
    assert state.pending == MayGrab(1)
    assert state.hands == README_DEAL.hands
    assert state.answers == ("no",)
    assert dict(events[1].payload) == {"seat": 1, "to": 0, "answer": "no", "cards_moved": False}


def test_c7_a_sum_above_5_is_always_no() -> None:
    # Seat 2 shows 4 + 5 = 9; nobody can hold a 9.
    state, events = play(table(README_DEAL, 2), SellSecrets(2, 1, (4, 5)))
    assert state.answers == ("no",)
    assert state.pending == MayGrab(2)
    assert events[1].payload["answer"] == "no"


def test_c7_the_answer_is_the_truth_about_the_buyer_hand() -> None:
    # 4 players: seat 3 holds 3 4; seat 1 shows 0 + 3 = 3 to seat 3 (yes) and seat 0 (no).
    deal = Deal.of(5, (0, 0, 1, 1), ((0, 2), (0, 3), (1, 2), (3, 4)))
    yes, _ = play(table(deal, 1), SellSecrets(1, 3, (0, 3)))
    no, _ = play(table(deal, 1), SellSecrets(1, 0, (0, 3)))
    assert (yes.answers, no.answers) == (("yes",), ("no",))
    # The whole hand shown: hand back either card, the buyer hands a 3.
    done, _ = play(yes, HandBack(1, 3))
    assert done.hands[1] == (0, 3) and done.hands[3] == (3, 4)


def test_c7_everyone_sees_the_sale_and_answer_only_the_two_see_values() -> None:
    state, _ = play(table(README_DEAL, 1), SellSecrets(1, 2, (1, 3)), HandBack(1, 3))
    for seat in (0, None):
        log = [e for e in view(state, seat)["log"] if e["kind"].startswith("sell")]
        assert log == [
            {"kind": "sell_secrets", "public": True, "seat": 1, "to": 2}
            | {"answer": "yes", "cards_moved": True}
        ]
    for seat in (1, 2):
        log = [e["kind"] for e in view(state, seat)["log"] if e["kind"].startswith("sell")]
        assert log == ["sell_secrets_shown", "sell_secrets", "sell_secrets_cards"]


def test_c7_the_shown_values_are_in_the_pending_view_of_the_two_only() -> None:
    state, _ = play(table(README_DEAL, 1), SellSecrets(1, 2, (1, 3)))
    assert view(state, 1)["pending"]["show"] == [1, 3]
    assert view(state, 2)["pending"]["show"] == [1, 3]
    assert "show" not in view(state, 0)["pending"]
    assert "show" not in view(state, None)["pending"]


def test_c7_sell_to_an_eliminated_seat_is_not_allowed() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 1, 1), Grab(0, (0, 0)))
    with pytest.raises(IllegalAction) as error:
        apply(state, SellSecrets(1, 0, (1, 2)))
    assert (error.value.code, error.value.message) == (
        "C7",
        "sell to another seat still in the round",
    )
    assert all(not (isinstance(a, SellSecrets) and a.target == 0) for a in legal_actions(state))


@pytest.mark.parametrize("target", [1, 3, None])
def test_c7_sell_to_another_seat(target: object) -> None:
    with pytest.raises(IllegalAction) as error:
        apply(table(README_DEAL, 1), SellSecrets(1, target, (1, 2)))  # type: ignore[arg-type]
    assert error.value.code == "C7"


@pytest.mark.parametrize("show", [(1, 1), (0, 1), (1,), (1, 2, 3), [1, 2], ("1", "2")])
def test_c7_show_two_cards_of_the_hand(show: object) -> None:
    with pytest.raises(IllegalAction) as error:
        apply(table(README_DEAL, 1), SellSecrets(1, 2, show))  # type: ignore[arg-type]
    assert error.value.code == "C7"


def test_c7_hand_back_one_of_the_shown_cards_and_only_the_seller() -> None:
    state, _ = play(table(README_DEAL, 1), SellSecrets(1, 2, (1, 3)))
    with pytest.raises(IllegalAction) as error:
        apply(state, HandBack(1, 2))
    assert (error.value.code, error.value.message) == (
        "C7",
        "hand back one of the shown cards 1 and 3",
    )
    for wrong in (HandBack(2, 1), Grab(1, (2, 3)), SwapStash(1, 1, 0)):
        with pytest.raises(IllegalAction) as error:
            apply(state, wrong)
        assert error.value.code == "C7"


def test_c7_shown_order_does_not_matter() -> None:
    a, _ = play(table(README_DEAL, 1), SellSecrets(1, 2, (3, 1)))
    b, _ = play(table(README_DEAL, 1), SellSecrets(1, 2, (1, 3)))
    assert a.pending == b.pending == ChooseHandBack(1, 2, (1, 3))
