"""C1 the deck and C2 the deal: sizes by player count, drawn from the game's seeded RNG."""

from collections import Counter

import pytest

from deaddrop.engine.cards import DECK, Deal, Setup, check_deal, deal_from_rng, start
from deaddrop.engine.cards.deck import shuffled_deck
from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.core.rng import Rng
from tests.engine.cards.helpers import cards_on_table


def test_c1_deck_is_four_0s_three_1s_two_2s_two_3s_one_4_one_5() -> None:
    assert Counter(DECK) == {0: 4, 1: 3, 2: 2, 3: 2, 4: 1, 5: 1}
    assert len(DECK) == 13


@pytest.mark.parametrize("players", [2, 3, 4])
def test_c1_every_deal_holds_exactly_the_deck(players: int) -> None:
    for seed in range(50):
        state = start(Setup(players, seed))
        assert cards_on_table(state) == Counter(DECK)


@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 3), (4, 2)])
def test_c2_deal_sizes_for_2_3_4_players(players: int, size: int) -> None:
    state = start(Setup(players, seed=11))
    assert len(state.stash) == players
    assert len(state.hands) == players
    assert all(len(hand) == size for hand in state.hands)
    assert all(list(hand) == sorted(hand) for hand in state.hands)
    assert list(state.stash) == sorted(state.stash)


def test_c2_the_deal_comes_from_the_seeded_rng_kept_in_the_state() -> None:
    a, b = start(Setup(3, seed=5)), start(Setup(3, seed=5))
    assert a == b
    assert a.rng != Rng.from_seed(5)  # the draws advanced the stored generator
    deals = {(s.drop, s.stash, s.hands) for s in (start(Setup(3, seed=n)) for n in range(40))}
    assert len(deals) > 30


def test_c2_deal_from_rng_is_pure_and_advances() -> None:
    rng = Rng.from_seed(9)
    deal, after = deal_from_rng(rng, 4)
    assert deal_from_rng(rng, 4) == (deal, after)
    assert after != rng
    assert deal_from_rng(after, 4)[0] != deal or deal_from_rng(after, 4)[1] != after


def test_c2_shuffle_is_close_to_uniform() -> None:
    rng = Rng.from_seed(123)
    first: Counter[int] = Counter()
    last: Counter[int] = Counter()
    runs = 13_000
    for _ in range(runs):
        order, rng = shuffled_deck(rng)
        assert sorted(order) == sorted(DECK)
        first[order[0]] += 1
        last[order[-1]] += 1
    for value, count in Counter(DECK).items():
        expected = runs * count / 13
        assert abs(first[value] - expected) < 5 * expected**0.5
        assert abs(last[value] - expected) < 5 * expected**0.5


@pytest.mark.parametrize("players", [0, 1, 5, "3", True, None])
def test_c2_two_to_four_players(players: object) -> None:
    with pytest.raises(IllegalAction) as error:
        start(Setup(players))  # type: ignore[arg-type]
    assert error.value.code == "C2"


def test_c2_a_given_deal_must_have_the_sizes_of_c2() -> None:
    short_stash = Deal.of(2, (0, 1), ((0, 0, 1), (1, 2, 3), (4, 5, 0, 3)))
    with pytest.raises(IllegalAction) as error:
        check_deal(short_stash, 3)
    assert error.value.code == "C2"
    with pytest.raises(IllegalAction) as error:
        start(Setup(3, deals=(short_stash,)))
    assert (error.value.code, error.value.message) == ("C2", "round 1: the stash must hold 3 cards")


def test_c1_a_given_deal_must_be_the_deck() -> None:
    five_zeros = Deal.of(0, (0, 1, 3), ((0, 0, 1), (1, 2, 3), (4, 5, 0)))
    with pytest.raises(IllegalAction) as error:
        check_deal(five_zeros, 3)
    assert error.value.code == "C1"
