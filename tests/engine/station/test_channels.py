"""Who reads and posts in each channel: S14, S26, S28, S29, S30."""

from __future__ import annotations

import pytest

from deaddrop.engine.core.errors import IllegalAction
from deaddrop.engine.station import (
    CastVote,
    RemovePlayer,
    ResolvePouch,
    SaveOperation,
    apply,
    setup_from_deal,
    start,
)
from deaddrop.engine.station.channels import Channel, can_read, check_post, interrogation_parties
from deaddrop.engine.station.state import State

NINE = [
    ("OWL", "ringleader"),
    ("CRANE", "honeytrap"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("SWIFT", "watcher"),
    ("FALCON", "interrogator"),
    ("KITE", "field_agent"),
    ("LARK", "field_agent"),
]
OWL, CRANE, RAVEN, HERON, WREN, SWIFT, FALCON, KITE, LARK = range(9)


def fresh() -> State:
    return start(setup_from_deal(NINE))


def recall(state: State, seat: int) -> State:
    """Everyone living votes for `seat`, then the Pouch departs."""
    for voter in state.living():
        state, _ = apply(state, CastVote(voter, seat))
    state, _ = apply(state, ResolvePouch())
    return state


def test_s28_everyone_reads_the_floor_only_the_living_post() -> None:
    state = recall(fresh(), HERON)
    for viewer in [None, *range(9)]:
        assert can_read(state, viewer, Channel.FLOOR)
    check_post(state, KITE, Channel.FLOOR, "I suspect RAVEN")
    with pytest.raises(IllegalAction) as refused:
        check_post(state, HERON, Channel.FLOOR, "from beyond")
    assert refused.value.code == "S28"


def test_s28_messages_need_text_and_stay_under_the_limit() -> None:
    state = fresh()
    for text in ["", "   ", "x" * 2001]:
        with pytest.raises(IllegalAction):
            check_post(state, KITE, Channel.FLOOR, text)
    check_post(state, KITE, Channel.FLOOR, "x" * 2000)


def test_s29_ring_channel_for_the_ring_burned_ring_reads_only() -> None:
    state = recall(fresh(), RAVEN)
    readers = {seat for seat in range(9) if can_read(state, seat, Channel.RING)}
    assert readers == {OWL, CRANE, RAVEN}
    assert not can_read(state, None, Channel.RING)
    check_post(state, OWL, Channel.RING, "tonight: KITE")
    with pytest.raises(IllegalAction) as burned:
        check_post(state, RAVEN, Channel.RING, "I am out")
    assert burned.value.code == "S29"
    with pytest.raises(IllegalAction) as outsider:
        check_post(state, HERON, Channel.RING, "let me in")
    assert outsider.value.code == "S29"


def test_s30_archive_for_burned_players_only() -> None:
    state = recall(fresh(), HERON)
    readers = {seat for seat in range(9) if can_read(state, seat, Channel.ARCHIVE)}
    assert readers == {HERON}
    check_post(state, HERON, Channel.ARCHIVE, "it was RAVEN")
    with pytest.raises(IllegalAction) as living:
        check_post(state, KITE, Channel.ARCHIVE, "hello dead")
    assert living.value.code == "S30"


def test_s14_interrogation_chat_for_the_two_until_the_next_pouch() -> None:
    state, _ = apply(fresh(), SaveOperation(FALCON, RAVEN))
    state, _ = apply(state, ResolvePouch())
    assert interrogation_parties(state, 2) == (FALCON, RAVEN)
    readers = {s for s in range(9) if can_read(state, s, Channel.INTERROGATION, day=2)}
    assert readers == {FALCON, RAVEN}
    check_post(state, RAVEN, Channel.INTERROGATION, "I was at the opera")
    with pytest.raises(IllegalAction):
        check_post(state, HERON, Channel.INTERROGATION, "me too")
    state, _ = apply(state, ResolvePouch())
    with pytest.raises(IllegalAction) as closed:
        check_post(state, FALCON, Channel.INTERROGATION, "one more thing")
    assert closed.value.code == "S14"
    # Both keep read access to its history.
    readers = {s for s in range(9) if can_read(state, s, Channel.INTERROGATION, day=2)}
    assert readers == {FALCON, RAVEN}


def test_s14_removed_party_closes_the_chat() -> None:
    state, _ = apply(fresh(), SaveOperation(FALCON, RAVEN))
    state, _ = apply(state, ResolvePouch())
    state, _ = apply(state, RemovePlayer(RAVEN))
    assert state.interrogation is None
    with pytest.raises(IllegalAction):
        check_post(state, FALCON, Channel.INTERROGATION, "hello?")


def test_s26_every_channel_opens_to_every_player_after_the_game() -> None:
    state = recall(fresh(), OWL)
    state = recall(state, RAVEN)
    state = recall(state, CRANE)
    assert state.winner == "station"
    for channel in Channel:
        for seat in range(9):
            assert can_read(state, seat, channel, day=2)
    assert not can_read(state, None, Channel.RING)
    check_post(state, OWL, Channel.FLOOR, "well played")
    with pytest.raises(IllegalAction) as closed:
        check_post(state, OWL, Channel.RING, "too late")
    assert closed.value.code == "S26"
