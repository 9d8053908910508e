"""Hypothesis over random whisper/death/Pouch sequences: a message's journaled readers are
exactly the seats the engine lets read it (S14, S28–S31); a living Station player is never one
of a Ring Channel's, the Archive's, or another pair's interrogation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import actions as A
from deaddrop.engine.station import apply, setup_from_deal, start
from deaddrop.engine.station.channels import Channel, can_read, interrogation_parties
from deaddrop.engine.station.roles import is_ring
from deaddrop.server.station.chat.channels import readers
from tests.server.station.tabs_fixtures import SIX

STEP = st.one_of(
    st.tuples(st.just("whisper"), st.integers(0, 5), st.integers(0, 5)),
    st.tuples(st.just("remove"), st.integers(0, 5), st.just(0)),
    st.tuples(st.just("pouch"), st.just(0), st.just(0)),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(STEP, max_size=12))
def test_readers_are_exactly_who_may_read(steps: list[tuple[str, int, int]]) -> None:
    state = start(setup_from_deal(SIX, seed=7))
    for kind, a, b in steps:
        action: A.Action = (
            A.SendWhisper(a, b, "x")
            if kind == "whisper"
            else A.RemovePlayer(a)
            if kind == "remove"
            else A.ResolvePouch()
        )
        try:
            state, events = apply(state, action)
        except IllegalAction:
            continue
        for event in events:
            if event.kind == "whisper":  # S31: the text for the two alone
                assert set(event.audience.seats) == {a, b} and not event.audience.public
        if state.over:
            break
        for channel in Channel:
            audience = readers(state, channel, state.day)
            assert audience.public == (channel is Channel.FLOOR)
            for seat in range(6):
                allowed = can_read(state, seat, channel, state.day)
                assert audience.includes(seat) == allowed
                living_station = state.alive[seat] and not is_ring(state.seats[seat].role)
                if living_station and channel in (Channel.RING, Channel.ARCHIVE):
                    assert not audience.includes(seat)
                parties = interrogation_parties(state, state.day)
                if channel is Channel.INTERROGATION and seat not in (parties or ()):
                    assert not audience.includes(seat)
