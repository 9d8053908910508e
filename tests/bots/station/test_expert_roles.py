"""The expert level's role decisions, each from a posterior built by hand: the Analyst reads the
likeliest unread player, the Ring does not kill the player it expects sheltered, the
Interrogator respects S9, votes meet on a likely-Ring leader, the Ring's fake claims stay
consistent across days, and the Defector courts its recall (S25)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.expert_day import decide
from deaddrop.bots.station.known import read
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.channels import Channel
from deaddrop.engine.station.claims import (
    ReadingClaim,
    RoleClaim,
    VisitClaim,
    format_post,
    parse_post,
)
from deaddrop.engine.station.game import apply
from deaddrop.engine.station.roles import FACTION
from deaddrop.engine.station.setup import setup_from_deal, start
from deaddrop.engine.station.state import State
from deaddrop.station_sim.chat import SimChat
from deaddrop.station_sim.simulate import seen_by


@dataclass(frozen=True)
class HandBelief:
    """A posterior given outright: codename → role → probability."""

    roles: Mapping[str, Mapping[str, float]]
    liars: frozenset[str] = field(default_factory=frozenset)

    def p_role(self, codename: str, role: str) -> float:
        return self.roles.get(codename, {}).get(role, 0.0)

    def p_faction(self, codename: str, faction: str) -> float:
        roles = self.roles.get(codename, {})
        return sum(p for r, p in roles.items() if FACTION[r].value == faction)


def ring_odds(odds: Mapping[str, float], rest: str = "field_agent") -> HandBelief:
    """A posterior where each named player is the Ring (a Forger) with the given probability."""
    return HandBelief({c: {"forger": p, rest: 1 - p} for c, p in odds.items()})


DEAL7 = (
    ("OWL", "ringleader"),
    ("RAVEN", "forger"),
    ("HERON", "analyst"),
    ("WREN", "safehouse_keeper"),
    ("KESTREL", "watcher"),
    ("FALCON", "field_agent"),
    ("SWIFT", "field_agent"),
)
DEAL8 = (*DEAL7, ("PLOVER", "defector"))
DEAL9 = (
    *DEAL7[:5],
    ("FALCON", "interrogator"),
    ("SWIFT", "field_agent"),
    ("MAGPIE", "field_agent"),
    ("PLOVER", "honeytrap"),
)


def _seat(state: State, codename: str) -> int:
    return next(s.index for s in state.seats if s.codename == codename)


def _day(state: State, chat: SimChat, codename: str, belief: HandBelief) -> DayPlan:
    seat = _seat(state, codename)
    seen = seen_by(state, seat)
    plan, _ = decide(read(seen, chat.posts_for(state, seat, seen)), belief, Rng.from_seed(7))
    return plan


def _pouch(state: State, saves: Sequence[A.Action] = ()) -> State:
    for action in saves:
        state, _ = apply(state, action)
    state, _ = apply(state, A.ResolvePouch())
    return state


def test_the_analyst_reads_the_likeliest_ring_player_it_has_not_read() -> None:
    state = start(setup_from_deal(DEAL7, 1))
    state = _pouch(state, [A.SaveOperation(_seat(state, "HERON"), _seat(state, "SWIFT"))])
    belief = ring_odds({"SWIFT": 0.9, "KESTREL": 0.5, "OWL": 0.4, "RAVEN": 0.3, "WREN": 0.0})
    plan = _day(state, SimChat(), "HERON", belief)
    # SWIFT was read on Day 1 already; WREN is certain: KESTREL is the likeliest left.
    assert A.SaveOperation(_seat(state, "HERON"), _seat(state, "KESTREL")) in plan.actions


def _claimed(state: State, chat: SimChat, codename: str, role: str) -> None:
    chat.post(state, _seat(state, codename), Channel.FLOOR, format_post([RoleClaim(role)]))


def test_the_ring_does_not_order_the_kill_of_the_player_it_expects_sheltered() -> None:
    state = _pouch(start(setup_from_deal(DEAL7, 1)))
    chat = SimChat()
    _claimed(state, chat, "HERON", "analyst")
    _claimed(state, chat, "KESTREL", "watcher")
    roles = {c: {r: 1.0} for c, r in DEAL7}
    plan = _day(state, chat, "OWL", HandBelief(roles))
    order = next(a for a in plan.actions if isinstance(a, A.SaveOrder))
    # The Keeper shelters the first claimed investigator (HERON): the Ring takes the other.
    assert order.target == _seat(state, "KESTREL")
    without_keeper = {**roles, "WREN": {"field_agent": 1.0}}
    plan = _day(state, chat, "OWL", HandBelief(without_keeper))
    order = next(a for a in plan.actions if isinstance(a, A.SaveOrder))
    assert order.target == _seat(state, "HERON")  # nobody to shelter: the Analyst first


def test_s9_the_interrogator_never_detains_the_player_it_detained_at_the_last_pouch() -> None:
    state = start(setup_from_deal(DEAL9, 1))
    state = _pouch(state, [A.SaveOperation(_seat(state, "FALCON"), _seat(state, "RAVEN"))])
    belief = ring_odds({"RAVEN": 0.95, "PLOVER": 0.6, "SWIFT": 0.2})
    plan = _day(state, SimChat(), "FALCON", belief)
    ops = [a for a in plan.actions if isinstance(a, A.SaveOperation)]
    assert ops == [A.SaveOperation(_seat(state, "FALCON"), _seat(state, "PLOVER"))]
    later = _pouch(state, plan.actions)
    if not later.over and later.alive[_seat(later, "FALCON")]:
        again = _day(later, SimChat(), "FALCON", belief)
        banned = _seat(later, "PLOVER")
        assert all(a.target != banned for a in again.actions if isinstance(a, A.SaveOperation))


def test_s21_a_station_seat_joins_a_leader_that_is_likely_the_ring() -> None:
    state = start(setup_from_deal(DEAL7, 1))
    state, _ = apply(state, A.CastVote(_seat(state, "WREN"), _seat(state, "RAVEN")))
    belief = ring_odds({"RAVEN": 0.45, "OWL": 0.55})
    plan = _day(state, SimChat(), "FALCON", belief)
    assert A.CastVote(_seat(state, "FALCON"), _seat(state, "RAVEN")) in plan.actions
    plan = _day(state, SimChat(), "FALCON", ring_odds({"RAVEN": 0.05, "OWL": 0.7}))
    assert A.CastVote(_seat(state, "FALCON"), _seat(state, "OWL")) in plan.actions


def test_s25_a_station_seat_never_joins_a_self_voter_and_votes_against_its_backers() -> None:
    state = start(setup_from_deal(DEAL8, 1))
    state, _ = apply(state, A.CastVote(_seat(state, "SWIFT"), _seat(state, "SWIFT")))
    state, _ = apply(state, A.CastVote(_seat(state, "RAVEN"), _seat(state, "SWIFT")))
    belief = ring_odds({"SWIFT": 0.45, "RAVEN": 0.4, "OWL": 0.2})
    plan = _day(state, SimChat(), "FALCON", belief)
    # A self-voter courts its own recall (the Defector's way, S25): its backer is the suspect.
    assert A.CastVote(_seat(state, "FALCON"), _seat(state, "RAVEN")) in plan.actions


def _floor_claims(plan: DayPlan) -> list[object]:
    return [c for p in plan.posts if p.channel == "floor" for c in parse_post(p.text)]


def test_an_accused_ring_member_keeps_one_fake_story_across_days() -> None:
    state = _pouch(start(setup_from_deal(DEAL7, 1)))
    chat = SimChat()
    accusation = format_post([RoleClaim("analyst"), ReadingClaim(1, "RAVEN", "COMPROMISED")])
    chat.post(state, _seat(state, "HERON"), Channel.FLOOR, accusation)
    roles = {c: {r: 1.0} for c, r in DEAL7}
    day2 = _day(state, chat, "RAVEN", HandBelief(roles))
    story = _floor_claims(day2)
    assert story[:2] == [RoleClaim("analyst"), ReadingClaim(1, "HERON", "COMPROMISED")]
    for post in day2.posts:
        chat.post(state, _seat(state, "RAVEN"), Channel(post.channel), post.text)
    state = _pouch(state)
    if state.over or not state.alive[_seat(state, "RAVEN")]:
        return
    day3 = _day(state, chat, "RAVEN", HandBelief(roles))
    told = _floor_claims(day3)
    assert RoleClaim("analyst") not in told  # the cover is told once and kept
    assert not any(isinstance(c, RoleClaim) for c in told)
    readings = [c for c in told if isinstance(c, ReadingClaim)]
    assert all(c.day == 2 and c.reading == "COMPROMISED" for c in readings)
    cable = next(a for a in day3.actions if isinstance(a, A.EditFinalCable))
    assert parse_post(cable.text)[0] == RoleClaim("analyst")  # the Final Cable keeps the story


def test_s25_the_defector_votes_for_itself_and_looks_like_the_ring() -> None:
    deal8 = (*DEAL7, ("MAGPIE", "defector"))
    state = _pouch(start(setup_from_deal(deal8, 1)))
    odds = {c: 0.3 for c, _ in deal8} | {"HERON": 0.01}
    plan = _day(state, SimChat(), "MAGPIE", ring_odds(odds))
    me = _seat(state, "MAGPIE")
    assert A.CastVote(me, me) in plan.actions
    assert _floor_claims(plan)[:2] == [
        RoleClaim("analyst"),
        ReadingClaim(1, "HERON", "COMPROMISED"),
    ]


def test_s14_s29_a_detained_ring_member_tells_its_mates_who_the_interrogator_is_once() -> None:
    state = start(setup_from_deal(DEAL9, 1))
    state = _pouch(state, [A.SaveOperation(_seat(state, "FALCON"), _seat(state, "RAVEN"))])
    belief = ring_odds({"HERON": 0.0})
    plan = _day(state, SimChat(), "RAVEN", belief)
    ring = [c for p in plan.posts if p.channel == "ring" for c in parse_post(p.text)]
    assert VisitClaim(1, "FALCON", "RAVEN") in ring
    chat = SimChat()
    chat.post(
        state, _seat(state, "RAVEN"), Channel.RING, format_post([VisitClaim(1, "FALCON", "RAVEN")])
    )
    again = _day(state, chat, "RAVEN", belief)
    told = [c for p in again.posts if p.channel == "ring" for c in parse_post(p.text)]
    assert VisitClaim(1, "FALCON", "RAVEN") not in told
