"""Bad input of any shape is refused with IllegalAction, never another exception."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.engine.cards import (
    Deal,
    EndTurn,
    GiveCard,
    Grab,
    HandBack,
    Options,
    SellSecrets,
    Setup,
    ShareInfo,
    SwapStash,
    apply,
    legal_actions,
    start,
    view,
)
from deaddrop.engine.core.errors import IllegalAction
from tests.engine.cards.helpers import README_DEAL, play_random

junk = st.one_of(
    st.integers(-2, 7),
    st.integers(0, 5),
    st.none(),
    st.booleans(),
    st.floats(allow_nan=True),
    st.text(max_size=2),
    st.tuples(st.integers(-1, 6), st.integers(-1, 6)),
    st.lists(st.integers(0, 5), max_size=3),
)
pairs = st.one_of(st.tuples(st.integers(-1, 6), st.integers(-1, 6)), junk)
actions = st.one_of(
    st.builds(ShareInfo, seat=junk, target=junk, give=junk, take=junk),
    st.builds(ShareInfo, seat=st.integers(0, 3), target=st.integers(0, 3), give=junk, take=junk),
    st.builds(SwapStash, seat=st.integers(0, 3), give=junk, take=junk),
    st.builds(SellSecrets, seat=st.integers(0, 3), target=junk, show=pairs),
    st.builds(GiveCard, seat=junk, card=junk),
    st.builds(HandBack, seat=st.integers(0, 3), card=junk),
    st.builds(Grab, seat=st.integers(0, 3), pair=pairs),
    st.builds(EndTurn, seat=junk),
    st.just(object()),
    st.none(),
)


def _canonical(action: Any) -> Any:
    """The action with a shown or grabbed pair in ascending order, as legal_actions lists it."""
    if isinstance(action, SellSecrets):
        low, high = sorted(action.show)
        return replace(action, show=(low, high))
    if isinstance(action, Grab):
        low, high = sorted(action.pair)
        return replace(action, pair=(low, high))
    return action


@settings(max_examples=300, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 1000),
    step=st.integers(0, 40),
    action=actions,
)
def test_any_action_is_applied_only_if_legal_else_illegal_action(
    players: int, seed: int, step: int, action: Any
) -> None:
    _, _, states = play_random(Setup(players, seed), seed, cap=40, patience=0.7)
    state = states[min(step, len(states) - 1)]
    try:
        apply(state, action)
    except IllegalAction:
        return
    assert _canonical(action) in legal_actions(state)


@settings(max_examples=200, deadline=None)
@given(
    players=junk,
    seed=junk,
    face_down=junk,
    tokens=junk,
    first=junk,
    deals=st.one_of(junk, st.just((README_DEAL,)), st.just(("deal",))),
)
def test_any_setup_starts_a_game_or_is_illegal(
    players: Any, seed: Any, face_down: Any, tokens: Any, first: Any, deals: Any
) -> None:
    setup = Setup(players, seed, Options(face_down, tokens), first, deals)
    try:
        state = start(setup)
    except IllegalAction:
        return
    assert state.pending is not None


@given(
    deal=st.builds(
        Deal,
        drop=junk,
        stash=st.one_of(junk, st.just((0, 1, 3))),
        hands=st.one_of(junk, st.just(((0, 0, 1), (1, 2, 3), (0, 4, 5)))),
    )
)
def test_any_given_deal_is_checked(deal: Deal) -> None:
    try:
        start(Setup(3, deals=(deal,)))
    except IllegalAction as error:
        assert error.code in {"C1", "C2"}


@given(seat=junk)
def test_any_viewer_gets_a_view_or_illegal_action(seat: Any) -> None:
    state = start(Setup(3, seed=1))
    try:
        view(state, seat)
    except IllegalAction as error:
        assert error.code == "C12"
