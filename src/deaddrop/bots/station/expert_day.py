"""The `expert` level's day, decided from a seat's knowledge and its posterior (no belief here).

The Station in `expert_station` (Operation, vote), the Ring in `expert_ring` (order, performer,
frame, distraction, agreed vote), the talk and the lies of both in `expert_talk` (S43 claims),
the Defector here (S25). Kept apart from `expert.plan_day` so tests can hand it a posterior.
"""

from __future__ import annotations

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.day_builder import DayBuilder, result_claims
from deaddrop.bots.station.expert_policy import Posterior, likely_victim, with_traffic
from deaddrop.bots.station.expert_ring import (
    agreed_plan,
    current_order,
    distract_target,
    frame_target,
    order_performer,
    order_target,
    public_suspicion,
    ring_vote,
)
from deaddrop.bots.station.expert_ring_vote import ring_ballot
from deaddrop.bots.station.expert_station import station_target, station_vote
from deaddrop.bots.station.expert_talk import (
    Talk,
    defector_story,
    detention_records,
    ring_story,
    station_talk,
)
from deaddrop.bots.station.known import Known
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station import actions as A
from deaddrop.engine.station.claims import RoleClaim, StanceClaim


def decide(known: Known, belief: Posterior, rng: Rng) -> tuple[DayPlan, Rng]:
    """A living seat's day from its knowledge and its posterior."""
    if known.faction == "ring":
        return _ring_day(known, belief, rng)
    if known.role == "defector":
        return _defector_day(known, belief), rng
    return _station_day(known, with_traffic(known, belief)), rng


def _say(day: DayBuilder, talk: Talk) -> None:
    """Post a day's claims where they go: the Ring Channel first, then the Floor, then whispers."""
    if talk.ring:
        day.post("ring", talk.ring)
    if talk.floor:
        day.post("floor", talk.floor)
    for recipient, claims in talk.whispers:
        day.whisper(recipient, claims)


def _station_day(known: Known, belief: Posterior) -> DayPlan:
    """A Station seat: act where the posterior says it pays, claim when it matters, vote."""
    day = DayBuilder(known)
    day.operation(station_target(known, belief))
    vote = station_vote(known, belief)
    _say(day, station_talk(known, belief, vote))
    day.vote(vote)
    day.final_cable([RoleClaim(known.role), *result_claims(known)])  # S32: the truth, at death
    return day.plan()


def _ring_day(known: Known, belief: Posterior, rng: Rng) -> tuple[DayPlan, Rng]:
    """A Ring seat: agree the vote, order the kill, frame or distract, keep its cover story."""
    day = DayBuilder(known)
    public = public_suspicion(known)
    plan = agreed_plan(known)
    if plan is None:
        plan = ring_vote(known, belief, public)
        if plan is not None:
            day.post("ring", [StanceClaim("suspect", plan)])  # S29: one vote for the whole Ring
    tonight = current_order(known)
    if known.options["order_targets"]:
        victim = order_target(known, belief)
        performer = order_performer(known, public)
        if victim is not None and performer is not None:
            seat_of = day.seat_of
            day.actions.append(A.SaveOrder(day.seat, seat_of[victim], seat_of[performer]))
            tonight = victim
    elif known.role == "forger":
        day.operation(frame_target(known, plan))
    elif known.role == "honeytrap":
        day.operation(distract_target(known, belief, tonight))
    talk, rng = ring_story(known, belief, plan, rng)
    talk.ring.extend(detention_records(known))
    _say(day, talk)
    day.vote(ring_ballot(known, plan, public))  # never a visible bloc
    day.final_cable([*known.my_claims(), *talk.floor])  # the cover story, kept to the end
    return day.plan(), rng


def _defector_day(known: Known, belief: Posterior) -> DayPlan:
    """The Defector: visit the likeliest victim with a rumor (S27: a visit the Watcher sees),
    tell the Ring's kind of story, and vote for itself (S25)."""
    day = DayBuilder(known)
    day.operation(likely_victim(known, belief))
    talk = defector_story(known, belief)
    _say(day, talk)
    day.vote(known.me)
    day.final_cable([*known.my_claims(), *talk.floor])
    return day.plan()
