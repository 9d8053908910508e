"""Inactivity (issue 4): two days with no save, whisper or post mark a seat, never kill it."""

from __future__ import annotations

from deaddrop.engine.station import (
    CastVote,
    ResolvePouch,
    SaveOperation,
    SendWhisper,
    apply,
    setup_from_deal,
)
from deaddrop.engine.station import start as start_game
from deaddrop.engine.station.state import State
from deaddrop.server.station.host.table_limits import is_inactive
from deaddrop.server.station.tabs.info_builder import is_inactive_now

SIX = [
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KITE", "field_agent"),
    ("LARK", "field_agent"),
]
HERON, KITE = 2, 4


def two_quiet_days(*, whisper_on_day_2: bool = False) -> State:
    state = start_game(setup_from_deal(SIX))
    for day in (1, 2):
        state, _ = apply(state, CastVote(KITE, HERON))
        if day == 2 and whisper_on_day_2:
            state, _ = apply(state, SendWhisper(HERON, KITE, "psst"))
        state, _ = apply(state, ResolvePouch())
    return state


def test_two_quiet_days_mark_a_seat_inactive_and_it_stays_alive() -> None:
    state = two_quiet_days()
    assert is_inactive(state.history, HERON, 1)
    assert not is_inactive(state.history, KITE, 1)  # voted both days
    assert state.alive[HERON]


def test_a_whisper_or_a_post_counts_as_activity() -> None:
    assert not is_inactive(two_quiet_days(whisper_on_day_2=True).history, HERON, 1)
    assert not is_inactive(two_quiet_days().history, HERON, 1, posted_days=frozenset({1}))


def test_a_newcomer_is_not_blamed_for_the_days_before_the_replacement() -> None:
    assert not is_inactive(two_quiet_days().history, HERON, first_full_day=2)


def test_inactivity_changes_only_at_a_pouch_not_with_todays_saves() -> None:
    """The Roster shows the mark to everyone: a private save today (an Operation) must not
    lift it in front of them (S26-S31); the next Pouch decides, from the days it resolved."""
    state = two_quiet_days()
    assert is_inactive_now(state, HERON, 1)
    assert is_inactive_now(state, HERON, 1, posted_days=frozenset({state.day}))
    voted, _ = apply(state, CastVote(HERON, KITE))
    saved, _ = apply(voted, SaveOperation(HERON, KITE))
    assert is_inactive_now(saved, HERON, 1)
    resolved, _ = apply(saved, ResolvePouch())
    assert not is_inactive_now(resolved, HERON, 1)


def test_a_stand_ins_days_count_as_the_players_absence() -> None:
    """Issue 14: a bot standing in saves for the seat, but its days are the holder's absence."""
    state = start_game(setup_from_deal(SIX))
    for _ in (1, 2):
        state, _ = apply(state, CastVote(HERON, KITE))  # the stand-in's vote
        state, _ = apply(state, ResolvePouch())
    assert not is_inactive(state.history, HERON, 1)
    assert is_inactive(state.history, HERON, 1, absent_days=frozenset({1, 2}))
    assert not is_inactive(state.history, HERON, 1, absent_days=frozenset({2}))  # back on Day 1
    assert is_inactive_now(state, HERON, 1, absent_days=frozenset({1, 2}))
