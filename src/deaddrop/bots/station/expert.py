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

from collections.abc import Mapping, Sequence
from typing import Any

from deaddrop.bots.station.base import DayPlan
from deaddrop.bots.station.belief import belief_of
from deaddrop.bots.station.expert_day import decide
from deaddrop.bots.station.known import read
from deaddrop.engine.core.rng import Rng
from deaddrop.engine.station.claims import Post


def plan_day(seen: Mapping[str, Any], posts: Sequence[Post], rng: Rng) -> tuple[DayPlan, Rng]:
    """The expert level's day for the seat whose view this is (S42: view and posts only)."""
    me = seen.get("me")
    if seen["over"] or me is None or not me["alive"]:
        return DayPlan(), rng
    known = read(seen, posts)
    return decide(known, belief_of(known), rng)
