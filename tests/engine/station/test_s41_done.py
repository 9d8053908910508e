"""S41: "done for the day" marks, the early Pouch's trigger."""

from __future__ import annotations

import pytest

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import (
    CastVote,
    MarkDone,
    RemovePlayer,
    ResolvePouch,
    all_done,
    apply,
    setup_from_deal,
    start,
)
from deaddrop.engine.station.actions import DayAction
from deaddrop.engine.station.game import apply_day
from deaddrop.engine.station.views import view

from .helpers import SIX


def test_s41_early_pouch_when_every_living_player_is_done() -> None:
    state = start(setup_from_deal(SIX))
    for seat in range(5):
        state, events = apply(state, MarkDone(seat))
        assert events[0].audience.public
        assert not all_done(state)
    state, _ = apply(state, MarkDone(5))
    assert all_done(state)
    assert view(state, None)["done"] == [s[0] for s in SIX]
    state, _ = apply(state, MarkDone(5, done=False))
    assert not all_done(state)


def test_s41_marks_clear_at_the_pouch_and_the_burned_do_not_count() -> None:
    state = start(setup_from_deal(SIX))
    for voter in range(6):
        state, _ = apply(state, CastVote(voter, 0))
        state, _ = apply(state, MarkDone(voter))
    state, _ = apply(state, ResolvePouch())
    assert state.done == (False,) * 6
    state, _ = apply(state, RemovePlayer(3))
    for seat in (1, 2, 4, 5):
        state, _ = apply(state, MarkDone(seat))
    assert all_done(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, MarkDone(0))
    assert refused.value.code == "S8"


def test_s41_apply_day_keeps_the_done_marks_of_a_batch() -> None:
    state = start(setup_from_deal(SIX))
    batch: list[DayAction] = [MarkDone(seat) for seat in range(6)]
    batch.append(MarkDone(2, done=False))
    fast = apply_day(state, batch)
    slow = state
    for action in batch:
        slow, _ = apply(slow, action)
    assert fast.done == (True, True, False, True, True, True)
    assert fast == slow
