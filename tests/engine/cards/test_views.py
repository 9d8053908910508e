"""C12 views: a seat sees its hand, The Stash, eliminated hands, the public log and its own part."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.engine.cards import (
    Deal,
    EndTurn,
    GiveCard,
    Grab,
    SellSecrets,
    Setup,
    ShareInfo,
    State,
    SwapStash,
    apply,
    start,
    view,
)
from deaddrop.engine.cards.deck import DECK, HAND_SIZES
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, play, table
from tests.engine.cards.leaks import SEAT_KEYS, SPECTATOR_KEYS, assert_c12


def _busy_table() -> State:
    """README deal after a swap, a trade, a sale and a failed grab."""
    state, _ = play(
        table(README_DEAL, 0),
        SwapStash(0, 0, 3),
        EndTurn(0),
        ShareInfo(1, 2, 1),
        GiveCard(2, 5),
        EndTurn(1),
        SellSecrets(2, 0, (0, 1)),
    )
    return state


def test_c12_a_seat_sees_exactly_its_fields() -> None:
    state = _busy_table()
    seen = view(state, 1)
    assert set(seen) == SEAT_KEYS
    assert seen["viewer"] == 1
    assert seen["hand"] == [2, 3, 5]
    assert seen["stash"] == [0, 0, 1]
    assert seen["hand_sizes"] == [3, 3, 3]
    assert seen["tokens"] == [0, 0, 0]
    assert seen["eliminated"] == []
    assert seen["pending"] == {"seat": 2, "kind": "hand_back", "buyer": 0}
    assert (seen["round"], seen["first"], seen["turn"], seen["winner"]) == (1, 0, 2, None)
    assert seen["options"] == {"grab_face_down": False, "tokens_to_win": 3}
    for seat in (None, 0, 1, 2):
        assert_c12(state, seat)


def test_c12_a_spectator_sees_the_public_part_only() -> None:
    seen = view(_busy_table(), None)
    assert set(seen) == SPECTATOR_KEYS
    assert "hand" not in seen
    assert all(entry["public"] for entry in seen["log"])
    assert [e["kind"] for e in seen["log"]] == ["deal", "swap_stash", "share_info", "sell_secrets"]


def test_c12_a_seat_log_holds_its_private_entries_only() -> None:
    state = _busy_table()
    private = {
        seat: [e["kind"] for e in view(state, seat)["log"] if not e["public"]] for seat in range(3)
    }
    assert private == {
        0: ["hand", "sell_secrets_shown"],
        1: ["hand", "share_info_cards"],
        2: ["hand", "share_info_cards", "sell_secrets_shown"],
    }
    assert view(state, 1)["log"][1] == {
        "kind": "hand",
        "public": False,
        "round": 1,
        "seat": 1,
        "hand": [1, 2, 3],
    }


def test_c12_views_are_json_ready() -> None:
    for seat in (None, 0, 1, 2):
        seen = view(_busy_table(), seat)
        assert json.loads(json.dumps(seen)) == seen


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0, True])
def test_c12_no_view_for_a_seat_not_at_the_table(seat: object) -> None:
    with pytest.raises(IllegalAction) as error:
        view(table(README_DEAL, 0), seat)  # type: ignore[arg-type]
    assert error.value.code == "C12"


def test_c12_the_post_round_reveal_is_public() -> None:
    state, _ = play(table(README_DEAL, 0), SwapStash(0, 0, 0), Grab(0, (0, 0)))
    state, _ = play(state, SwapStash(1, 1, 1), Grab(1, (1, 2)))
    for seat in (None, 0, 1, 2):
        (reveal,) = view(state, seat)["rounds"]
        assert reveal["drop"] == 2
        assert reveal["hands"] == [[0, 0, 1], [1, 2, 3], [0, 4, 5]]
        assert (reveal["winner"], reveal["by"]) == (2, "last_standing")


def _hidden_shuffle(deal: Deal, seat: int, rnd: random.Random) -> Deal:
    """The same Stash and seat's hand; The Drop and the other hands dealt again at random."""
    hidden = [deal.drop] + [card for s, hand in enumerate(deal.hands) if s != seat for card in hand]
    rnd.shuffle(hidden)
    drop, rest = hidden[0], hidden[1:]
    size = len(deal.hands[seat])
    hands = []
    for s in range(len(deal.hands)):
        if s == seat:
            hands.append(deal.hands[seat])
        else:
            hands.append(tuple(rest[:size]))
            rest = rest[size:]
    return Deal.of(drop, deal.stash, tuple(hands))


@settings(max_examples=60, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 12),
)
def test_c12_a_view_does_not_depend_on_what_the_seat_cannot_see(
    players: int, seed: int, moves: int
) -> None:
    """Deal The Drop and the other hands differently: the seat's view is unchanged.

    Only public moves are played (Stash swaps of a card the mover holds on both tables), so
    both tables stay legal move for move.
    """
    rnd = random.Random(seed)
    cards = list(DECK)
    rnd.shuffle(cards)
    size = HAND_SIZES[players]
    hands = tuple(
        tuple(cards[1 + players + i * size : 1 + players + (i + 1) * size]) for i in range(players)
    )
    deal = Deal.of(cards[0], tuple(cards[1 : 1 + players]), hands)
    seat = rnd.randrange(players)
    other = _hidden_shuffle(deal, seat, rnd)
    a = start(Setup(players, first=0, deals=(deal,)))
    b = start(Setup(players, first=0, deals=(other,)))
    for _ in range(moves):
        mover = a.turn
        common = sorted(set(a.hands[mover]) & set(b.hands[mover]))
        if not common:
            break  # no card the mover could give on both tables
        give, take = rnd.choice(common), rnd.choice(a.stash)
        a, _ = apply(a, SwapStash(mover, give, take))
        b, _ = apply(b, SwapStash(mover, give, take))
        a, _ = apply(a, EndTurn(mover))
        b, _ = apply(b, EndTurn(mover))
    assert view(a, seat) == view(b, seat)
    assert view(a, None) == view(b, None)
