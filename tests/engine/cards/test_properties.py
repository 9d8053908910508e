"""Properties of random legal play (Hypothesis): conservation, C12, replay, export, termination."""

from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.engine.cards import (
    DECK,
    Options,
    Setup,
    apply,
    export_record,
    legal_actions,
    outcome,
    replay,
    replay_record,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import DEFAULT_CAP, cards_on_table, play_random
from tests.engine.cards.leaks import assert_c12, reduce_private, referee

games = st.builds(
    lambda players, seed, face_down, tokens: Setup(
        players, seed, Options(grab_face_down=face_down, tokens_to_win=tokens)
    ),
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 2**64),
    face_down=st.booleans(),
    tokens=st.integers(1, 3),
)
choosers = st.integers(0, 2**32)
patience = st.sampled_from([0.0, 0.5, 0.9])


@settings(max_examples=80, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_c1_random_play_conserves_the_thirteen_cards(
    setup: Setup, chooser: int, patience: float
) -> None:
    _, _, states = play_random(setup, chooser, patience=patience)
    for state in states:
        assert cards_on_table(state) == Counter(DECK)
        for result in state.results:
            counts = Counter(result.stash) + Counter([result.drop])
            for hand in result.hands:
                counts.update(hand)
            assert counts == Counter(DECK)


@settings(max_examples=40, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_c12_no_view_ever_shows_what_the_seat_may_not_see(
    setup: Setup, chooser: int, patience: float
) -> None:
    _, _, states = play_random(setup, chooser, cap=300, patience=patience)
    for state in states[:: max(1, len(states) // 25)] + states[-1:]:
        for seat in [None, *range(setup.players)]:
            assert_c12(state, seat)


@settings(max_examples=60, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_c12_each_seat_learns_privately_exactly_what_the_referee_says(
    setup: Setup, chooser: int, patience: float
) -> None:
    final, log, states = play_random(setup, chooser, cap=400, patience=patience)
    expected = referee(states, log)
    for seat in range(setup.players):
        private = [reduce_private(e) for e in view(final, seat)["log"] if not e["public"]]
        assert private == expected[seat]


@settings(max_examples=60, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_random_games_replay_exactly(setup: Setup, chooser: int, patience: float) -> None:
    final, log, _ = play_random(setup, chooser, patience=patience)
    assert replay(setup, log) == final


@settings(max_examples=60, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_export_then_record_replay_gives_the_same_outcome(
    setup: Setup, chooser: int, patience: float
) -> None:
    final, log, _ = play_random(setup, chooser, patience=patience)
    assert replay_record(export_record(setup, log)) == outcome(final)


@settings(max_examples=60, deadline=None)
@given(setup=games, chooser=choosers, patience=patience)
def test_c11_random_games_end_or_hit_the_cap(setup: Setup, chooser: int, patience: float) -> None:
    final, log, _ = play_random(setup, chooser, patience=patience)
    assert final.pending is None or len(log) == DEFAULT_CAP
    if final.pending is None:
        assert final.winner is not None
        assert final.tokens[final.winner] == setup.options.tokens_to_win
        assert legal_actions(final) == ()


@settings(max_examples=30, deadline=None)
@given(setup=games, chooser=choosers)
def test_every_legal_action_applies_and_the_seat_is_the_pending_one(
    setup: Setup, chooser: int
) -> None:
    _, _, states = play_random(setup, chooser, cap=60, patience=0.5)
    for state in states:
        for action in legal_actions(state):
            assert state.pending is not None and action.seat == state.pending.seat
            apply(state, action)  # never raises
            wrong_seat = replace(action, seat=action.seat + 1)
            try:
                apply(state, wrong_seat)
            except IllegalAction:
                pass
            else:  # pragma: no cover - a wrong seat must be refused
                raise AssertionError(f"{wrong_seat} was accepted")
