"""The expert Station's Tribunal votes (S21): it decides by its belief before today's votes, and
its seats agree on one counter-vote against a push, so their votes meet."""

from __future__ import annotations

from deaddrop.bots.station.belief import belief_of
from deaddrop.bots.station.expert import before_the_vote
from deaddrop.bots.station.known import read
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.setup import setup_from_deal, start
from deaddrop.engine.station.state import State
from deaddrop.station_sim.chat import SimChat
from deaddrop.station_sim.simulate import seen_by
from tests.bots.station.test_expert_roles import DEAL7, _day, _seat, ring_odds


def _votes(pairs: list[tuple[str, str]]) -> State:
    """Day 1 of the seven-player deal with these live votes (voter, choice)."""
    state = start(setup_from_deal(DEAL7, 1))
    for voter, choice in pairs:
        state, _ = apply(state, A.CastVote(_seat(state, voter), _seat(state, choice)))
    return state


def _vote_of(state: State, codename: str, odds: dict[str, float]) -> A.CastVote:
    plan = _day(state, SimChat(), codename, ring_odds(odds))
    return next(a for a in plan.actions if isinstance(a, A.CastVote))


def test_s21_todays_live_votes_are_the_contest_not_the_station_seats_evidence() -> None:
    pushed = _votes([("OWL", "KESTREL")])
    known = read(seen_by(pushed, _seat(pushed, "FALCON")), [])
    quiet = _votes([])
    assert before_the_vote(known).votes == ()
    mark = belief_of(before_the_vote(known)).p_faction("KESTREL", "ring")
    assert mark == belief_of(read(seen_by(quiet, _seat(quiet, "FALCON")), [])).p_faction(
        "KESTREL", "ring"
    )
    assert belief_of(known).p_faction("KESTREL", "ring") > mark  # as evidence it would weigh


def test_s2_s21_counter_voters_agree_on_the_earliest_joined_backer_not_cleared() -> None:
    pushed = _votes([("OWL", "KESTREL"), ("RAVEN", "KESTREL")])
    falcon, owl, raven = (_seat(pushed, c) for c in ("FALCON", "OWL", "RAVEN"))
    assert _vote_of(pushed, "FALCON", {"RAVEN": 0.45, "OWL": 0.35}).choice == owl
    assert _vote_of(pushed, "FALCON", {"RAVEN": 0.45, "OWL": 0.05}).choice == raven
    assert falcon not in (owl, raven)


def test_s21_a_station_seat_joins_the_counter_vote_that_ties_a_push() -> None:
    tied = _votes([("OWL", "KESTREL"), ("RAVEN", "KESTREL"), ("WREN", "OWL"), ("HERON", "OWL")])
    vote = _vote_of(tied, "FALCON", {"OWL": 0.4, "RAVEN": 0.4})
    assert vote.choice == _seat(tied, "OWL")  # three on OWL: the push's backer is recalled
