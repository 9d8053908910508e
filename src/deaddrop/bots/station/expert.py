"""The `expert` Station level: every decision from the exact posterior over the hidden deal.

A seat reads its knowledge (`known.read`: its view and the posts it may see, S42), the exact
posterior (`belief.belief_of`), and plays its role to win from them: the Station in
`expert_station` (Operation, vote), the Ring in `expert_ring` (order, performer, frame,
distraction, agreed vote), the talk and the lies of both in `expert_talk` (S43 claims). The
Defector courts its own recall (S25). The level keeps no memory between days: what it said
before is read back from its own posts, and every draw comes from the generator it is given,
so a day is a pure function of (view, posts, rng).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.belief import belief_of
from deaddrop.bots.station.expert_day import decide
from deaddrop.bots.station.known import Known, read_if_playing
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post


def plan_day(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
    """The expert level's day for the seat whose view this is (S42: view and posts only)."""
    known = read_if_playing(seen, posts)
    if known is None:
        return DayPlan(), rng
    if known.faction == "station":
        return decide(known, belief_of(before_the_vote(known)), rng)
    return decide(known, belief_of(known), rng)


def before_the_vote(known: Known) -> Known:
    """A Station seat's knowledge without today's live votes (S21), to decide by.

    Today's votes are the contest the seat is deciding in, not yet evidence: weighed as
    evidence, a vote nobody gave a reason for makes its mark look like the Ring (a Station
    voter's aim, in the likelihood), so a Ring pair's Day 1 push drew the Station's votes after
    it. The rules of the vote read them as a structure instead (who leads, who backs whom), and
    once the Pouch has left they are the record of the day, weighed like any other vote."""
    return dataclasses.replace(known, votes=tuple(v for v in known.votes if v[0] != known.day))
