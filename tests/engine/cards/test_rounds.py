"""C10 the round end (full reveal, new deal from the RNG) and C11 the game end."""

import pytest

from deaddrop.engine.cards import (
    ChooseAction,
    Deal,
    Grab,
    Options,
    Setup,
    State,
    SwapStash,
    apply,
    deal_from_rng,
    legal_actions,
    start,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import kinds, play, table

DROP_ONE = Deal.of(1, (0, 2, 3), ((0, 0, 1), (1, 2, 3), (0, 4, 5)))


def _seat_zero_wins_round(state: State) -> State:
    """With DROP_ONE dealt: seat 0 grabs 0 + 1 when it moves, every other seat grabs wrong."""
    number = state.round
    while state.round == number and state.pending is not None:
        seat = state.pending.seat
        state, _ = apply(state, SwapStash(seat, state.hands[seat][0], state.stash[0]))
        pair = (0, 1) if seat == 0 else (state.hands[seat][1], state.hands[seat][2])
        state, _ = apply(state, Grab(seat, pair))
    return state


def test_c10_the_round_end_reveals_every_card_to_everyone() -> None:
    before, _ = play(table(DROP_ONE, 0), SwapStash(0, 0, 0))
    state, events = play(before, Grab(0, (0, 1)))
    (reveal,) = [e for e in events if e.kind == "round_end"]
    assert reveal.audience.public
    assert dict(reveal.payload) == {
        "round": 1,
        "winner": 0,
        "by": "grab",
        "eliminated": (),
        "drop": 1,
        "stash": before.stash,
        "hands": before.hands,
        "tokens": (1, 0, 0),
    }
    for seat in (None, 0, 1, 2):
        assert view(state, seat)["rounds"] == [
            {
                "round": 1,
                "first": 0,
                "winner": 0,
                "by": "grab",
                "eliminated": [],
                "answers": [],
                "drop": 1,
                "stash": list(before.stash),
                "hands": [list(hand) for hand in before.hands],
            }
        ]


def test_c10_a_new_round_is_dealt_from_the_rng() -> None:
    start = table(DROP_ONE, 0)
    state, events = play(start, SwapStash(0, 0, 0), Grab(0, (0, 1)))
    deal, rng = deal_from_rng(start.rng, 3)
    assert (state.drop, state.stash, state.hands) == (deal.drop, deal.stash, deal.hands)
    assert state.rng == rng
    assert (state.round, state.first, state.pending) == (2, 1, ChooseAction(1))
    assert (state.eliminated, state.answers) == ((), ())
    assert kinds(events)[-4:] == ["deal", "hand", "hand", "hand"]
    public, *hands = events[-4:]
    assert public.audience.public
    assert dict(public.payload) == {
        "round": 2,
        "first": 1,
        "stash": deal.stash,
        "hand_sizes": (3, 3, 3),
    }
    for seat, event in enumerate(hands):
        assert event.audience.seats == {seat} and not event.audience.public
        assert event.payload["hand"] == deal.hands[seat]


def test_c10_eliminations_last_one_round_only() -> None:
    state = _seat_zero_wins_round(table(DROP_ONE, 1, DROP_ONE))
    assert state.results[0].eliminated == (1, 2)
    assert state.eliminated == ()
    assert state.tokens == (1, 0, 0)


def test_c11_the_first_to_three_tokens_wins_the_game() -> None:
    state = table(DROP_ONE, 0, DROP_ONE, DROP_ONE)
    for _ in range(3):
        state = _seat_zero_wins_round(state)
    assert state.tokens == (3, 0, 0)
    assert state.winner == 0
    assert state.pending is None
    assert legal_actions(state) == ()
    assert state.log[-1].kind == "game_end"
    assert dict(state.log[-1].payload) == {"winner": 0, "tokens": (3, 0, 0)}
    assert view(state, None)["winner"] == 0
    with pytest.raises(IllegalAction) as error:
        apply(state, SwapStash(0, 0, 0))
    assert (error.value.code, error.value.message) == ("C11", "the game is over")


@pytest.mark.parametrize("tokens", [1, 2])
def test_c11_tokens_to_win_is_a_table_option(tokens: int) -> None:
    state = table(DROP_ONE, 0, DROP_ONE, tokens_to_win=tokens)
    for _ in range(tokens):
        assert state.winner is None
        state = _seat_zero_wins_round(state)
    assert state.winner == 0
    assert len(state.results) == tokens


@pytest.mark.parametrize("tokens", [0, -1, "3", 2.0, True])
def test_c11_tokens_to_win_must_be_a_positive_integer(tokens: object) -> None:
    with pytest.raises(IllegalAction) as error:
        start(Setup(3, options=Options(tokens_to_win=tokens)))  # type: ignore[arg-type]
    assert error.value.code == "C11"
