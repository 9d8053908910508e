"""The expert Ring's own ballot (S21): it never votes as a visible bloc the expert Station can
counter-vote, defends a pushed mate by a tie, and follows a push the Station opened."""

from __future__ import annotations

from deaddrop.engine.station import actions as A
from deaddrop.engine.station.state import ABSTAIN
from deaddrop.station_sim.chat import SimChat
from tests.bots.station.test_expert_roles import _day, ring_odds
from tests.bots.station.test_expert_votes import _votes


def _ring_vote(pairs: list[tuple[str, str]], codename: str = "OWL") -> str | None:
    """The vote a Ring seat of the seven-player deal casts after these live votes."""
    state = _votes(pairs)
    plan = _day(state, SimChat(), codename, ring_odds({}))
    choice = next(a for a in plan.actions if isinstance(a, A.CastVote)).choice
    return None if choice == ABSTAIN else state.seats[choice].codename


def test_s21_the_ring_never_opens_a_push_on_an_unsuspected_outsider_alone() -> None:
    assert _ring_vote([]) is None  # Day 1, nobody suspected: abstaining draws no counter-vote


def test_s21_the_ring_never_votes_all_together_for_one_target_no_outsider_backs() -> None:
    assert _ring_vote([("RAVEN", "KESTREL")]) is None  # a mate's lone push stays a lone vote


def test_s21_a_ring_seat_follows_a_push_the_station_opened() -> None:
    assert _ring_vote([("HERON", "KESTREL")]) == "KESTREL"


def test_s21_a_ring_seat_ties_the_push_on_its_mate_so_nobody_is_recalled() -> None:
    pairs = [("HERON", "RAVEN"), ("WREN", "RAVEN"), ("RAVEN", "HERON")]
    assert _ring_vote(pairs) == "HERON"  # two on RAVEN, two on HERON: a tie (S21)


def test_s21_a_ring_seat_buses_a_mate_whose_recall_one_vote_cannot_stop() -> None:
    pairs = [("HERON", "RAVEN"), ("WREN", "RAVEN"), ("KESTREL", "RAVEN")]
    assert _ring_vote(pairs) == "RAVEN"  # three at the threshold of 3, no outsider near it
